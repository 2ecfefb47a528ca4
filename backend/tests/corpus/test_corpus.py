"""The regression corpus: every platform of platforms.yaml planned and rendered as text, compared
with its golden in golden/<id>.txt. Regenerate after an intended change with

    UPDATE_GOLDEN=1 ../.venv/bin/python -m pytest tests/corpus -q     (from backend/)

then review the diff (git diff backend/tests/corpus/golden) before committing it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import resolve
from tests.corpus.render import CorpusEntry, corpus_plan, load_corpus, render_plan
from tests.renderers.golden_io import check_golden

GOLDEN = Path(__file__).parent / "golden"
CORPUS = load_corpus()
MIN_PLATFORMS = 34
MIN_YEARS = 5


@pytest.mark.parametrize("entry", CORPUS, ids=[e.id for e in CORPUS])
def test_plan_matches_golden(kb: KnowledgeBase, entry: CorpusEntry) -> None:
    text = render_plan(corpus_plan(kb, entry), entry.id, entry.why)
    check_golden(entry.id, text, GOLDEN, "plan")


def test_corpus_entries_are_well_formed() -> None:
    ids = [e.id for e in CORPUS]
    assert len(ids) >= MIN_PLATFORMS, f"only {len(ids)} platforms"
    assert len(set(ids)) == len(ids), "duplicate ids"
    for entry in CORPUS:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry.id), entry.id
        assert entry.why.strip() and "\n" not in entry.why, entry.id
        assert "as_of" in entry.body, f"{entry.id}: as_of must be fixed"
        assert entry.platform().oracle.rac == (entry.platform().oracle.rac_nodes is not None), (
            f"{entry.id}: a RAC platform names its rac_nodes"
        )


def test_no_orphan_goldens() -> None:
    if os.environ.get("UPDATE_GOLDEN") == "1":
        for path in GOLDEN.glob("*.txt"):
            if path.stem not in {e.id for e in CORPUS}:
                path.unlink()
        return
    orphans = sorted(p.stem for p in GOLDEN.glob("*.txt") if p.stem not in {e.id for e in CORPUS})
    assert not orphans, f"goldens without a platform (UPDATE_GOLDEN=1 removes them): {orphans}"


def test_corpus_coverage(kb: KnowledgeBase) -> None:
    platforms: list[Platform] = [e.platform() for e in CORPUS]
    missing: list[str] = []

    def need(label: str, wanted: set[str], have: set[str]) -> None:
        if not wanted <= have:
            missing.append(f"{label}: {sorted(wanted - have)}")

    need("OS", set(kb.os), {p.host.os for p in platforms})
    need(
        "OS release",
        {
            "solaris 8",
            "solaris 9",
            "solaris 10",
            "solaris 11",
            "linux rhel5",
            "linux rhel6",
            "linux rhel7",
            "linux rhel8",
            "linux rhel9",
            "aix 5.3",
            "aix 6.1",
            "aix 7.2",
            "aix 7.3",
            "hpux 11.23",
            "hpux 11.31",
        },
        {f"{p.host.os} {_major_release(p)}" for p in platforms},
    )
    need(
        "Linux distribution",
        {"rhel", "ol", "sles"},
        {_distro(kb, p) for p in platforms if p.host.os == "linux"},
    )
    families: set[str] = {f.id for vendor in kb.filers.vendors.values() for f in vendor.families}
    need("filer family", families, {_family(kb, p) for p in platforms})
    need("filer vendor", set(kb.filers.vendors), {p.filer.vendor for p in platforms})
    need(
        "Data ONTAP 7-mode release line",
        {"6.5", "7.x", "8.1"},
        {_ontap7_line(p) for p in platforms if _family(kb, p) == "ontap7"},
    )
    need(
        "RAC / single", {"rac", "single"}, {_yes(p.oracle.rac, "rac", "single") for p in platforms}
    )
    need("NFS client", {"dnfs", "knfs"}, {_yes(p.oracle.dnfs, "dnfs", "knfs") for p in platforms})
    need("NFS version", {"3", "4.1"}, {p.oracle.nfs_version for p in platforms})
    need("Oracle bits", {"32", "64"}, {str(p.oracle.bits) for p in platforms})
    need("workload", {"oltp", "dss"}, {p.oracle.workload for p in platforms})
    need("ORACLE_HOME", {"nas", "local"}, {p.layout.oracle_home for p in platforms})
    need("NIC speed", {"1", "10", "25", "100"}, {str(p.network.nic_gbps) for p in platforms})
    need(
        "Linux dNFS on NFSv4.1",
        {"yes"},
        {
            "yes"
            for p in platforms
            if p.host.os == "linux" and p.oracle.dnfs and p.oracle.nfs_version == "4.1"
        },
    )
    need(
        "RAC on every OS",
        set(kb.os),
        {p.host.os for p in platforms if p.oracle.rac},
    )
    years = {p.as_of.year for p in platforms if p.as_of is not None}
    if len(years) < MIN_YEARS:
        missing.append(f"as_of years: only {sorted(years)}")
    assert not missing, "corpus coverage lost:\n" + "\n".join(missing)


def _yes(flag: bool, yes: str, no: str) -> str:
    return yes if flag else no


def _major_release(platform: Platform) -> str:
    release = platform.host.os_version
    if platform.host.os == "solaris":
        return re.sub(r"u\d+$", "", release)
    return release


def _distro(kb: KnowledgeBase, platform: Platform) -> str:
    release = kb.os[platform.host.os].release(platform.host.os_version)
    return (release.distro or "") if release is not None else ""


def _family(kb: KnowledgeBase, platform: Platform) -> str:
    return resolve(kb, platform).filer_family.id


def _ontap7_line(platform: Platform) -> str:
    release = platform.filer.os_version or ""
    if release.startswith("6.5"):
        return "6.5"
    if release.startswith("7."):
        return "7.x"
    return release[:3]

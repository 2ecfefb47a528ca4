"""Collections of Solaris and AIX hosts from real command output (issue 24): the platform each
shows, and every file it holds read by the audit.

Sources of the outputs (each file is copied as published; nasplan's collector would write it
under the name used here):
- Solaris 10 ``uname -a`` and ``cat /etc/release``: a Server Fault question, "What part of
  Solaris version string ids the update?" (serverfault.com/questions/524883, July 2013).
- AIX ``oslevel -s``: "OS level and Description" (jvb-share.blogspot.com, 17 July 2012), which
  prints ``6100-06-05-1115`` and explains the fields.
- /etc/system (TR-3496, Appendix B, 2006), /etc/filesystems (Oracle Database Installation
  Guide 19c for AIX, 2019) and ``nfso -a`` (AIX 7.1 Performance management, nfso command): the
  real-world corpus (tests/corpus/realworld, with their origins in its manifests).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from tests.collectors.archive import tar

REALWORLD = Path(__file__).parents[1] / "corpus" / "realworld" / "files"

SOLARIS_UNAME = "SunOS rcclab5 5.10 Generic_147440-01 sun4u sparc SUNW,Ultra-80\n"
SOLARIS_RELEASE = (
    "                   Oracle Solaris 10 8/11 s10s_u10wos_17b SPARC\n"
    "  Copyright (c) 1983, 2011, Oracle and/or its affiliates. All rights reserved.\n"
    "                        Assembled 23 August 2011\n"
)
AIX_OSLEVEL = "6100-06-05-1115\n"


def _collection(os_name: str, files: dict[str, tuple[str, str]]) -> bytes:
    manifest = [f"collector\t{os_name}\t2026.12.5", "host\tdb01", "date\t2026-11-27T04:00:00Z"]
    manifest += [f"file\t{name}\t{kind}\tread\twhat" for name, (kind, _) in files.items()]
    contents = {"MANIFEST.txt": "\n".join(manifest) + "\n"}
    contents |= {name: text for name, (_, text) in files.items()}
    return tar(contents)


def _read(client: TestClient, data: bytes) -> dict[str, Any]:
    answer = client.post(
        "/api/v1/collections", content=data, headers={"content-type": "application/x-tar"}
    )
    assert answer.status_code == 200, answer.text
    report: dict[str, Any] = answer.json()
    return report


def _audited(client: TestClient, platform: dict[str, Any], pastes: list[Any]) -> dict[str, Any]:
    answer = client.post("/api/v1/audits", json={"platform": platform, "pastes": pastes})
    assert answer.status_code == 200, answer.text
    report: dict[str, Any] = answer.json()
    return report


def test_a_solaris_10_host_from_real_output(client: TestClient, kb: KnowledgeBase) -> None:
    files = {
        "uname.txt": ("-", SOLARIS_UNAME),
        "release.txt": ("-", SOLARIS_RELEASE),
        "etc_system.txt": (
            "etc_system",
            (REALWORLD / "unx-sol-tr3496-etc-system-2006.txt").read_text(),
        ),
    }
    report = _read(client, _collection("solaris", files))
    answers = {a["field"]: (a["value"], a["evidence"]) for a in report["answers"]}
    assert answers["host.os"][0] == "solaris"
    # 8/11 is update 10, after 10/09 (update 8): the catalog's "10 10/09 (update 8)" release
    # and the rules from it on apply.
    assert answers["host.os_version"] == (
        "10u8",
        "release.txt: Oracle Solaris 10 8/11 s10s_u10wos_17b SPARC",
    )
    platform = deep_merge(
        kb.presets["tr3496-lab"].platform, {"host": {"os_version": answers["host.os_version"][0]}}
    )
    audited = _audited(client, platform, report["pastes"])
    assert audited["checked"]["etc_system"] == 3


def test_an_aix_host_from_real_output(client: TestClient, kb: KnowledgeBase) -> None:
    files = {
        "oslevel.txt": ("-", AIX_OSLEVEL),
        "filesystems.txt": (
            "filesystems",
            (REALWORLD / "unx-aix-ora19c-filesystems-2019.txt").read_text(),
        ),
        "nfso.txt": ("nfso", (REALWORLD / "unx-aix71-nfso-ibm-sample-2010.txt").read_text()),
    }
    report = _read(client, _collection("aix", files))
    answers = {a["field"]: (a["value"], a["evidence"]) for a in report["answers"]}
    assert answers["host.os"][0] == "aix"
    assert answers["host.os_version"] == ("6.1", "oslevel.txt: 6100-06-05-1115")
    assert {p["kind"] for p in report["pastes"]} == {"filesystems", "nfso"}
    platform = deep_merge(kb.presets["example-aix"].platform, {"host": {"os_version": "6.1"}})
    audited = _audited(client, platform, report["pastes"])
    assert audited["checked"]["filesystems"] >= 1 and audited["checked"]["nfso"] > 0


@pytest.mark.parametrize(
    ("release", "expected"),
    [
        # The release line's words only (the build ids vary); 8/11 is the real one above.
        ("Solaris 10 3/05 SPARC", "10"),  # the first release
        ("Solaris 10 5/09 SPARC", "10"),  # update 7
        ("Solaris 10 10/09 SPARC", "10u8"),
        (SOLARIS_RELEASE.splitlines()[0], "10u8"),
        ("Oracle Solaris 10 1/13 SPARC", "10u8"),
        ("Oracle Solaris 11.4 SPARC", "11"),
    ],
)
def test_solaris_updates_from_10_09_on_are_the_catalogs_10u8(
    client: TestClient, release: str, expected: str
) -> None:
    files = {"release.txt": ("-", release + "\n")}
    answers = {
        a["field"]: a["value"] for a in _read(client, _collection("solaris", files))["answers"]
    }
    assert answers["host.os_version"] == expected

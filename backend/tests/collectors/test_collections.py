"""Reading what a collector wrote (issue 24): the archive as a whole, the platform answers it
shows with their evidence, what could not be read; hostile archives get a clear 4xx."""

from __future__ import annotations

import subprocess
from io import StringIO
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from nasplan.cli import main as cli_main
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.collector import ARCHIVE, collector_script
from tests.collectors.archive import tar
from tests.platforms import linux_ontap

REALWORLD = Path(__file__).parents[1] / "corpus" / "realworld" / "files"
_TAR = {"content-type": "application/x-tar"}


def _manifest(os_name: str, rows: list[tuple[str, str, str]]) -> str:
    lines = [f"collector\t{os_name}\t2026.12.5", "host\tdb01", "date\t2026-11-27T04:00:00Z"]
    lines += [f"file\t{name}\t{kind}\t{status}\twhat" for name, kind, status in rows]
    return "\n".join(lines) + "\n"


def _collect(client: TestClient, data: bytes) -> Any:
    response = client.post("/api/v1/collections", content=data, headers=_TAR)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_collection_made_on_this_host_is_read_and_audited(
    client: TestClient, kb: KnowledgeBase, tmp_path: Path
) -> None:
    script = tmp_path / "collect.sh"
    script.write_text(collector_script(kb.setting_keys(), "linux", kb.version))
    out = tmp_path / "out"
    subprocess.run(["sh", str(script), str(out)], check=True, capture_output=True)
    report = _collect(client, (out / ARCHIVE).read_bytes())
    answers = {a["field"]: a for a in report["answers"]}
    assert answers["host.os"]["value"] == "linux"
    assert answers["host.os"]["evidence"].startswith("MANIFEST.txt")
    pastes = report["pastes"]
    assert ("sysctl.txt", "sysctl") in [(p["name"], p["kind"]) for p in pastes]
    status = {f["file"]: f["status"] for f in report["files"]}
    assert status["dnfs_servers.txt"].startswith("not read")
    platform = linux_ontap(dnfs=False)
    audited = client.post("/api/v1/audits", json={"platform": platform, "pastes": pastes})
    assert audited.status_code == 200, audited.text
    assert audited.json()["checked"]["sysctl"] > 0
    # The same directory through the CLI.
    printed = StringIO()
    code = cli_main(
        ["audit", "--platform", str(_platform_file(tmp_path, platform)), "--collected", str(out)],
        out=printed,
    )
    assert code in (0, 1)
    assert "sysctl" in printed.getvalue()


def _platform_file(tmp_path: Path, platform: dict[str, object]) -> Path:
    import json

    path = tmp_path / "platform.json"
    path.write_text(json.dumps(platform))
    return path


def test_answers_rest_on_real_output(client: TestClient) -> None:
    """v$dnfs_servers as NetApp's FSx for ONTAP report printed it (TR-4974), and os-release in
    the format os-release(5) defines, as Red Hat Enterprise Linux 8.6 writes it."""
    servers = (REALWORLD / "dnf-fsxn-dnfs-servers-tr4974-2023.txt").read_text()
    files = {
        "MANIFEST.txt": _manifest(
            "linux",
            [("os_release.txt", "-", "read"), ("dnfs_servers.txt", "dnfs_servers", "read")],
        ),
        "os_release.txt": 'NAME="Red Hat Enterprise Linux"\nID="rhel"\nVERSION_ID="8.6"\n',
        "dnfs_servers.txt": servers,
    }
    report = _collect(client, tar(files, gzip=True))
    answers = {a["field"]: (a["value"], a["evidence"]) for a in report["answers"]}
    assert answers["host.os_version"] == ("rhel8", "os_release.txt: ID=rhel, VERSION_ID=8.6")
    assert answers["oracle.dnfs"][0] is True
    assert "row(s) of v$dnfs_servers" in answers["oracle.dnfs"][1]
    no_rows = dict(
        files, **{"dnfs_servers.txt": "SQL> select * from v$dnfs_servers;\n\nno rows selected\n"}
    )
    report = _collect(client, tar(no_rows))
    values = {a["field"]: a["value"] for a in report["answers"]}
    assert values["oracle.dnfs"] is False


def test_an_upload_that_is_no_collection_gets_a_clear_422(client: TestClient) -> None:
    cases = {
        b"not a tar at all": "not a tar archive",
        tar({"fstab.txt": "x"}): "no MANIFEST.txt",
        tar({"MANIFEST.txt": "hello\n"}): "does not say which collector",
        tar({"MANIFEST.txt": _manifest("linux", []), "big.txt": "x" * 1_100_000}): "larger than",
    }
    for data, words in cases.items():
        response = client.post("/api/v1/collections", content=data, headers=_TAR)
        assert response.status_code == 422, (words, response.text)
        assert words in response.json()["detail"][0]["msg"]


def test_names_outside_the_collection_are_never_used(client: TestClient) -> None:
    files = {
        "MANIFEST.txt": _manifest(
            "aix", [("../../etc/passwd", "fstab", "read"), ("nfso.txt", "nfso", "read")]
        ),
        "../../etc/passwd": "root:x:0:0",
        "nfso.txt": (REALWORLD / "unx-aix71-nfso-ibm-sample-2010.txt").read_text(),
    }
    report = _collect(client, tar(files))
    assert [p["name"] for p in report["pastes"]] == ["nfso.txt"]
    assert {a["field"]: a["value"] for a in report["answers"]}["host.os"] == "aix"


def test_the_filer_family_comes_from_the_export_paths_mounted(client: TestClient) -> None:
    """An /etc/mtab line a practitioner posted (RAC 12.1 on a 7-mode filer, /vol/ exports):
    the collection shows NetApp 7-mode, with the catalog's newest 7-mode release to correct."""
    mtab = (REALWORLD / "lnx-leighton-rac121-dnfs-mtab-2013.txt").read_text()
    files = {
        "MANIFEST.txt": _manifest("linux", [("proc_mounts.txt", "mount", "read")]),
        "proc_mounts.txt": mtab,
    }
    answers = {a["field"]: a for a in _collect(client, tar(files))["answers"]}
    assert answers["filer.vendor"]["value"] == "netapp"
    assert answers["filer.os_version"]["value"] == "8.2"
    assert answers["filer.os_version"]["evidence"].startswith(
        "proc_mounts.txt: every NFS mount exports a path under /vol/ "
        "(/vol/volnds001_oraclelinuxtest_db/nds001)"
    )
    assert "correct it" in answers["filer.os_version"]["label"]
    # A mount at another prefix leaves the family unanswered: the paths disagree.
    mixed = dict(files, **{"proc_mounts.txt": mtab + "filer2:/ora_arch /u04 nfs rw 0 0\n"})
    fields = {a["field"] for a in _collect(client, tar(mixed))["answers"]}
    assert not fields & {"filer.vendor", "filer.os_version"}

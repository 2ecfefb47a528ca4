from __future__ import annotations

import copy
from typing import Any

from fastapi.testclient import TestClient

from nasplan.domain.platform import EXAMPLE_PLATFORM


def _audit(client: TestClient, files: dict[str, str], **changes: Any) -> list[dict[str, Any]]:
    platform = copy.deepcopy(EXAMPLE_PLATFORM)
    for section, values in changes.items():
        platform[section].update(values)
    response = client.post("/api/v1/audits", json={"platform": platform, "files": files})
    assert response.status_code == 200, response.text
    findings: list[dict[str, Any]] = response.json()["findings"]
    return findings


def _planned_vfstab(client: TestClient) -> str:
    plan = client.post("/api/v1/plans", json=EXAMPLE_PLATFORM).json()
    return "\n".join(e["text"] for e in plan["mount_table"]["entries"])


def test_the_planned_vfstab_passes(client: TestClient) -> None:
    assert _audit(client, {"vfstab": _planned_vfstab(client)}) == []


def test_llock_with_rac_is_an_error(client: TestClient) -> None:
    vfstab = _planned_vfstab(client).replace("forcedirectio", "llock", 1)
    findings = _audit(client, {"vfstab": vfstab}, oracle={"rac": True, "rac_nodes": 2})
    errors = {(f["rule"], f["line"]) for f in findings if f["severity"] == "error"}
    assert ("SOL-LLOCK-NOT-RAC", 1) in errors
    # A RAC audit of single-instance lines: the missing noac is as severe as its rule.
    assert {rule for rule, _ in errors} == {"SOL-LLOCK-NOT-RAC", "SOL-MNT-NOAC-RAC"}


def test_actimeo_on_single_instance_and_oversized_rsize(client: TestClient) -> None:
    fstab = (
        "filer01:/vol/orcl_data /u02/oradata/ORCL nfs "
        "rw,bg,hard,nointr,rsize=2097152,wsize=32768,vers=3,tcp,timeo=600,actimeo=0 0 0\n"
    )
    findings = _audit(
        client,
        {"fstab": fstab},
        host={"os": "linux", "os_version": "ol6", "arch": "x86_64"},
        layout={"db_name": "ORCL", "oracle_home": "local"},
        filer={"os_version": "8.1"},
    )
    rules = {(f["rule"], f["severity"]) for f in findings}
    assert ("MNT-NO-ACTIMEO-SI", "warning") in rules
    assert ("MNT-TRANSFER-SIZE-CAPS", "error") in rules
    # tcp is the same as proto=tcp: not reported missing
    assert not any("proto=tcp is missing" in f["message"] for f in findings)


def test_minra_on_reports_the_reversal(client: TestClient) -> None:
    findings = _audit(
        client, {"vol_options": "nosnap=on, nosnapdir=on, minra=on, no_atime_update=on, nvfail=on"}
    )
    assert len(findings) == 1
    assert findings[0]["rule"] == "NTAP-MINRA-OFF"
    assert "NTAP-MINRA-ON-OLTP" in findings[0]["message"]


def test_init_ora_differences(client: TestClient) -> None:
    findings = _audit(client, {"init.ora": "_enable_listio=FALSE\n"})
    assert [(f["rule"], f["line"]) for f in findings] == [("ORA-ENABLE-LISTIO", 1)]


def test_oranfstab_against_dnfs_plan(client: TestClient) -> None:
    platform = {
        "host": {"os": "linux", "os_version": "ol9", "arch": "x86_64"},
        "network": {"nic_gbps": 25, "nic_count": 2, "jumbo_frames": True},
        "oracle": {"version": "19.21", "dnfs": True},
        "filer": {"vendor": "netapp", "os_version": "9.14.1"},
        "layout": {"filer_host": "svm1", "db_name": "PROD"},
    }
    oranfstab = "server: svm1\npath: 10.0.0.10\nexport: /prod_data mount: /u02/oradata/PROD\n"
    response = client.post(
        "/api/v1/audits", json={"platform": platform, "files": {"oranfstab": oranfstab}}
    )
    findings = response.json()["findings"]
    missing = [f for f in findings if f["message"].startswith("No export line")]
    assert {f["rule"] for f in missing} == {"DNFS-ORANFSTAB"}
    assert len(missing) == 2  # redo and archive
    assert any(f["rule"] == "DNFS-MULTIPATH" for f in findings)


def test_unknown_file_kind_is_422(client: TestClient) -> None:
    response = client.post(
        "/api/v1/audits", json={"platform": EXAMPLE_PLATFORM, "files": {"crontab": "x"}}
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][:3] == ["body", "files", "crontab"]


def test_a_bare_nfs_line_is_audited_not_refused(client: TestClient) -> None:
    """Issue 26: an fstab NFS line with no options was refused as "cannot tell what it is"; it
    is recognised, and what it lacks is reported with the line to write instead."""
    platform = copy.deepcopy(EXAMPLE_PLATFORM)
    platform["host"].update({"os": "linux", "os_version": "ol8", "arch": "x86_64"})
    paste = {"name": "fstab", "kind": "auto", "text": "filer01:/vol/prod_data /u02/oradata nfs\n"}
    response = client.post("/api/v1/audits", json={"platform": platform, "pastes": [paste]})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["checked"] == {"fstab": 1}
    missing = [f for f in report["findings"] if f["line"] == 1 and "missing" in f["message"]]
    assert any("hard" in f["message"] for f in missing)
    assert all(f["fix"] and "hard" in f["fix"] for f in missing)
    assert "hard" in report["corrected"]["fstab"]

from __future__ import annotations

import copy
from typing import Any

from fastapi.testclient import TestClient

from nasplan.domain.platform import EXAMPLE_PLATFORM
from tests.platforms import linux_ontap


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
    # Above 1 MiB, Linux 6 and later take the largest size both ends support (nfs(5)).
    assert ("MNT-TRANSFER-SIZE-CAPS", "info") in rules
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


_DNFS_PLATFORM = linux_ontap(nic_count=2)
_ORANFSTAB = "server: svm1\npath: 10.0.0.10\nexport: /prod_data mount: /u02/oradata/PROD\n"


def _audit_findings(client: TestClient, files: dict[str, str]) -> list[dict[str, Any]]:
    response = client.post("/api/v1/audits", json={"platform": _DNFS_PLATFORM, "files": files})
    assert response.status_code == 200, response.text
    findings: list[dict[str, Any]] = response.json()["findings"]
    return findings


def test_an_oranfstab_alone_is_not_judged_against_nasplan_volume_names(
    client: TestClient,
) -> None:
    """Issue 26 (kind 4): nasplan's planned exports (/prod_redo, ...) need not exist on the
    user's filer, so an oranfstab pasted alone gets no "no export line" finding for them."""
    findings = _audit_findings(client, {"oranfstab": _ORANFSTAB})
    assert not [f for f in findings if "export" in f["about"]]
    assert any(f["rule"] == "DNFS-MULTIPATH" for f in findings)


def test_an_oranfstab_is_judged_against_the_mounts_of_the_same_paste(client: TestClient) -> None:
    fstab = (
        "svm1:/prod_data /u02/oradata/PROD nfs rw,bg,hard,vers=3,tcp 0 0\n"
        "svm1:/prod_redo /u03/oraredo nfs rw,bg,hard,vers=3,tcp 0 0\n"
        "svm1:/tools /opt/tools nfs rw,bg,hard,vers=3,tcp 0 0\n"
    )
    findings = _audit_findings(client, {"oranfstab": _ORANFSTAB, "fstab": fstab})
    missing = [f for f in findings if f["file"] == "oranfstab" and "export" in f["about"]]
    # The redo mount is the user's own and has no export line; the tools mount holds no
    # database files; the data mount is listed.
    assert [(f["rule"], f["severity"]) for f in missing] == [("DNFS-ORANFSTAB", "warning")]
    assert "/u03/oraredo" in missing[0]["message"]


def test_direct_nfs_paths_on_one_subnet_are_raised_on_linux(client: TestClient) -> None:
    """Issue 26 (kind 8): several paths in one subnet make Linux send them out of one NIC."""
    one_subnet = "server: svm1\npath: 192.168.10.11\npath: 192.168.10.12\n"
    two_subnets = "server: svm1\npath: 192.168.10.11\npath: 192.168.11.11\n"
    flagged = _audit_findings(client, {"oranfstab": one_subnet})
    assert [f["rule"] for f in flagged if "local" in f["about"]] == ["DNFS-LINUX-SUBNET-PER-PATH"]
    assert not [
        f for f in _audit_findings(client, {"oranfstab": two_subnets}) if "local" in f["about"]
    ]


def test_paths_through_one_stated_local_address_are_not_told_to_use_one_subnet_each(
    client: TestClient,
) -> None:
    """Two server paths behind one host address (``local`` the same on both lines, corpus case
    pra-dbtut-dnfs-oranfstab-2019) leave through that one interface by design: the Linux
    subnet-per-path advice is about several host NICs, so it is not raised."""
    one_local = (
        "server: nas\nlocal: 192.168.10.10 path: 192.168.10.163\n"
        "local: 192.168.10.10 path: 192.168.10.164\nexport: /export/ORCL mount: /zfssa/ORCL\n"
    )
    assert not [
        f for f in _audit_findings(client, {"oranfstab": one_local}) if "local" in f["about"]
    ]
    two_locals = one_local.replace(
        "local: 192.168.10.10 path: 192.168.10.164", "local: 192.168.10.11 path: 192.168.10.164"
    )
    assert {
        f["rule"]
        for f in _audit_findings(client, {"oranfstab": two_locals})
        if "local" in f["about"]
    } == {"DNFS-LINUX-SUBNET-PER-PATH"}


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
    assert {"vers", "retry"} <= {key for f in missing for key in f["about"]}
    # bg guards the boot, not the data: an info (tests/audit/test_boot_options.py).
    assert all(f["severity"] != "info" for f in missing if f["about"] != ["retry"])
    assert all(f["fix"] and "hard" in f["fix"] and "vers=3" in f["fix"] for f in missing)
    assert "hard" in report["corrected"]["fstab"]
    # Issue 26 (kind 3): hard, TCP and timeo=600 are what Linux does when they are left out, so
    # their absence is an info naming the default, not a warning.
    defaults = {key: f["severity"] for f in report["findings"] for key in f["about"]}
    assert defaults["hardness"] == "info"
    assert defaults["proto"] == "info"
    assert defaults["timeo"] == "info"
    # Left out, rsize and wsize are the largest that client and filer both support.
    assert defaults["rsize"] == defaults["wsize"] == "info"

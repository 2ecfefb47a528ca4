"""Direct NFS over NFSv4.1 and the oranfstab: Direct NFS speaks NFSv3 unless the oranfstab
gives nfs_version (Oracle Database Installation Guide, Creating an oranfstab File for Direct
NFS Client). Corpus case ven-azure-oravm-anf-nfs41-dnfs-mount-2022 mounted NFSv4.1 and switched
Direct NFS on with no oranfstab. An oranfstab not pasted cannot be judged, so an NFSv4 line is
told what to check, as an info; a pasted oranfstab without the line is a warning."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.platforms import linux_ontap

NFS41 = linux_ontap(oracle={"version": "19.21", "dnfs": True, "nfs_version": "4.1"})
MOUNT = "svm1:/prod_data /u02/oradata nfs rw,bg,hard,vers=4.1,proto=tcp,timeo=600 0 0\n"


def _findings(client: TestClient, pastes: list[str], platform: dict[str, Any]) -> list[Any]:
    body = {
        "platform": platform,
        "pastes": [{"name": f"p{i}", "text": text} for i, text in enumerate(pastes)],
    }
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    return [f for f in response.json()["findings"] if "nfs_version" in f["about"]]


def test_an_nfs41_mount_with_no_oranfstab_pasted_is_told_what_to_check(
    client: TestClient,
) -> None:
    [note] = _findings(client, [MOUNT], NFS41)
    assert (note["severity"], note["line"], note["file"]) == ("info", 1, "fstab")
    assert "nfs_version: nfsv4.1" in note["message"] and "NFSv3" in note["message"]


def test_a_pasted_oranfstab_is_judged_instead(client: TestClient) -> None:
    with_line = "server: svm1\npath: 10.0.0.5\nexport: /prod_data mount: /u02/oradata\n"
    found = _findings(client, [MOUNT, with_line + "nfs_version: nfsv4.1\n"], NFS41)
    assert found == []
    [missing] = _findings(client, [MOUNT, with_line], NFS41)
    assert (missing["severity"], missing["file"]) == ("warning", "oranfstab")


def test_nothing_is_said_without_direct_nfs_over_nfsv41(client: TestClient) -> None:
    knfs = linux_ontap(oracle={"version": "19.21", "dnfs": False, "nfs_version": "4.1"})
    assert _findings(client, [MOUNT], knfs) == []
    nfs3 = linux_ontap(oracle={"version": "19.21", "dnfs": True})
    v3 = MOUNT.replace("vers=4.1", "vers=3")
    assert _findings(client, [v3], nfs3) == []

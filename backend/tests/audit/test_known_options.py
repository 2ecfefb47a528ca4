"""An NFS line carrying an option the Linux NFS client does not take fails to mount unless it
says sloppy (fs/nfs/fs_context.c; mount.nfs(8) -s): corpus case
lnx-azure-levelup-orabackup-mount-2023 mounted an RMAN backup share with the SMB options uid,
gid, dir_mode and file_mode, and the audit said nothing. Options of mount(8) and the x- options
of user-space tools are taken; runtime output is not held to the list (the kernel printed it)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.audit.by_key import findings_by_key
from tests.platforms import linux_ol5_7mode, linux_ontap

OL8 = linux_ontap(
    dnfs=False,
    host={"os": "linux", "os_version": "ol8", "arch": "x86_64"},
    oracle={"version": "19.21", "dnfs": False, "nfs_version": "4.1"},
)
SMB = "uid=oracle,gid=oinstall,dir_mode=0777,file_mode=0777"


def _paste(client: TestClient, text: str, platform: dict[str, Any] = OL8) -> list[dict[str, Any]]:
    body = {"platform": platform, "pastes": [{"name": "p", "text": text}]}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    return [f for f in response.json()["findings"] if f["rule"] == "LNX-MNT-KNOWN-OPTIONS"]


def test_options_the_client_does_not_take_fail_the_mount(client: TestClient) -> None:
    command = (
        "sudo mount -t nfs nas1.example.com:/acct/orabackup /mnt/orabackup "
        f"-o vers=4,minorversion=1,sec=sys,{SMB}\n"
    )
    found = _paste(client, command)
    assert [(f["severity"], f["line"]) for f in found] == [("error", 1)], found
    assert found[0]["about"] == ["uid", "gid", "dir_mode", "file_mode"]
    message = found[0]["message"]
    assert "uid, gid, dir_mode and file_mode" in message and "sloppy" in message, message
    fix = found[0]["fix"]
    assert fix is not None and "uid" not in fix and "vers=4,minorversion=1,sec=sys" in fix
    # The line to write instead is not refused again.
    assert _paste(client, fix + "\n") == []


def test_sloppy_mount_and_tool_options_and_runtime_output_are_not_refused(
    client: TestClient,
) -> None:
    options = "rw,bg,hard,vers=4.1,proto=tcp,timeo=600,noatime,_netdev,x-systemd.automount"
    assert _paste(client, f"nas1:/vol/oradata /u02/oradata nfs {options} 0 0\n") == []
    sloppy = f"nas1:/vol/oradata /u02/oradata nfs {options},sloppy,uid=54321 0 0\n"
    assert _paste(client, sloppy) == []
    proc = (
        "nas1:/vol/oradata /u02/oradata nfs4 "
        "rw,relatime,vers=4.1,local_lock=none,addr=10.0.0.5 0 0\n"
    )
    assert _paste(client, proc) == []


def test_only_where_the_client_refuses_unknown_options(client: TestClient) -> None:
    line = f"nas1:/vol/oradata /u02/oradata nfs rw,bg,hard,vers=3,tcp,{SMB} 0 0\n"
    assert _paste(client, line)  # Oracle Linux 8
    assert _paste(client, line, linux_ol5_7mode()) == []
    by_key = findings_by_key(client, {"platform": OL8, "files": {"fstab": line}})
    assert "uid" in by_key


def test_a_line_of_many_unknown_options_gets_one_bounded_finding(client: TestClient) -> None:
    many = ",".join(f"opt{i}=1" for i in range(300))
    found = _paste(client, f"nas1:/vol/oradata /u02/oradata nfs rw,hard,{many} 0 0\n")
    assert len(found) == 1, found
    assert len(found[0]["about"]) == 6
    assert "opt0, opt1, opt2, opt3, opt4, opt5 and 294 more" in found[0]["message"]


def test_the_mount_flag_in_an_fstab_line_is_named_and_left_out_of_the_fix(
    client: TestClient,
) -> None:
    """``nfs -o vers=4,... 0 0`` in /etc/fstab, or written there by echo (the levelup lab's
    step 4): the fourth field is the option list itself (nfs(5)), so ``-o`` is named with the
    options the client does not take, and the line to write instead has neither."""
    for text in (
        f"nas1:/acct/orabackup /mnt/orabackup nfs -o vers=4,minorversion=1,{SMB} 0 0\n",
        f"sudo bash -c \u2018echo nas1:/acct/orabackup /mnt/orabackup nfs -o vers=4,{SMB} 0 0\n",
    ):
        [found] = _paste(client, text)
        assert found["severity"] == "error" and found["about"][0] == "-o", found
        assert "uid" in found["about"] and "fourth field" in found["message"], found
        fix = found["fix"]
        assert fix is not None and "-o" not in fix.split() and "uid" not in fix, fix
        assert _paste(client, fix + "\n") == []

"""HP-UX mounts an NFS file system hard and with setuid allowed when the line says nothing
(HP's NFS Services Administrator's Guide, Table 2-2 NFS Mount Options): leaving suid or hard
out is not wrong there (issue 26, kind 3), where nosuid or soft written out still is."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.audit.by_key import findings_by_key
from tests.platforms import hpux_generic

HPUX = hpux_generic("19.21")
ROLES = {"/u02/oradata": ["data"]}


def _by_key(client: TestClient, options: str) -> dict[str, list[dict[str, Any]]]:
    fstab = f"nas01:/oradata /u02/oradata nfs {options} 0 0\n"
    return findings_by_key(client, {"platform": HPUX, "files": {"fstab": fstab}, "roles": ROLES})


def test_suid_and_hard_left_out_are_the_hpux_defaults(client: TestClient) -> None:
    found = _by_key(
        client,
        "rw,bg,vers=3,proto=tcp,nointr,timeo=600,rsize=32768,wsize=32768,forcedirectio",
    )
    for key, default in (("suid", "suid"), ("hardness", "hard")):
        assert [f["severity"] for f in found[key]] == ["info"], found[key]
        message = found[key][0]["message"]
        assert f"{default} is not written" in message and "HP-UX" in message, message
        assert "NFS Services Administrator's Guide" in message, message


def test_nosuid_and_soft_written_out_are_still_raised(client: TestClient) -> None:
    found = _by_key(
        client,
        "rw,bg,soft,nosuid,vers=3,proto=tcp,nointr,timeo=600,rsize=32768,wsize=32768,forcedirectio",
    )
    assert {f["severity"] for f in found["suid"]} == {"warning"}
    assert {f["severity"] for f in found["hardness"]} == {"error"}


def test_a_linux_spelling_on_hpux_is_named_in_the_finding(client: TestClient) -> None:
    """Oracle's HP-UX guides print the Linux example with a bare ``tcp``: HP-UX spells the
    transport proto=tcp, so the line pins nothing, and the finding says why."""
    found = _by_key(
        client, "rw,bg,hard,nointr,rsize=32768,wsize=32768,tcp,vers=3,timeo=600,forcedirectio"
    )
    [proto] = [f for f in found["proto"] if f["severity"] != "info"]
    assert "proto=tcp is missing" in proto["message"]
    assert "tcp is how Linux writes it" in proto["message"], proto["message"]
    assert "HP-UX" in proto["message"]

"""Solaris allows setuid execution on an NFS mount when the line says nothing (Solaris 2.6
System Administration Guide, 802-5750, Table 28-2 General Mount Options: nosuid): leaving suid
out of a vfstab line is not wrong there (issue 26, kind 3), where nosuid written out still is."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.audit.by_key import findings_by_key
from tests.platforms import solaris_ontap7

SOLARIS = solaris_ontap7("10", "11.2.0.3", "2012-01-01")
ROLES = {"/u02/oradata": ["data"]}


def _by_key(client: TestClient, options: str) -> dict[str, list[dict[str, Any]]]:
    vfstab = f"filer1:/vol/oradata - /u02/oradata nfs - yes {options}\n"
    body = {"platform": SOLARIS, "files": {"vfstab": vfstab}, "roles": ROLES}
    return findings_by_key(client, body)


def test_suid_left_out_is_the_solaris_default(client: TestClient) -> None:
    found = _by_key(
        client, "rw,bg,hard,nointr,rsize=32768,wsize=32768,proto=tcp,vers=3,forcedirectio"
    )
    assert [f["severity"] for f in found["suid"]] == ["info"], found["suid"]
    message = found["suid"][0]["message"]
    assert "suid is not written" in message and "Solaris" in message, message
    assert "802-5750" in message or "System Administration Guide" in message, message


def test_nosuid_written_out_is_still_raised(client: TestClient) -> None:
    found = _by_key(
        client,
        "rw,bg,hard,nointr,nosuid,rsize=32768,wsize=32768,proto=tcp,vers=3,forcedirectio",
    )
    assert {f["severity"] for f in found["suid"]} == {"warning"}, found["suid"]

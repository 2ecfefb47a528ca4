"""bg decides whether a boot waits for the filer, not whether a write is safe: a line without
it is told so as information, while soft for hard on the same rule stays an error (corpus case
pra-oviwan-11g-dnfs-fstab-2008: an option-less fstab line got "bg is missing" as an error; no
judge of the corpus raises a missing bg, and one calls its weight unsettled)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.audit.by_key import findings_by_key
from tests.platforms import linux_ontap

ROLES = {"/u02/oradata": ["data"]}


def _by_key(
    client: TestClient, options: str, roles: dict[str, list[str]] | None = ROLES
) -> dict[str, list[dict[str, Any]]]:
    """A line of the data files (``roles``), or one whose files nothing names."""
    line = "nas01:/vol/oradata /u02/oradata" if roles else "nas01:/vol/vol9 /u05"
    fstab = f"{line} nfs {options} 0 0\n"
    body: dict[str, Any] = {"platform": linux_ontap(dnfs=False), "files": {"fstab": fstab}}
    if roles:
        body["roles"] = roles
    return findings_by_key(client, body)


def test_bg_left_out_is_information_and_soft_is_still_an_error(client: TestClient) -> None:
    options = "rw,hard,tcp,vers=3,timeo=600,rsize=65536,wsize=65536"
    found = _by_key(client, options)
    assert [(f["severity"], f["rule"]) for f in found["retry"]] == [("info", "MNT-RW-BG-HARD")], (
        found["retry"]
    )
    assert "bg is missing" in found["retry"][0]["message"]
    found = _by_key(client, options.replace("hard", "soft"))
    assert {f["severity"] for f in found["hardness"]} == {"error"}, found["hardness"]
    # On a line whose files are not known, the same holds.
    found = _by_key(client, options.replace("hard", "soft"), roles=None)
    assert {f["severity"] for f in found["retry"]} == {"info"}, found["retry"]
    assert {f["severity"] for f in found["hardness"]} == {"error"}, found["hardness"]


def test_the_nfs_version_weighs_less_than_udp(client: TestClient) -> None:
    """NFS-V3-TCP and NFS-V41-TCP are critical for what UDP can do to data; the version itself
    decides features, not whether a write arrives intact. A missing or other version is a
    warning on a data mount (every judge of the corpus rates it so) and, on a line whose files
    are not known, an info (corpus case aut-budac-dataguard-share-mount-cmd-2026: a Data Guard
    staging share at vers=4 was given an error against the data files' vers=4.1); proto=udp
    stays an error."""
    found = _by_key(client, "rw,bg,hard,tcp,timeo=600,vers=4")
    assert {f["severity"] for f in found["vers"]} == {"warning"}, found["vers"]
    found = _by_key(client, "rw,bg,hard,tcp,timeo=600,vers=4", roles=None)
    assert {f["severity"] for f in found["vers"]} == {"info"}, found["vers"]
    found = _by_key(client, "rw,bg,hard,proto=udp,timeo=600,vers=3")
    assert "error" in {f["severity"] for f in found["proto"]}, found["proto"]
    nfs41 = linux_ontap(oracle={"version": "19.21", "dnfs": False, "nfs_version": "4.1"})
    body: dict[str, Any] = {
        "platform": nfs41,
        "files": {"fstab": "nas01:/vol/oradata /u02/oradata nfs rw,bg,hard,tcp,vers=4 0 0\n"},
        "roles": ROLES,
    }
    found = findings_by_key(client, body)
    assert {(f["severity"], f["rule"]) for f in found["vers"]} == {("warning", "NFS-V41-TCP")}

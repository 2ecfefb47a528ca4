"""Linux before 2.6.25 (RHEL and Oracle Linux 5) lets no signal interrupt a pending NFS request
unless intr is written (nfs(5) as shipped in nfs-utils, 2007: "The default is to not allow file
operations to be interrupted"); later kernels ignore both options. So a Linux line without
nointr is never told nointr is missing (issue 26, kind 3), and intr written out on a 2.6.18
kernel, where it still acts, is still raised."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.audit.by_key import findings_by_key
from tests.platforms import linux_ol5_7mode, linux_ontap

OL5 = linux_ol5_7mode()
ROLES = {"/u02/oradata": ["data"]}


def _by_key(client: TestClient, options: str) -> dict[str, list[dict[str, Any]]]:
    fstab = f"nas01:/vol/oradata /u02/oradata nfs {options} 0 0\n"
    return findings_by_key(client, {"platform": OL5, "files": {"fstab": fstab}, "roles": ROLES})


def test_nointr_left_out_is_what_a_2_6_18_kernel_does(client: TestClient) -> None:
    found = _by_key(client, "rw,bg,hard,tcp,vers=3,timeo=600,rsize=32768,wsize=32768")
    assert [f["severity"] for f in found["intr"]] == ["info"], found["intr"]
    message = found["intr"][0]["message"]
    assert "nointr is not written" in message and "Linux" in message, message
    assert "nfs(5)" in message and "2007" in message, message


def test_intr_written_out_on_a_2_6_18_kernel_is_still_raised(client: TestClient) -> None:
    found = _by_key(client, "rw,bg,hard,intr,tcp,vers=3,timeo=600,rsize=32768,wsize=32768")
    assert {f["severity"] for f in found["intr"]} == {"warning"}, found["intr"]


OL7 = linux_ontap(
    dnfs=False,
    host={"os": "linux", "os_version": "ol7", "arch": "x86_64"},
    oracle={"version": "19.3", "dnfs": False},
    filer={"vendor": "generic"},
) | {"as_of": "2021-02-06"}


def test_intr_written_out_where_the_kernel_ignores_it_is_no_warning(client: TestClient) -> None:
    """From 2.6.25 the client ignores intr and nointr alike, so a line written with intr (as
    many of Oracle's older rows and vendors' scripts still are) behaves as the plan's nointr:
    an info that says so, with no line to write instead, not a warning (issue 26, kind 9)."""
    fstab = "nas01:/vol/oradata /u02/oradata nfs rw,bg,hard,intr,tcp,vers=3,timeo=600 0 0\n"
    found = findings_by_key(client, {"platform": OL7, "files": {"fstab": fstab}, "roles": ROLES})
    assert [f["severity"] for f in found["intr"]] == ["info"], found["intr"]
    finding = found["intr"][0]
    assert "ignore" in finding["message"] and "nfs(5)" in finding["message"], finding
    assert finding["fix"] is None, finding

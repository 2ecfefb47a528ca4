"""Small platform bodies the audit and collector tests share (the API's JSON shape)."""

from __future__ import annotations

import copy
from typing import Any


def linux_ontap(
    *, dnfs: bool = True, nic_count: int = 1, **sections: dict[str, Any]
) -> dict[str, Any]:
    """Oracle Linux 9, Oracle 19.21 on ONTAP 9.14.1 over 25GbE with jumbo frames; a section given
    replaces that section whole."""
    platform: dict[str, Any] = {
        "host": {"os": "linux", "os_version": "ol9", "arch": "x86_64"},
        "network": {"nic_gbps": 25, "nic_count": nic_count, "jumbo_frames": True},
        "oracle": {"version": "19.21", "dnfs": dnfs},
        "filer": {"vendor": "netapp", "os_version": "9.14.1"},
        "layout": {"filer_host": "svm1", "db_name": "PROD"},
    }
    platform.update(copy.deepcopy(sections))
    return platform


def solaris_ontap7(release: str, oracle: str, as_of: str) -> dict[str, Any]:
    """A Solaris host on Data ONTAP 7.0 at 1GbE with jumbo frames, as of a date."""
    return {
        "host": {"os": "solaris", "os_version": release, "arch": "sparc"},
        "network": {"nic_gbps": 1, "nic_count": 1, "jumbo_frames": True},
        "oracle": {"version": oracle, "dnfs": False},
        "filer": {"vendor": "netapp", "os_version": "7.0"},
        "layout": {"filer_host": "filer01", "db_name": "PROD"},
        "as_of": as_of,
    }


def hpux_generic(oracle: str, filer_host: str = "nas01") -> dict[str, Any]:
    """HP-UX 11.31 on Itanium, single instance on kernel NFS, a filer of no named vendor."""
    return {
        "host": {"os": "hpux", "os_version": "11.31", "arch": "ia64", "hostname": "rx6600"},
        "network": {"nic_gbps": 10, "nic_count": 1},
        "oracle": {"version": oracle, "rac": False, "dnfs": False},
        "filer": {"vendor": "generic"},
        "layout": {"filer_host": filer_host, "db_name": "ORCL"},
    }


def linux_ol5_7mode() -> dict[str, Any]:
    """Oracle Linux 5 (a 2.6.18 kernel), 11.2.0.4 on kernel NFS, Data ONTAP 8.1, as of 2013."""
    return linux_ontap(
        dnfs=False,
        host={"os": "linux", "os_version": "ol5", "arch": "x86_64"},
        oracle={"version": "11.2.0.4", "dnfs": False},
        filer={"vendor": "netapp", "os_version": "8.1"},
    ) | {"as_of": "2013-10-01"}

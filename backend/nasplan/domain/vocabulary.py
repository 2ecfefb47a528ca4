"""Closed vocabularies shared by the knowledge schema, the plan and the API."""

from typing import Literal

# backup: RMAN backup sets and image copies, Data Pump dumps (a plan lays out no volume for
# them, but rules say how such a mount must not be made, and the audit recognises one).
Role = Literal["data", "redo", "control", "archive", "oracle_home", "crs", "backup"]
ROLES: tuple[Role, ...] = ("data", "redo", "control", "archive", "oracle_home", "crs", "backup")

Target = Literal["host", "network", "filer", "oracle", "switch"]
Severity = Literal["error", "warning", "info"]

# How a setting is applied; renderers pick the file format and command from this.
Mechanism = Literal[
    "etc_system",  # Solaris /etc/system `set module:var=value`
    "ndd",  # Solaris `ndd -set /dev/<driver> <key> <value>` (does not persist)
    "driver_conf",  # Solaris driver .conf file line (ce.conf)
    "driver_conf_entry",  # Solaris driver .conf list with one entry per instance (e1000g.conf)
    "aix_adapter",  # AIX Ethernet adapter attribute: `chdev -l entN -a key=value -P`, at restart
    "sysctl",  # Linux sysctl
    "nfso",  # AIX `nfso -p -o`
    "no",  # AIX `no -p -o`
    "kctune",  # HP-UX kernel tunable
    "hpux_ndd",  # HP-UX `ndd -set` (persist via /etc/rc.config.d/nddconf)
    "interface",  # host interface setting (MTU)
    "idmapd_conf",  # Linux /etc/idmapd.conf key (NFSv4 ID domain)
    "ontap7_option",  # Data ONTAP 7-mode `options <key> <value>`
    "ontap7_vol_option",  # Data ONTAP 7-mode `vol options <vol> <key> <value>`
    "ontap7_interface",  # Data ONTAP 7-mode `ifconfig <if> mtusize <n>`
    "ontap_nfs_server",  # clustered ONTAP `vserver nfs modify`
    "ontap_volume",  # clustered ONTAP `volume modify`
    "ontap_snapshot_policy",  # clustered ONTAP volume snapshot policy
    "ontap_port",  # clustered ONTAP `network port modify -mtu`
    "ontap_export_policy",  # clustered ONTAP export-policy rule
    "zfs_share",  # Sun 7000 / ZFS Storage Appliance share property
    "init_ora",  # Oracle initialization parameter
    "dnfs",  # Direct NFS enablement / oranfstab
    "switch_port",  # switch configuration (documented, not scripted)
    "practice",  # an operating practice, documented in the runbook only
]

# What each mechanism is called where a person reads it (audit reports, the page).
MECHANISM_WORDS: dict[Mechanism, str] = {
    "etc_system": "Solaris /etc/system",
    "ndd": "Solaris ndd",
    "driver_conf": "Solaris driver .conf",
    "driver_conf_entry": "Solaris driver .conf entry",
    "aix_adapter": "AIX adapter attribute",
    "sysctl": "Linux kernel parameter, sysctl",
    "nfso": "AIX NFS option, nfso",
    "no": "AIX network option, no",
    "kctune": "HP-UX kernel tunable, kctune",
    "hpux_ndd": "HP-UX ndd",
    "interface": "host interface",
    "idmapd_conf": "/etc/idmapd.conf",
    "ontap7_option": "Data ONTAP 7-mode option",
    "ontap7_vol_option": "Data ONTAP 7-mode volume option",
    "ontap7_interface": "Data ONTAP 7-mode interface",
    "ontap_nfs_server": "ONTAP NFS server",
    "ontap_volume": "ONTAP volume",
    "ontap_snapshot_policy": "ONTAP snapshot policy",
    "ontap_port": "ONTAP network port",
    "ontap_export_policy": "ONTAP export policy",
    "zfs_share": "ZFS appliance share property",
    "init_ora": "Oracle initialization parameter",
    "dnfs": "Direct NFS",
    "switch_port": "switch port",
    "practice": "operating practice",
}

RuleCategory = Literal[
    "protocol",
    "mount",
    "host",
    "network",
    "filer",
    "oracle",
    "layout",
    "compatibility",
    "operations",
]

RuleSeverity = Literal["critical", "high", "medium", "low"]
# verified: checked against the cited text; secondary: from a reproduction of the source;
# unverified: quoted widely but not checked (never a default without a warning).
Confidence = Literal["verified", "secondary", "unverified"]
# How sure a rule's effective_from is (see knowledge/README.md, "Dates").
DateConfidence = Literal["exact", "earliest_evidence", "inferred"]

# oranfstab takes up to four local/path pairs per server (Oracle's oranfstab reference).
MAX_DNFS_PATHS = 4

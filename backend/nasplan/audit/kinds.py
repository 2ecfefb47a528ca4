"""Every kind of file or command output the audit reads, described once.

One entry per kind: its name as people call it, the parser, what the audit compares it with
(``reads``), which plan settings it shows, how a planned value is written in it, whether it can
be handed back corrected (its comment marker), and what it implies about the platform. The
audit's comparison, its "not checked" list, the platform hints, the request schema's wording and
the catalog served to the web app all read this table; recognising a paste from its content
(``detect.py``) has its own markers per kind and is checked against this list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from nasplan.audit.ansible_tasks import parse_ansible_mounts
from nasplan.audit.commands import parse_mount_commands
from nasplan.audit.mount_tables import (
    parse_filesystems,
    parse_fstab,
    parse_mount_output,
    parse_vfstab,
)
from nasplan.audit.ontap import parse_ontap_fields, parse_options_nfs, parse_vol_options
from nasplan.audit.oranfstab import parse_oranfstab
from nasplan.audit.parameter_files import parse_init_ora, parse_spfile_text
from nasplan.audit.parsers import Parsed
from nasplan.audit.sqlplus import parse_dnfs_servers, parse_show_parameter
from nasplan.audit.tunables import (
    parse_etc_system,
    parse_ndd,
    parse_nfso,
    parse_no,
    parse_sysctl,
)
from nasplan.domain.platform import OsName

FileKind = Literal[
    "vfstab",
    "fstab",
    "filesystems",
    "mount",
    "mount_command",
    "ansible_mount",
    "init.ora",
    "vol_options",
    "oranfstab",
    "spfile",
    "show_parameter",
    "sysctl",
    "nfso",
    "no",
    "etc_system",
    "ndd",
    "options_nfs",
    "ontap_fields",
    "dnfs_servers",
]
# What the audit compares the parsed lines with.
Reads = Literal["mounts", "parameters", "vol_options", "ontap_fields", "dnfs_servers", "oranfstab"]


@dataclass(frozen=True)
class FileKindSpec:
    label: str
    reads: Reads
    parse: Callable[[str], Parsed[Any]]
    # The plan mechanisms whose settings this kind shows (for "not checked").
    mechanisms: tuple[str, ...] = ()
    # Parameters: how a planned value is written in this file, the fix line.
    fix_form: str | None = None
    # A file (not a command output) that can be handed back corrected: its comment marker.
    comment: str | None = None
    # A running system's mount table, which leaves out mount-time-only options.
    runtime: bool = False
    # A command output that people paste in part (the lines they changed or were asked for):
    # a setting it does not show is not shown, not unset.
    excerpt: bool = False
    # What a paste of this kind says about the platform.
    implies_os: OsName | None = None
    implies_filer_family: str | None = None


_INIT_ORA = "*.{key}={value}"

FILE_KINDS: dict[FileKind, FileKindSpec] = {
    "fstab": FileKindSpec("/etc/fstab (Linux, HP-UX)", "mounts", parse_fstab, comment="#"),
    "vfstab": FileKindSpec(
        "/etc/vfstab (Solaris)", "mounts", parse_vfstab, comment="#", implies_os="solaris"
    ),
    "filesystems": FileKindSpec(
        "/etc/filesystems (AIX)", "mounts", parse_filesystems, implies_os="aix"
    ),
    "mount": FileKindSpec(
        "mount, /proc/mounts or nfsstat -m output", "mounts", parse_mount_output, runtime=True
    ),
    "mount_command": FileKindSpec(
        "mount commands typed at a shell (mount -t/-F/-v nfs -o …, echo … >> /etc/fstab)",
        "mounts",
        parse_mount_commands,
    ),
    "ansible_mount": FileKindSpec(
        "Ansible tasks of the mount module (ansible.posix.mount) with an NFS fstype",
        "mounts",
        parse_ansible_mounts,
    ),
    "init.ora": FileKindSpec(
        "init.ora / pfile",
        "parameters",
        parse_init_ora,
        ("init_ora",),
        _INIT_ORA,
        comment="#",
    ),
    "spfile": FileKindSpec(
        "pfile written from an spfile (*.name=value: CREATE PFILE, or strings of the spfile)",
        "parameters",
        parse_spfile_text,
        ("init_ora",),
        _INIT_ORA,
        comment="#",
    ),
    "show_parameter": FileKindSpec(
        "SQL*Plus show parameter",
        "parameters",
        parse_show_parameter,
        ("init_ora",),
        "ALTER SYSTEM SET {key}={value} SCOPE=SPFILE SID='*';",
        excerpt=True,
    ),
    "oranfstab": FileKindSpec("oranfstab", "oranfstab", parse_oranfstab, ("dnfs",)),
    "dnfs_servers": FileKindSpec(
        "select * from v$dnfs_servers", "dnfs_servers", parse_dnfs_servers, ("dnfs",)
    ),
    "sysctl": FileKindSpec(
        "sysctl -a or /etc/sysctl.conf",
        "parameters",
        parse_sysctl,
        ("sysctl",),
        "{key} = {value}",
        comment="#",
        implies_os="linux",
        # Settings live in several files (/etc/sysctl.conf, /etc/sysctl.d/*.conf, the Oracle
        # preinstall package's own file), so one pasted file is never the whole story.
        excerpt=True,
    ),
    "nfso": FileKindSpec(
        "AIX nfso -a or nfso -o commands",
        "parameters",
        parse_nfso,
        ("nfso",),
        "nfso -p -o {key}={value}",
        implies_os="aix",
        excerpt=True,
    ),
    "no": FileKindSpec(
        "AIX no -a",
        "parameters",
        parse_no,
        ("no",),
        "no -p -o {key}={value}",
        implies_os="aix",
        excerpt=True,
    ),
    "etc_system": FileKindSpec(
        "Solaris /etc/system",
        "parameters",
        parse_etc_system,
        ("etc_system",),
        "set {key}={value}",
        comment="*",
        implies_os="solaris",
    ),
    "ndd": FileKindSpec(
        "Solaris ndd / ipadm output",
        "parameters",
        parse_ndd,
        ("ndd",),
        "ndd -set /dev/tcp {key} {value}",
        implies_os="solaris",
    ),
    "vol_options": FileKindSpec(
        "Data ONTAP 7-mode vol options",
        "vol_options",
        parse_vol_options,
        ("ontap7_vol_option",),
        implies_filer_family="ontap7",
    ),
    "options_nfs": FileKindSpec(
        "Data ONTAP 7-mode options nfs",
        "parameters",
        parse_options_nfs,
        ("ontap7_option",),
        "options {key} {value}",
        implies_filer_family="ontap7",
        excerpt=True,
    ),
    "ontap_fields": FileKindSpec(
        "clustered ONTAP ... show -fields",
        "ontap_fields",
        parse_ontap_fields,
        ("ontap_nfs_server", "ontap_volume", "ontap_snapshot_policy", "ontap_port"),
        implies_filer_family="ontap_cluster",
    ),
}
if set(FILE_KINDS) != set(get_args(FileKind)):  # pragma: no cover - a table edited alone
    raise TypeError("FILE_KINDS and FileKind must name the same kinds")

CHECKABLE_MECHANISMS = frozenset(m for spec in FILE_KINDS.values() for m in spec.mechanisms)
_BY_NAME: dict[str, FileKindSpec] = dict(FILE_KINDS.items())


def spec_of(kind: str) -> FileKindSpec | None:
    """The entry of a kind named by a string (a report's file name, a CLI argument)."""
    return _BY_NAME.get(kind)


def kinds_in_words() -> str:
    """The kinds for a schema description: "vfstab (/etc/vfstab (Solaris)), ..."."""
    return ", ".join(f"{kind} ({spec.label})" for kind, spec in FILE_KINDS.items())


def implied_os(kind: str) -> OsName | None:
    """The operating system a kind of file implies, when only one has it (fstab: Linux or
    HP-UX, so None)."""
    spec = spec_of(kind)
    return spec.implies_os if spec is not None else None

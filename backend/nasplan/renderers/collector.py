"""Collectors: read-only shell scripts that gather from a live host what the audit reads.

One script per host OS. Each runs a fixed list of read-only commands (no argument of a command
comes from a user: the only input is where to write), puts each command's output in a file of
its own inside one output directory, and writes ``MANIFEST.txt`` there: per file, the audit
kind it is (or ``-`` for what only tells the platform), whether it could be read, and what it
is. The directory, or the ``nasplan-collect.tar`` the script packs inside it, is what the audit
page and ``nasplan audit`` take as a whole.

The kernel and NFS settings asked for are given by the caller: every key the knowledge base's
rules set (``KnowledgeBase.setting_keys``) for the collector the app serves, the plan's own for
the one in a bundle; a new rule's setting is collected without editing this file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nasplan.domain.plan import Plan
from nasplan.domain.platform import OsName
from nasplan.renderers.common import q, render_template

CollectorOs = Literal["linux", "solaris", "aix", "hpux"]
MANIFEST = "MANIFEST.txt"
ARCHIVE = "nasplan-collect.tar"

_ORACLE_PARAMETERS = (
    "compatible",
    "cluster_database",
    "filesystemio_options",
    "disk_asynch_io",
    "db_file_multiblock_read_count",
    "db_block_size",
)


@dataclass(frozen=True)
class Item:
    """One file of a collection: its name, the audit kind it is (``-``: platform facts only),
    what it is in words, and the shell commands (fixed text of this module) that print it."""

    name: str
    kind: str
    what: str
    commands: tuple[str, ...]


def _oranfstab_items() -> list[Item]:
    return [
        Item("oranfstab_etc.txt", "oranfstab", "/etc/oranfstab", ("cat /etc/oranfstab",)),
        Item(
            "oranfstab_home.txt",
            "oranfstab",
            "$ORACLE_HOME/dbs/oranfstab",
            ('[ -n "${ORACLE_HOME:-}" ] || exit 3', 'cat "$ORACLE_HOME/dbs/oranfstab"'),
        ),
    ]


def _sqlplus(statements: list[str]) -> tuple[str, ...]:
    """A sqlplus session, silent, as SYSDBA over the OS login (no password in the script)."""
    setup = ["whenever sqlerror exit failure", "set pagesize 200 linesize 200 feedback on"]
    body = "\n".join([*setup, *statements, "exit"])
    return (
        "command -v sqlplus >/dev/null 2>&1 || exit 3",
        '[ -n "${ORACLE_SID:-}" ] || exit 3',
        f"sqlplus -s -L / as sysdba <<'NASPLAN_SQL'\n{body}\nNASPLAN_SQL",
    )


def _oracle_items() -> list[Item]:
    parameters = [f"show parameter {name}" for name in _ORACLE_PARAMETERS]
    return [
        Item(
            "oracle_version.txt",
            "-",
            "Oracle release (v$version)",
            _sqlplus(["select banner from v$version;"]),
        ),
        Item(
            "show_parameter.txt",
            "show_parameter",
            "the initialization parameters the rules read (show parameter)",
            _sqlplus(parameters),
        ),
        Item(
            "dnfs_servers.txt",
            "dnfs_servers",
            "Direct NFS servers in use (v$dnfs_servers)",
            _sqlplus(["select * from v$dnfs_servers;"]),
        ),
        Item(
            "dnfs_channels.txt",
            "-",
            "Direct NFS channels (v$dnfs_channels)",
            _sqlplus(["select * from v$dnfs_channels;"]),
        ),
    ]


# The settings a collector reads, by mechanism (sysctl, ndd, ...).
SettingKeys = dict[str, list[str]]


def plan_setting_keys(plan: Plan) -> SettingKeys:
    """The keys a plan sets, by mechanism: what the collector in its bundle reads."""
    keys: dict[str, set[str]] = {}
    for setting in plan.settings:
        keys.setdefault(setting.mechanism, set()).add(setting.key)
    return {mechanism: sorted(found) for mechanism, found in keys.items()}


def _linux(keys: SettingKeys) -> list[Item]:
    sysctls = " ".join(q(key) for key in keys.get("sysctl", []))
    return [
        Item("os_release.txt", "-", "/etc/os-release", ("cat /etc/os-release",)),
        Item("uname.txt", "-", "kernel release (uname -a)", ("uname -a",)),
        Item("fstab.txt", "fstab", "/etc/fstab", ("cat /etc/fstab",)),
        Item(
            "proc_mounts.txt",
            "mount",
            "the NFS mounts in effect (/proc/mounts)",
            ("awk '$3 ~ /^nfs/' /proc/mounts",),
        ),
        Item("nfsstat_m.txt", "mount", "nfsstat -m", ("nfsstat -m",)),
        Item(
            "sysctl.txt",
            "sysctl",
            "the kernel settings the rules read (sysctl)",
            # One key at a time: a key of a module not loaded yet (sunrpc) is reported in
            # sysctl.err.txt and the others are still read.
            (f'for key in {sysctls}; do sysctl "$key" || :; done',),
        ),
        Item(
            "nics.txt",
            "-",
            "network interfaces: MTU (ip -o link) and speed (/sys/class/net)",
            (
                "ip -o link show",
                "for dev in /sys/class/net/*; do "
                "printf '%s speed_mbps=%s\\n' \"${dev##*/}\" "
                '"$(cat "$dev/speed" 2>/dev/null || echo unknown)"; done',
            ),
        ),
        *_oranfstab_items(),
        *_oracle_items(),
    ]


def _solaris(keys: SettingKeys) -> list[Item]:
    ndd = [
        f"echo {q(f'ndd -get /dev/tcp {key}')}; ndd -get /dev/tcp {q(key)}"
        for key in keys.get("ndd", [])
    ] or [":"]
    return [
        Item("release.txt", "-", "/etc/release", ("cat /etc/release",)),
        Item("uname.txt", "-", "OS release (uname -a)", ("uname -a",)),
        Item("vfstab.txt", "vfstab", "/etc/vfstab", ("cat /etc/vfstab",)),
        Item("nfsstat_m.txt", "mount", "the NFS mounts in effect (nfsstat -m)", ("nfsstat -m",)),
        Item("etc_system.txt", "etc_system", "/etc/system", ("cat /etc/system",)),
        Item("ndd.txt", "ndd", "the TCP settings the rules read (ndd -get)", tuple(ndd)),
        Item(
            "nics.txt",
            "-",
            "network interfaces: MTU and speed (dladm, or ifconfig before Solaris 11)",
            ("dladm show-link 2>/dev/null || ifconfig -a", "dladm show-phys 2>/dev/null || :"),
        ),
        *_oranfstab_items(),
        *_oracle_items(),
    ]


def _aix(_keys: SettingKeys) -> list[Item]:
    return [
        Item("oslevel.txt", "-", "AIX level (oslevel -s)", ("oslevel -s",)),
        Item("uname.txt", "-", "OS release (uname -a)", ("uname -a",)),
        Item("filesystems.txt", "filesystems", "/etc/filesystems", ("cat /etc/filesystems",)),
        Item("mount.txt", "mount", "the file systems mounted (mount)", ("mount",)),
        Item("nfsstat_m.txt", "mount", "nfsstat -m", ("nfsstat -m",)),
        Item("nfso.txt", "nfso", "NFS tunables (nfso -a)", ("nfso -a",)),
        Item("no.txt", "no", "network tunables (no -a)", ("no -a",)),
        Item("nics.txt", "-", "network interfaces and MTU (ifconfig -a)", ("ifconfig -a",)),
        *_oranfstab_items(),
        *_oracle_items(),
    ]


def _hpux(_keys: SettingKeys) -> list[Item]:
    return [
        Item("uname.txt", "-", "OS release (uname -a)", ("uname -a",)),
        Item("fstab.txt", "fstab", "/etc/fstab", ("cat /etc/fstab",)),
        Item("nfsstat_m.txt", "mount", "the NFS mounts in effect (nfsstat -m)", ("nfsstat -m",)),
        Item("kctune.txt", "-", "kernel tunables (kctune)", ("kctune",)),
        Item("nics.txt", "-", "network interfaces and MTU (netstat -in)", ("netstat -in",)),
        *_oranfstab_items(),
        *_oracle_items(),
    ]


_ITEMS = {"linux": _linux, "solaris": _solaris, "aix": _aix, "hpux": _hpux}
_LABELS = {"linux": "Linux", "solaris": "Solaris", "aix": "AIX", "hpux": "HP-UX"}
# The shell each script starts with (Solaris 10's /bin/sh is not POSIX).
_SHELLS = {"linux": "/bin/sh", "solaris": "/usr/xpg4/bin/sh", "aix": "/bin/sh", "hpux": "/bin/sh"}


def collector_items(keys: SettingKeys, os_name: OsName) -> list[Item]:
    return _ITEMS[os_name](keys)


def collector_script(
    keys: SettingKeys, os_name: OsName, kb_version: str, bundle_header: str = ""
) -> str:
    """The collector for one host OS, as a shell script, reading the settings in ``keys``
    (in a bundle, under the bundle's header)."""
    return render_template(
        "collect.sh.j2",
        shell=_SHELLS[os_name],
        os=os_name,
        label=_LABELS[os_name],
        kb_version=kb_version,
        items=collector_items(keys, os_name),
        manifest=MANIFEST,
        archive=ARCHIVE,
        bundle_header=bundle_header,
    )

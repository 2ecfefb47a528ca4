"""Tell what a pasted text is (which file or command output) from its content alone.

``detect_kind`` tries distinctive markers first (``high``: a header, a keyword or a layout only
that kind has), then weaker shapes (``medium``: the text fits, but so might another kind).

It reads a paste the way the parsers do (``nasplan.audit.parsers``): a line longer than
``MAX_LINE_CHARS`` is taken for a blank one, and the rules take time linear in the text. Their
patterns are searched over the whole text, line by line (``^`` is a line start); each one may
only start where a line or a fixed word does, and each of its quantifiers is possessive or
followed by something it cannot match, or only by fixed text, so no attempt backtracks more
than once over its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from packaging.specifiers import SpecifierSet

from nasplan.audit.commands import parse_mount_commands
from nasplan.audit.parsers import Parameter, drop_long_lines, first_lines, joined_lines
from nasplan.audit.tunables import has_sysctl_commands
from nasplan.knowledge.catalog import OracleCatalog
from nasplan.knowledge.versions import in_range, oracle_version


@dataclass(frozen=True)
class DetectedKind:
    kind: str
    confidence: Literal["high", "medium"]
    reason: str


def _search(pattern: str, flags: int = 0) -> Callable[[str], bool]:
    compiled = re.compile(pattern, re.MULTILINE | flags)
    return lambda text: compiled.search(text) is not None


def _is_dash_line(line: str) -> bool:
    stripped = line.strip()
    return "--" in stripped and not stripped.strip("- ")


def _over_dashes(pattern: str, flags: int = 0) -> Callable[[str], bool]:
    """A line matching ``pattern`` right above a line of dash groups (a column header)."""
    compiled = re.compile(pattern, flags)

    def test(text: str) -> bool:
        lines = text.splitlines()
        return any(
            compiled.search(line) is not None and _is_dash_line(below)
            for line, below in pairwise(lines)
        )

    return test


def _any(*tests: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda text: any(test(text) for test in tests)


def _all(*tests: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda text: all(test(text) for test in tests)


def _fields_lines(text: str) -> Iterator[list[str]]:
    return (line.split() for _, line in joined_lines(text))


def _vfstab_row(text: str) -> bool:
    """``device fsck-device mount-point type pass at-boot options``: at-boot is yes or no."""
    return any(
        len(fields) == 7 and fields[5].lower() in ("yes", "no") and fields[3].isalnum()
        for fields in _fields_lines(text)
    )


def _nfs_table_row(text: str) -> bool:
    """``device mount-point nfs [options ...]``: with no options, the device must read
    ``server:/path`` (a three-word line is otherwise too common to call an fstab)."""
    return any(
        len(fields) >= 3
        and fields[2] in ("nfs", "nfs4")
        and (len(fields) >= 4 or ":/" in fields[0])
        for fields in _fields_lines(text)
    )


_ORACLE_PARAMS = (
    "audit_file_dest|cluster_database|compatible|control_files|db_block_size|db_cache_size"
    "|db_domain|db_file_multiblock_read_count|db_name|db_recovery_file_dest|db_unique_name"
    "|db_writer_processes|dbwr_io_slaves|diagnostic_dest|disk_asynch_io|filesystemio_options"
    "|instance_name|log_archive_dest_\\d+|memory_target|open_cursors|pga_aggregate_target"
    "|processes|remote_login_passwordfile|sga_max_size|sga_target|shared_pool_size"
    "|undo_management|undo_tablespace"
)
_NFSO_NAMES = (
    r"nfs_\w+|portcheck|udpchecksum|statd_\w+|lockd_\w+|client_delegation|server_delegation"
    r"|utf8_validation"
)
_NO_NAMES = (
    "rfc1323|sb_max|tcp_sendspace|tcp_recvspace|udp_sendspace|udp_recvspace|ipqmaxlen"
    "|tcp_nodelayack|use_isno|tcp_pmtu_discover|tcp_mssdflt"
)


def _aix_command(name: str) -> str:
    """An AIX tunables command that sets or shows a tunable, at the start of a line after any
    prompt, sudo or path: ``# /usr/sbin/no -p -o sb_max=4194304``."""
    prompt = r"(?:(?:\[[^\]\n]*+\]|[^\s#$%>]*+)[#$%>][ \t]*+)?"
    return (
        rf"^[ \t]*+{prompt}(?:sudo[ \t]++)?(?:\S*/)?{name}"
        rf"(?:[ \t]++-[a-np-zA-Z])*+[ \t]++-o[ \t]++\w"
    )


_VOL_OPTIONS = (
    "nosnap|nosnapdir|minra|no_atime_update|nvfail|fractional_reserve|guarantee"
    "|create_ucode|convert_ucode|snapmirrored|fs_size_fixed|read_realloc|try_first"
    "|snapshot_clone_dependency|no_i2p|extent"
)
_SYSCTL_ROOTS = "net|kernel|vm|fs|sunrpc|dev|user|abi|debug|crypto"
_PROC_MOUNTS_NOISE = (
    r"^(?:rootfs|proc|sysfs|devtmpfs|tmpfs|cgroup2?|devpts|securityfs)[ \t]++/\S*+[ \t]"
)

_Rule = tuple[str, Literal["high", "medium"], str, Callable[[str], bool]]
DETECTION_RULES: tuple[_Rule, ...] = (
    (
        "ansible_mount",
        "high",
        "an Ansible task of the mount module (mount:, ansible.posix.mount:) with fstype nfs",
        _all(
            _search(
                r"^[ \t]*+(?:-[ \t]++)?(?:ansible\.(?:posix|builtin)\.)?mount:[ \t]*+(?:$|\w++=|\{)"
            ),
            _search(r"(?:^[ \t]*+|[ \t])fstype[:=][ \t]*+[\"']?nfs"),
        ),
    ),
    (
        "mount_command",
        "high",
        "mount commands of an NFS source (mount -t/-F/-v nfs -o …, sudo mount …) or the fstab "
        "lines a shell writes (echo … >> /etc/fstab)",
        lambda text: bool(parse_mount_commands(text).items),
    ),
    (
        "dnfs_servers",
        "high",
        "v$dnfs_servers column header (SVRNAME, DIRNAME) or a query of v$dnfs_servers",
        _any(
            _over_dashes(r"\b(?:SVRNAME|DIRNAME)\b", re.IGNORECASE),
            _search(r"\bfrom[ \t]++v\$dnfs_servers\b", re.IGNORECASE),
        ),
    ),
    (
        "show_parameter",
        "high",
        "SQL*Plus 'show parameter' header NAME TYPE VALUE",
        _search(
            r"^[ \t]*+NAME[ \t]++TYPE[ \t]++VALUE[ \t]*+$|^[ \t]*+SQL>[ \t]*+show[ \t]++param",
            re.IGNORECASE,
        ),
    ),
    (
        "ontap_fields",
        "high",
        "clustered ONTAP output (entries were displayed, cluster prompt, vserver/node header)",
        _search(
            r"^[ \t]*+\d++ entries were displayed|^\S+::\*?>"
            r"|^[ \t]*+(?:General NFS Access|NFS v3|Vserver):[ \t]"
        ),
    ),
    (
        "ontap_fields",
        "high",
        "clustered ONTAP table header starting with vserver or node over dashes",
        _over_dashes(r"^(?:vserver|node)[ \t]++[\w-]"),
    ),
    (
        "oranfstab",
        "high",
        "oranfstab 'server:' block with 'path:' or 'export:' lines",
        _all(
            _search(r"^[ \t]*+server[ \t]*+:[ \t]*+\S"),
            _search(r"^[ \t]*+(?:path|export)[ \t]*+:[ \t]*+\S"),
        ),
    ),
    (
        "etc_system",
        "high",
        "Solaris /etc/system 'set module:name = value'",
        _search(r"^[ \t]*+set[ \t]++\w++:\w++[ \t]*+[=|&]", re.IGNORECASE),
    ),
    (
        "ndd",
        "high",
        "Solaris ndd or ipadm command or table",
        _search(
            r"\bndd[ \t]++(?:-[gs]et[ \t]++)?/dev/\w|\bipadm[ \t]++(?:show|set)-(?:if)?prop\b"
            # [ \t]++ before .*: giving spaces back to .* (each time rescanning the line for
            # CURRENT) made a header padded with spaces quadratic.
            r"|^[ \t]*+(?:PROTO|IFNAME)[ \t]++PROPERTY[ \t]++.*CURRENT",
            re.IGNORECASE,
        ),
    ),
    (
        "filesystems",
        "high",
        "AIX /etc/filesystems stanza with 'vfs ='",
        _all(_search(r"^\S+:[ \t]*+$"), _search(r"^[ \t]*+vfs[ \t]*+=[ \t]*+\w")),
    ),
    (
        "mount",
        "high",
        "mount, /proc/mounts or nfsstat -m output",
        _search(
            r"^\S+ on \S++ type nfs4? \(|^\S+ from [^\s:]++:\S*+[ \t]*+$|^[ \t]*+Flags:[ \t]"
            r"|^\S+ on [^\s:]++:\S++ \S*remote/|^[^\s:]++:\S*+ \S++ nfs4? \S*addr="
            rf"|{_PROC_MOUNTS_NOISE}"
        ),
    ),
    ("vfstab", "high", "7 columns with a yes/no mount-at-boot column", _vfstab_row),
    (
        "options_nfs",
        "high",
        "Data ONTAP 7-mode 'options nfs' (nfs.* name, spaces, value)",
        _search(
            r"^(?:\S*>[ \t]*+)?(?:options[ \t]++)?nfs\.[\w.]++[ \t]++[^=\s]"
            r"|^\S*>[ \t]*+options[ \t]++nfs\b"
        ),
    ),
    (
        "vol_options",
        "high",
        "Data ONTAP 7-mode 'vol options' name=value list",
        _search(rf"(?:^|,[ \t]*+)(?:{_VOL_OPTIONS})=\w++[ \t]*+,"),
    ),
    (
        "nfso",
        "high",
        "AIX nfso tunable names (nfs_*, portcheck, ...) or nfso -o commands",
        _search(rf"^[ \t]*+(?:{_NFSO_NAMES})[ \t]*+=[ \t]*+\S|{_aix_command('nfso')}"),
    ),
    (
        "no",
        "high",
        "AIX network option names (rfc1323, sb_max, tcp_sendspace, ...) or no -o commands",
        _search(rf"^[ \t]*+(?:{_NO_NAMES})[ \t]*+=[ \t]*+\S|{_aix_command('no')}"),
    ),
    (
        "sysctl",
        "high",
        "Linux sysctl keys (net., kernel., vm., sunrpc., ...)",
        _search(rf"^[ \t]*+-?(?:{_SYSCTL_ROOTS})[./][\w./-]++[ \t]*+=|^sysctl:"),
    ),
    (
        "sysctl",
        "high",
        "sysctl -w commands",
        has_sysctl_commands,
    ),
    (
        "spfile",
        "high",
        "parameter entries with an instance prefix ('*.' or 'SID.'), as CREATE PFILE writes them",
        _search(r"^[ \t]*+\*\.\"?\w++\"?[ \t]*+=|^[A-Za-z]\w*+\.__\w++[ \t]*+="),
    ),
    (
        "init.ora",
        "high",
        "init.ora with well-known Oracle parameters",
        _search(rf"^[ \t]*+(?:{_ORACLE_PARAMS})[ \t]*+=", re.IGNORECASE),
    ),
    (
        "fstab",
        "high",
        "fstab with NFS rows and fstab markers (UUID=, LABEL=, defaults)",
        _all(_nfs_table_row, _search(r"^[ \t]*+(?:UUID=|LABEL=)|[ \t]defaults[ \t]|^#.*\bfstab\b")),
    ),
    ("fstab", "medium", "whitespace table with an nfs type column", _nfs_table_row),
    (
        "filesystems",
        "medium",
        "stanzas ('/path:' then 'attribute = value')",
        _all(_search(r"^/\S*:[ \t]*+$"), _search(r"^[ \t]++\w++[ \t]*+=[ \t]*+\S")),
    ),
    (
        "sysctl",
        "medium",
        "dotted names with '='",
        _search(r"^[ \t]*+[A-Za-z]\w*+(?:\.\w++){2,}+[ \t]*+=[ \t]*+\S"),
    ),
    (
        "ontap_fields",
        "medium",
        "table header with a dashes line",
        _over_dashes(r"^[a-z][\w-]*+(?: ++[a-z][\w-]*+)++ *+$"),
    ),
    (
        "vol_options",
        "medium",
        "comma-separated name=value list",
        _search(r"^\w++=[^,\s]*+,[ \t]*+\w++="),
    ),
    (
        "init.ora",
        "medium",
        "well-known Oracle parameters, each followed by its value (a table of names and values)",
        _search(rf"^[ \t]*+(?:{_ORACLE_PARAMS})[ \t]++[^\s=]", re.IGNORECASE),
    ),
    ("init.ora", "medium", "name = value lines", _search(r"^[ \t]*+[A-Za-z_]\w*+[ \t]*+=")),
)


def detect_kind(text: str) -> DetectedKind | None:
    """The kind of pasted text (a key of ``kinds.FILE_KINDS``), or None when nothing fits;
    judged, as the parsers read it, on its first ``MAX_LINES`` lines."""
    head, _ = first_lines(text)
    normalised, _ = drop_long_lines(head.replace("\r\n", "\n").replace("\r", "\n"))
    if not normalised.strip():
        return None
    for kind, confidence, reason, test in DETECTION_RULES:
        if test(normalised):
            return DetectedKind(kind, confidence, reason)
    return None


def guess_oracle_release(params: list[Parameter], catalog: OracleCatalog) -> str | None:
    """The catalog release id (``19c``, ``11gR2``, ...) that the ``compatible`` parameter
    falls in, or None when it is absent, not a version, or outside every release.

    ``compatible`` may be set lower than the software release, so this is a lower bound.
    """
    compatible = next((p.value for p in params if p.name.lower() == "compatible"), None)
    if compatible is None:
        return None
    try:
        version = oracle_version(compatible.strip().strip("'\""))
    except ValueError:  # InvalidVersion, or a number of more digits than int() takes
        return None
    releases = catalog.releases
    return next((r.id for r in releases if in_range(version, SpecifierSet(r.range))), None)

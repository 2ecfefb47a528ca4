"""Read the configuration files and command outputs people paste for an audit.

Each parser returns what it understood with line numbers; lines it does not understand are
returned as ``ignored`` so the caller can say so instead of guessing.

A paste is text a client fully controls, so every parser here and in ``nasplan.audit.outputs``
takes time and memory linear in the size of the paste, whatever it holds: lines are split and
their fields compared as strings, and in the few regular expressions left no quantifier can
give characters back to be tried again (each is possessive, or followed by something it
cannot match, or ends the pattern). A line longer than ``MAX_LINE_CHARS`` (trailing whitespace
aside) is read as if it were blank and reported in ``ignored``: it is never given to a regular
expression or a column splitter. Only the first ``MAX_LINES`` lines of a paste are read; the
number of lines after them is returned as ``unread`` and reported as not checked. Column tables
have a cap of their own (``MAX_COLUMNS``; see ``nasplan.audit.outputs``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

# The longest line any parser or detector reads; longer ones are reported as ignored.
MAX_LINE_CHARS = 4096
# The most lines read from one paste. Real files are far shorter (a large sysctl -a runs to a few
# thousand lines); 100,000 short lines would take seconds to audit, so the rest are not read.
MAX_LINES = 10_000
# The most columns a table header may have (all its (names, dashes) pairs together); a wider
# one is not read as a header, and its lines and rows are reported as ignored.
MAX_COLUMNS = 64


@dataclass(frozen=True)
class MountEntry:
    line: int
    device: str
    mount_point: str
    options: list[str]


@dataclass(frozen=True)
class Parameter:
    line: int
    name: str
    value: str


@dataclass(frozen=True)
class NfstabServer:
    line: int
    server: str
    paths: list[str]
    exports: list[tuple[str, str]]  # (export, mount point)
    nfs_version: str | None
    locals: list[str] = field(default_factory=list)
    # The line of each path and local, in order.
    path_lines: list[int] = field(default_factory=list)
    local_lines: list[int] = field(default_factory=list)


T = TypeVar("T")


@dataclass
class Parsed(Generic[T]):
    items: list[T] = field(default_factory=list)
    ignored: list[int] = field(default_factory=list)
    # Lines after the first MAX_LINES, not read at all.
    unread: int = 0
    # The output itself says it holds no rows (SQL*Plus "no rows selected"): only then is an
    # empty result a finding rather than text that was not understood.
    says_empty: bool = False
    # Settings a command tries to make in a form it does not accept (``ndd -set /dev/tcp
    # name=value``): they take no effect, which is the finding.
    refused: list[Parameter] = field(default_factory=list)


# What str.splitlines ends a line on ("\r\n" counts once).
_BREAK_CHARS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_BREAKS = r"\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029"
# A line (from its start to its end) longer than MAX_LINE_CHARS: the lookbehind lets a match
# start only where a line does, and the possessive run cannot give anything back, so the search
# reads each character a bounded number of times.
_LONG_LINE = re.compile(
    rf"(?:\A|(?<=[{_BREAKS}]))[^{_BREAKS}]{{{MAX_LINE_CHARS + 1}}}[^{_BREAKS}]*+"
)


def _line_breaks(text: str) -> int:
    return sum(text.count(char) for char in _BREAK_CHARS) - text.count("\r\n")


def drop_long_lines(text: str) -> tuple[str, list[int]]:
    """The text with each line longer than ``MAX_LINE_CHARS`` (trailing whitespace aside)
    emptied, its line break kept so that line numbers do not move; and those lines' numbers
    (as ``str.splitlines`` counts lines)."""
    if len(text) <= MAX_LINE_CHARS:
        return text, []
    kept: list[str] = []
    numbers: list[int] = []
    number, done = 1, 0
    for match in _LONG_LINE.finditer(text):
        if len(match[0].rstrip()) <= MAX_LINE_CHARS:
            continue
        number += _line_breaks(text[done : match.start()])
        numbers.append(number)
        kept.append(text[done : match.start()])
        done = match.end()
    if not numbers:
        return text, []
    kept.append(text[done:])
    return "".join(kept), numbers


def first_lines(text: str, limit: int = MAX_LINES) -> tuple[str, int]:
    """The text's first ``limit`` lines (as ``str.splitlines`` counts them) and how many lines
    follow them."""
    if _line_breaks(text) < limit:
        return text, 0
    lines = text.splitlines(keepends=True)
    return "".join(lines[:limit]), max(0, len(lines) - limit)


def reads_long_lines_as_blank(parse: Callable[[str], Parsed[T]]) -> Callable[[str], Parsed[T]]:
    """``parse`` given the first ``MAX_LINES`` lines with over-long lines emptied; their numbers
    join ``ignored``, and the count of lines after the first ``MAX_LINES`` is ``unread``."""

    @functools.wraps(parse)
    def screened(text: str) -> Parsed[T]:
        head, unread = first_lines(text)
        kept, long_lines = drop_long_lines(head)
        result = parse(kept)
        if long_lines:
            result.ignored = sorted([*result.ignored, *long_lines])
        result.unread = unread
        return result

    return screened


# An Oracle initialization parameter's name, hidden ones (_kgl_...) included.
_PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$#]{0,79}")


def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    return (
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#")
    )


def _split_options(text: str) -> list[str]:
    return [o.strip() for o in text.split(",") if o.strip()]


def _parse_table(
    text: str, columns: int, fstype: int, device: int, point: int, options: int
) -> Parsed[MountEntry]:
    """A whitespace-separated mount table; NFS lines kept, others reported as ignored. A line
    that stops before its options column (``server:/x /mnt nfs`` in an fstab) mounts with the
    defaults, so it is read as ``defaults``: its missing options are what the audit reports."""
    result: Parsed[MountEntry] = Parsed()
    for number, line in _content_lines(text):
        fields = line.split()
        if len(fields) >= columns and fields[fstype] in ("nfs", "nfs4"):
            given = _split_options(fields[options]) if len(fields) > options else []
            result.items.append(
                MountEntry(number, fields[device], fields[point], given or ["defaults"])
            )
        else:
            result.ignored.append(number)
    return result


@reads_long_lines_as_blank
def parse_vfstab(text: str) -> Parsed[MountEntry]:
    """Solaris /etc/vfstab: device, fsck device, mount point, type, pass, at boot, options."""
    return _parse_table(text, columns=7, fstype=3, device=0, point=2, options=6)


@reads_long_lines_as_blank
def parse_fstab(text: str) -> Parsed[MountEntry]:
    """Linux and HP-UX /etc/fstab: device, mount point, type, options, dump, pass."""
    # The options, dump and pass fields may be left out (fstab(5)): three columns are a line.
    return _parse_table(text, columns=3, fstype=2, device=0, point=1, options=3)


@reads_long_lines_as_blank
def parse_filesystems(text: str) -> Parsed[MountEntry]:
    """AIX /etc/filesystems stanzas (``/mount/point:`` then ``attribute = value`` lines).
    An entry's line is its ``options`` line (what a finding asks to change), or the stanza's
    first line when it has none."""
    result: Parsed[MountEntry] = Parsed()
    stanza: dict[str, str] = {}
    start = 0
    options_line = 0
    mount_point = ""

    def flush() -> None:
        if mount_point and stanza.get("vfs") == "nfs":
            device = f"{stanza.get('nodename', '')}:{stanza.get('dev', '')}"
            options = _split_options(stanza.get("options", ""))
            result.items.append(MountEntry(options_line or start, device, mount_point, options))

    for number, line in _content_lines(text):
        if line.endswith(":") and "=" not in line:
            flush()
            stanza, start, options_line, mount_point = {}, number, 0, line[:-1]
        elif "=" in line and mount_point:
            key, _, value = line.partition("=")
            stanza[key.strip()] = value.strip()
            if key.strip() == "options":
                options_line = number
        else:
            result.ignored.append(number)
    flush()
    return result


def _is_word(text: str) -> bool:
    """One or more characters, none of them whitespace (what ``\\S+`` matches)."""
    return bool(text) and text.split() == [text]


def _first_word(text: str) -> str:
    """The characters before the first whitespace, empty when the text starts with one."""
    return text.split(maxsplit=1)[0] if text and not text[0].isspace() else ""


def _remote(device: str) -> bool:
    """``host:path``: a colon with something on both sides (``\\S+:\\S+``)."""
    return ":" in device[1:-1]


# The three line shapes below were regular expressions; `x on ` followed by 40,000 colons made
# the Solaris one backtrack for seconds. They are now tests on fields split at single spaces.


def _linux_mount(line: str) -> tuple[str, str, str] | None:
    """``device on point type nfs|nfs4 (options)``: device, point, options text."""
    parts = line.split(" ", 5)
    if (
        len(parts) == 6
        and parts[1] == "on"
        and parts[3] == "type"
        and parts[4] in ("nfs", "nfs4")
        and _is_word(parts[0])
        and _is_word(parts[2])
        and len(parts[5]) >= 2
        and parts[5][0] == "("
        and parts[5][-1] == ")"
    ):
        return parts[0], parts[2], parts[5][1:-1]
    return None


def _nfsstat_head(line: str) -> tuple[str, str] | None:
    """``point from host:path`` and anything after (Solaris ``nfsstat -m``): point, device."""
    point, found, rest = line.partition(" from ")
    device = _first_word(rest)
    if found and _is_word(point) and _remote(device):
        return point, device
    return None


def _solaris_mount(line: str) -> tuple[str, str, str] | None:
    """``point on host:path flags`` and optionally `` on <date>``: point, device, flags."""
    parts = line.split(" ", 4)
    if (
        len(parts) >= 4
        and parts[1] == "on"
        and _is_word(parts[0])
        and _is_word(parts[2])
        and _remote(parts[2])
        and _is_word(parts[3])
        and (len(parts) == 4 or parts[4].startswith("on "))
    ):
        return parts[0], parts[2], parts[3]
    return None


@reads_long_lines_as_blank
def parse_mount_output(text: str) -> Parsed[MountEntry]:
    """`mount` (Linux or Solaris), /proc/mounts, or Solaris `nfsstat -m` output."""
    result: Parsed[MountEntry] = Parsed()
    lines = list(_content_lines(text))
    index = 0
    while index < len(lines):
        number, line = lines[index]
        index += 1
        if linux := _linux_mount(line):
            device, point, option_text = linux
            result.items.append(MountEntry(number, device, point, _split_options(option_text)))
        elif head := _nfsstat_head(line):
            point, device = head
            flags_line: list[str] = []
            while index < len(lines) and not _nfsstat_head(lines[index][1]):
                label, _, value = lines[index][1].partition(":")
                if label.strip() == "Flags":
                    flags_line = _split_options(value)
                index += 1
            result.items.append(MountEntry(number, device, point, flags_line))
        elif (fields := line.split()) and len(fields) >= 4 and fields[2] in ("nfs", "nfs4"):
            result.items.append(MountEntry(number, fields[0], fields[1], _split_options(fields[3])))
        elif solaris := _solaris_mount(line):
            point, device, flags = solaris
            result.items.append(MountEntry(number, device, point, flags.split("/")))
        else:
            result.ignored.append(number)
    return result


@reads_long_lines_as_blank
def parse_init_ora(text: str) -> Parsed[Parameter]:
    """init.ora / pfile lines: ``name = value`` or ``*.name='value'``; and a table of names and
    values (``filesystemio_options   setall``), as documents print a pfile and as a
    ``SELECT name, value FROM v$parameter`` prints without its header."""
    result: Parsed[Parameter] = Parsed()
    for number, line in _content_lines(text):
        name, sep, value = line.partition("=")
        if not sep:
            row = line.split(None, 1)
            if len(row) == 2 and _PARAMETER_NAME.fullmatch(row[0]) and row[0].upper() != "NAME":
                result.items.append(Parameter(number, row[0].lower(), row[1].strip().strip("'\"")))
            else:
                result.ignored.append(number)
            continue
        name = name.strip().split(".", 1)[-1].lower()
        value = value.split("#", 1)[0].strip().strip("'\"")
        result.items.append(Parameter(number, name, value))
    return result


@reads_long_lines_as_blank
def parse_vol_options(text: str) -> Parsed[Parameter]:
    """Data ONTAP 7-mode `vol options <vol>` output: ``name=value, name=value, ...``."""
    result: Parsed[Parameter] = Parsed()
    for number, line in _content_lines(text):
        pairs = [p.strip() for p in line.split(",") if "=" in p]
        if not pairs:
            result.ignored.append(number)
            continue
        for pair in pairs:
            name, _, value = pair.partition("=")
            result.items.append(Parameter(number, name.strip(), value.strip()))
    return result


@dataclass
class _ServerBuilder:
    line: int
    server: str
    paths: list[str] = field(default_factory=list)
    exports: list[tuple[str, str]] = field(default_factory=list)
    nfs_version: str | None = None
    locals: list[str] = field(default_factory=list)
    path_lines: list[int] = field(default_factory=list)
    local_lines: list[int] = field(default_factory=list)

    def build(self) -> NfstabServer:
        return NfstabServer(
            self.line,
            self.server,
            self.paths,
            self.exports,
            self.nfs_version,
            self.locals,
            self.path_lines,
            self.local_lines,
        )


def _oranfstab_items(text: str) -> Iterator[tuple[int, str]]:
    for number, line in _content_lines(text):
        head, sep, tail = line.partition(" path:")
        if sep and head.lower().startswith("local:"):
            yield number, head
            yield number, f"path:{tail}"
        else:
            yield number, line


@reads_long_lines_as_blank
def parse_oranfstab(text: str) -> Parsed[NfstabServer]:
    """oranfstab: ``server:`` blocks with ``path:``, ``export: X mount: Y``, ``nfs_version:``.
    A ``local: A path: B`` pair may share a line, as Oracle's examples print it."""
    result: Parsed[NfstabServer] = Parsed()
    current: _ServerBuilder | None = None
    for number, line in _oranfstab_items(text):
        key, _, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "server":
            if current is not None:
                result.items.append(current.build())
            current = _ServerBuilder(number, value)
        elif current is None:
            result.ignored.append(number)
        elif key == "path":
            current.paths.append(value)
            current.path_lines.append(number)
        elif key == "export":
            export, _, rest = value.partition(" ")
            mount = rest.split("mount:", 1)[-1].strip() if "mount:" in rest else ""
            current.exports.append((export.strip(), mount))
        elif key == "nfs_version":
            current.nfs_version = value
        elif key == "local":
            current.locals.append(value)
            current.local_lines.append(number)
        elif key in ("dontroute", "mnt_timeout", "security_default", "management", "community"):
            continue
        else:
            result.ignored.append(number)
    if current is not None:
        result.items.append(current.build())
    return result

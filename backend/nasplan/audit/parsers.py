"""What the parsers of an audit's pastes share: their result types, the limits on what they
read, and the helpers that split a paste into numbered lines.

Each parser returns what it understood with line numbers; lines it does not understand are
returned as ``ignored`` so the caller can say so instead of guessing. The parsers, by what they
read:

* ``nasplan.audit.mount_tables``: /etc/fstab, /etc/vfstab, /etc/filesystems, mount output;
* ``nasplan.audit.oranfstab``: Oracle Direct NFS's oranfstab;
* ``nasplan.audit.parameter_files``: init.ora and pfile lines, spfile text;
* ``nasplan.audit.tunables``: sysctl, nfso, /etc/system, ndd and ipadm;
* ``nasplan.audit.sqlplus``: SQL*Plus ``show parameter`` and ``v$dnfs_servers`` tables;
* ``nasplan.audit.ontap``: Data ONTAP 7-mode options, clustered ONTAP ``show`` output.

A paste is text a client fully controls, so every parser takes time and memory linear in the
size of the paste, whatever it holds: lines are split and their fields compared as strings, and
in the few regular expressions left no quantifier can give characters back to be tried again
(each is possessive, or followed by something it cannot match, or ends the pattern). A line
longer than ``MAX_LINE_CHARS`` (trailing whitespace aside) is read as if it were blank and
reported in ``ignored``: it is never given to a regular expression or a column splitter. Only
the first ``MAX_LINES`` lines of a paste are read; the number of lines after them is returned as
``unread`` and reported as not checked. Column tables have a cap of their own
(``MAX_COLUMNS``; see ``nasplan.audit.columns``).
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
    # A line a shell command writes into /etc/fstab (echo … >> /etc/fstab): it is mounted at
    # boot, not by hand, though it came in a paste of commands.
    for_fstab: bool = False


def split_options(text: str) -> list[str]:
    """A comma-separated option list, its blank items left out."""
    return [o.strip() for o in text.split(",") if o.strip()]


def fstab_options(fields: list[str], at: int) -> list[str]:
    """The option words of an fstab line whose option list is field ``at``. ``-o`` there is
    the mount command's flag written into the file by mistake: it is kept as a word (it is not
    an option, and the audit says so) and the list that follows it is read as the options."""
    if len(fields) <= at:
        return []
    given = split_options(fields[at])
    if given == ["-o"] and len(fields) > at + 1:
        given += split_options(fields[at + 1])
    return given


@dataclass(frozen=True)
class Parameter:
    line: int
    name: str
    value: str


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


def content_lines(text: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines that are not ``#`` comments, stripped, with their numbers."""
    return (
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#")
    )


def continues(line: str) -> bool:
    """Whether the next line carries on this one (it ends in a backslash)."""
    return line.rstrip().endswith("\\")


def joined_lines(text: str, comments: bool = False) -> Iterator[tuple[int, str]]:
    """Like ``content_lines`` (with ``#`` lines kept when ``comments``: a root prompt), a line
    that ends in a backslash joined to the next with a space: a shell command continued, or a
    long line wrapped as a document prints it. A joined line has the number of its first line;
    one that grows past ``MAX_LINE_CHARS`` is given empty, so it is not read, as a long line."""
    start = 0
    parts: list[str] = []
    size = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not parts:
            if not line or (line.startswith("#") and not comments):
                continue
            start = number
        more = continues(line)
        part = line[:-1].rstrip() if more else line
        parts.append(part)
        size += len(part) + 1
        if more:
            continue
        yield start, " ".join(p for p in parts if p) if size <= MAX_LINE_CHARS else ""
        parts, size = [], 0
    if parts:
        yield start, " ".join(p for p in parts if p) if size <= MAX_LINE_CHARS else ""


def numbered(text: str) -> Iterator[tuple[int, str]]:
    """Every line with its number (from 1, as ``str.splitlines`` counts lines)."""
    return enumerate(text.splitlines(), 1)


def squeeze(text: str) -> str:
    """The words of the text with single spaces between them."""
    return " ".join(text.split())

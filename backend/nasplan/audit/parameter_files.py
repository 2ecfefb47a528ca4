"""Read Oracle parameter files: init.ora and pfile lines (or a table of names and values), and
spfile text (``strings spfileORCL.ora``, or a pfile from ``create pfile``) with the instance
each entry is for.

Like every parser (``nasplan.audit.parsers``), each returns what it understood with line numbers
and lists the lines it did not understand in ``ignored``; blank lines and comments are
understood and produce nothing. No parser raises on any text. Line numbers count lines as
``str.splitlines`` does (LF, CRLF and CR all end a line).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from nasplan.audit.parsers import (
    MAX_LINE_CHARS,
    Parameter,
    Parsed,
    content_lines,
    numbered,
    reads_long_lines_as_blank,
)


@dataclass(frozen=True)
class ScopedParameter:
    """An spfile or pfile entry: ``sid`` is ``*`` for every instance (also when unprefixed)."""

    line: int
    sid: str
    name: str
    value: str


# ---------------------------------------------------------------------------------------------
# init.ora / pfile lines and tables


# An Oracle initialization parameter's name, hidden ones (_kgl_...) included.
_PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$#]{0,79}")


@reads_long_lines_as_blank
def parse_init_ora(text: str) -> Parsed[Parameter]:
    """init.ora / pfile lines: ``name = value`` or ``*.name='value'``; and a table of names and
    values (``filesystemio_options   setall``), as documents print a pfile and as a
    ``SELECT name, value FROM v$parameter`` prints without its header."""
    result: Parsed[Parameter] = Parsed()
    for number, line in content_lines(text):
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


# ---------------------------------------------------------------------------------------------
# spfile / pfile


_SCOPED = re.compile(
    r"(?P<sid>\*|[A-Za-z][\w$#]*+)\.(?P<name>\"?[A-Za-z_][\w$#]*+\"?)\s*+=(?P<value>.*)"
)
_PLAIN = re.compile(r"(?P<name>\"?[A-Za-z_][\w$#]*+\"?)\s*+=(?P<value>.*)")


# Text up to a '#' outside quotes: runs of ordinary characters and quoted strings (a quote left
# open runs to the end), taken whole. Each alternative starts with its own character, so
# nothing is tried twice.
_UNTIL_COMMENT = re.compile(r"""(?:[^'"#]++|'[^']*+'?|"[^"]*+"?)*+""")
# A list value's pieces: ordinary text, a quoted string (the quotes dropped), or a comma.
_LIST_PIECE = re.compile(r"""[^'",]++|'(?P<single>[^']*+)'?|"(?P<double>[^"]*+)"?|,""")


def _strip_comment(value: str) -> str:
    if "#" not in value:
        return value
    end = _UNTIL_COMMENT.match(value)
    return value[: end.end()] if end else value


def _split_list(value: str) -> list[str]:
    if "," not in value and "'" not in value and '"' not in value:
        return [value.strip()]
    items: list[str] = []
    current: list[str] = []
    for piece in _LIST_PIECE.finditer(value):
        if piece[0] == ",":
            items.append("".join(current).strip())
            current = []
        elif piece[0][0] in "'\"":
            current.append(piece["single"] if piece["single"] is not None else piece["double"])
        else:
            current.append(piece[0])
    items.append("".join(current).strip())
    return items


def _spfile_value(text: str) -> str:
    """``'a','b'`` -> ``a, b`` (the way ``show parameter`` prints lists); quotes dropped."""
    return ", ".join(item for item in _split_list(_strip_comment(text).strip()) if item)


def _spfile_logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """Entries with a value continued after a trailing comma (or on a line starting with one)
    joined to their first line; blank and comment lines dropped."""
    first = 0
    parts: list[str] = []
    for number, raw in numbered(text):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        last = _strip_comment(parts[-1]).rstrip() if parts else ""
        continues = last.endswith(",") and ("=" not in line or line[0] in "'\"")
        if parts and (continues or line.startswith(",")):
            parts[-1] = last
            parts.append(line)
        else:
            if parts:
                yield first, "".join(parts)
            first, parts = number, [line]
    if parts:
        yield first, "".join(parts)


@reads_long_lines_as_blank
def parse_spfile_scoped(text: str) -> Parsed[ScopedParameter]:
    """``strings spfileORCL.ora`` or a pfile from ``create pfile``: ``*.name=value`` and
    ``ORCL1.name=value`` (unprefixed ``name=value`` counts as ``*``).

    A value continued after a trailing comma is joined; quotes are dropped and list items are
    separated by ``, `` (``'/u02/a.ctl','/u03/b.ctl'`` -> ``/u02/a.ctl, /u03/b.ctl``); ``#``
    outside quotes starts a comment. Names are lowercased, SIDs kept as written. Binary
    leftovers from ``strings``, and entries longer than ``MAX_LINE_CHARS`` once joined, are
    reported as ignored.
    """
    result: Parsed[ScopedParameter] = Parsed()
    for number, line in _spfile_logical_lines(text):
        if len(line) > MAX_LINE_CHARS:
            result.ignored.append(number)
            continue
        match = _SCOPED.fullmatch(line)
        sid = match["sid"] if match else "*"
        match = match or _PLAIN.fullmatch(line)
        if match is None:
            result.ignored.append(number)
            continue
        name = match["name"].strip('"').lower()
        result.items.append(ScopedParameter(number, sid, name, _spfile_value(match["value"])))
    return result


def parse_spfile_text(text: str) -> Parsed[Parameter]:
    """The parameters every instance gets, from the same input as ``parse_spfile_scoped``.

    For each name: its last ``*`` (or unprefixed) entry, or else its first SID-specific entry.
    """
    scoped = parse_spfile_scoped(text)
    chosen: dict[str, ScopedParameter] = {}
    for item in scoped.items:
        known = chosen.get(item.name)
        if known is None or item.sid == "*":
            chosen[item.name] = item
    items = sorted(chosen.values(), key=lambda item: item.line)
    return Parsed(
        [Parameter(i.line, i.name, i.value) for i in items], scoped.ignored, scoped.unread
    )

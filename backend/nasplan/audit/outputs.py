"""Read pasted command outputs and kernel or database settings files for an audit.

Like ``nasplan.audit.parsers``, each parser returns what it understood with line numbers and
lists the lines it did not understand in ``ignored``; blank lines, comments, shell or SQL*Plus
prompts, table headers and footers are understood and produce nothing. No parser raises on
any text. Line numbers count lines as ``str.splitlines`` does (LF, CRLF and CR all end a line).

As there, every parser is linear in the size of the paste. A line longer than
``MAX_LINE_CHARS`` (also once its tabs are expanded, in column tables) is reported as ignored
and otherwise read as blank. A header of more than ``MAX_COLUMNS`` columns is not read as one
(it and its rows are reported as ignored); a table has no more rows than the ``MAX_LINES``
lines a parse reads. A short row costs what its text does, not what its header does.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise

from nasplan.audit.parsers import (
    MAX_COLUMNS,
    MAX_LINE_CHARS,
    Parameter,
    Parsed,
    reads_long_lines_as_blank,
)


@dataclass(frozen=True)
class ScopedParameter:
    """An spfile or pfile entry: ``sid`` is ``*`` for every instance (also when unprefixed)."""

    line: int
    sid: str
    name: str
    value: str


@dataclass(frozen=True)
class DnfsServer:
    """One row of ``v$dnfs_servers``; a column missing from the paste reads as empty or None."""

    line: int
    server: str
    directory: str
    nfs_version: str | None
    wtmax: int | None
    rtmax: int | None


@dataclass(frozen=True)
class OntapRecord:
    """One row of a clustered ONTAP ``show`` command: key columns and the other fields."""

    line: int
    keys: dict[str, str]
    fields: dict[str, str]


def _numbered(text: str) -> Iterator[tuple[int, str]]:
    return enumerate(text.splitlines(), 1)


def _squeeze(text: str) -> str:
    return " ".join(text.split())


def _unquote(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


# ---------------------------------------------------------------------------------------------
# name = value files


# Possessive quantifiers (*+): what follows each one cannot start with what it matched, so
# giving characters back could never help and the match is one pass over the line.
_SYSCTL = re.compile(r"-?(?P<name>[A-Za-z0-9_][\w./:@*+-]*+)\s*+=\s*+(?P<value>.*)")
_NFSO = re.compile(r"(?P<name>[A-Za-z_]\w*+)\s*+=\s*+(?P<value>.*)")


def _assignments(
    text: str,
    pattern: re.Pattern[str],
    comments: tuple[str, ...],
    noise: tuple[str, ...] = (),
    command: str | None = None,
) -> Parsed[Parameter]:
    result: Parsed[Parameter] = Parsed()
    for number, raw in _numbered(text):
        line = raw.strip()
        if not line or line.startswith(comments):
            continue
        if command is not None:
            line = _after_command(line, command)
        match = None if noise and line.startswith(noise) else pattern.fullmatch(line)
        if match is None:
            result.ignored.append(number)
            continue
        result.items.append(Parameter(number, match["name"], _unquote(_squeeze(match["value"]))))
    return result


def _after_command(line: str, command: str) -> str:
    """``sudo /sbin/sysctl -w a=b`` -> ``a=b``: the command that sets what the line holds, its
    path, a sudo before it and its flags are dropped; any other line is returned as it is."""
    words = line.split(None, 4)
    while words and words[0] in ("sudo", "$", "#"):
        words = words[1:]
    if not words or words[0].rsplit("/", 1)[-1] != command:
        return line
    rest = line[line.index(words[0]) + len(words[0]) :].lstrip()
    while rest.startswith("-") and " " in rest and "=" not in rest.split(" ", 1)[0]:
        rest = rest.split(" ", 1)[1].lstrip()
    return rest


def has_sysctl_commands(text: str) -> bool:
    """Whether a line of the text is a ``sysctl`` command that sets a value."""
    for raw in text.splitlines():
        line = raw.strip()
        rest = _after_command(line, "sysctl")
        if rest != line and _SYSCTL.fullmatch(rest):
            return True
    return False


@reads_long_lines_as_blank
def parse_sysctl(text: str) -> Parsed[Parameter]:
    """Linux ``sysctl -a`` / ``sysctl -p`` output or /etc/sysctl.conf: ``name = value``.

    Comments start with ``#`` or ``;``; a leading ``-`` (ignore failures) is dropped; a name
    written with slashes only (``net/core/rmem_max``) is given dots; values made of several
    numbers (``4096 87380 16777216``) keep single spaces between them. ``sysctl:`` messages
    such as ``permission denied on key`` are reported as ignored. ``sysctl -w name=value``
    commands (as runbooks and slides print them) are read as the setting they make.
    """
    result = _assignments(text, _SYSCTL, ("#", ";"), noise=("sysctl:",), command="sysctl")
    result.items = [
        item if "." in item.name else Parameter(item.line, item.name.replace("/", "."), item.value)
        for item in result.items
    ]
    return result


@reads_long_lines_as_blank
def parse_nfso(text: str) -> Parsed[Parameter]:
    """AIX ``nfso -a`` output: ``name = value``, one tunable a line (padded to align the ``=``).

    Double quotes around a value (as in /etc/tunables/nextboot) are dropped.
    """
    return _assignments(text, _NFSO, ("#",))


_ETC_SYSTEM = re.compile(
    r"set\s++(?P<name>[A-Za-z_]\w*+(?::[A-Za-z_]\w*+)?)\s*+=\s*+(?P<value>\S.*)", re.IGNORECASE
)


@reads_long_lines_as_blank
def parse_etc_system(text: str) -> Parsed[Parameter]:
    """Solaris /etc/system: ``set module:name = value`` or ``set name=value``.

    ``*`` and ``#`` start comments. The name keeps its module (``nfs:nfs3_max_transfer_size``)
    and the value its text (``0x100000``). Other directives (``forceload:``, ``exclude:``) and
    the bitwise forms ``set name | value`` and ``set name & value`` are reported as ignored.
    """
    result: Parsed[Parameter] = Parsed()
    for number, raw in _numbered(text):
        line = raw.strip()
        if not line or line.startswith(("*", "#")):
            continue
        match = _ETC_SYSTEM.fullmatch(line)
        if match is None:
            result.ignored.append(number)
            continue
        result.items.append(Parameter(number, match["name"], _unquote(match["value"].strip())))
    return result


# ---------------------------------------------------------------------------------------------
# Solaris ndd / ipadm


def _is_shell_prompt(line: str) -> bool:
    """A stripped line whose first word ends like a shell prompt (``#``, ``$``, ``%``, ``>``)."""
    first = line.split(maxsplit=1)
    return bool(first) and first[0].endswith(("#", "$", "%", ">"))


@dataclass
class _PendingGet:
    line: int
    name: str
    values: list[str] = field(default_factory=list)


def _ndd_args(tokens: list[str]) -> list[str] | None:
    for index, token in enumerate(tokens):
        if token == "ndd" or token.endswith("/ndd"):
            return tokens[index + 1 :]
    return None


def _ipadm_set(tokens: list[str]) -> tuple[str, str] | None:
    if "set-prop" not in tokens:
        return None
    for option, argument in pairwise(tokens):
        if option == "-p" and "=" in argument:
            name, _, value = argument.partition("=")
            return name, value
    return None


@dataclass
class _NddState:
    result: Parsed[Parameter] = field(default_factory=Parsed)
    pending: _PendingGet | None = None
    columns: tuple[int, int] | None = None

    def add(self, item: Parameter) -> None:
        self.result.items.append(item)

    def flush(self) -> None:
        if self.pending is None:
            return
        if self.pending.values:
            value = " ".join(self.pending.values)
            self.add(Parameter(self.pending.line, self.pending.name, value))
        else:
            self.result.ignored.append(self.pending.line)
        self.pending = None

    def command(self, number: int, line: str, args: list[str]) -> None:
        self.flush()
        self.columns = None
        if args[:1] == ["-set"]:
            if len(args) >= 4 and args[1].startswith("/dev/") and not line.startswith("#"):
                self.add(Parameter(number, args[2], " ".join(args[3:])))
            elif len(args) == 3 and args[1].startswith("/dev/") and "=" in args[2][1:]:
                # name=value in one argument: ndd reads it as a parameter name and fails.
                name, _, value = args[2].partition("=")
                if not line.startswith("#"):
                    self.result.refused.append(Parameter(number, name, value))
            elif not line.startswith("#"):
                self.result.ignored.append(number)
            return
        if args[:1] == ["-get"]:
            args = args[1:]
        if len(args) == 2 and args[0].startswith("/dev/") and args[1] not in ("?", "\\?"):
            self.pending = _PendingGet(number, args[1])
        else:
            self.result.ignored.append(number)

    def other(self, number: int, line: str) -> None:
        tokens = line.split()
        if self.columns is not None:
            name_at, value_at = self.columns
            if len(tokens) > max(name_at, value_at):
                self.add(Parameter(number, tokens[name_at], tokens[value_at]))
            else:
                self.result.ignored.append(number)
        elif self.pending is not None and (not self.pending.values or len(tokens) == 1):
            self.pending.values.append(" ".join(tokens))
        else:
            self.result.ignored.append(number)


@reads_long_lines_as_blank
def parse_ndd(text: str) -> Parsed[Parameter]:
    """Solaris ``ndd`` and ``ipadm`` output pasted from a shell session or a boot script.

    * ``ndd -get /dev/tcp tcp_max_buf`` (or ``ndd /dev/tcp tcp_max_buf``), behind any prompt,
      with the value printed on the next line; further one-word lines (``tcp_extra_priv_ports``
      lists) are added to the value with spaces;
    * ``ndd -set /dev/tcp tcp_xmit_hiwat 65536``; written after a ``#`` it is a commented-out
      script line and skipped;
    * ``ipadm set-prop [-t] -p max_buf=4194304 tcp``;
    * ``ipadm show-prop`` / ``show-ifprop`` tables: the PROPERTY column is the name and the
      CURRENT column the value (a header of more than ``MAX_COLUMNS`` words is ignored).
    """
    state = _NddState()
    for number, raw in _numbered(text):
        line = raw.strip()
        if not line:
            continue
        tokens = line.split()
        args = _ndd_args(tokens)
        upper = [token.upper() for token in tokens]
        if args is not None:
            state.command(number, line, args)
        elif "PROPERTY" in upper and "CURRENT" in upper:
            state.flush()
            state.columns = None
            if len(tokens) > MAX_COLUMNS:
                state.result.ignored.append(number)
            else:
                state.columns = (upper.index("PROPERTY"), upper.index("CURRENT"))
        elif "ipadm" in tokens or any(token.endswith("/ipadm") for token in tokens):
            state.flush()
            state.columns = None
            setting = _ipadm_set(tokens)
            if setting is not None and not line.startswith("#"):
                state.add(Parameter(number, *setting))
        elif line.startswith("#"):
            continue
        elif _is_shell_prompt(line):
            state.flush()
            state.columns = None
            state.result.ignored.append(number)
        else:
            state.other(number, line)
    state.flush()
    state.result.ignored.sort()
    return state.result


# ---------------------------------------------------------------------------------------------
# Column tables (SQL*Plus, ONTAP)


_DASHES = re.compile(r"-+")


def _table_lines(text: str, ignored: list[int]) -> list[tuple[int, str]]:
    """Non-blank lines, tabs expanded, the margin common to all of them removed; a line that
    its tabs made longer than ``MAX_LINE_CHARS`` is added to ``ignored`` instead."""
    lines: list[tuple[int, str]] = []
    for number, raw in _numbered(textwrap.dedent(text.expandtabs(8))):
        line = raw.rstrip()
        if len(line) > MAX_LINE_CHARS:
            ignored.append(number)
        elif line:
            lines.append((number, line))
    return lines


def _is_dash_line(line: str) -> bool:
    stripped = line.strip()
    return "--" in stripped and not stripped.strip("- ")


def _spans(dash_line: str) -> list[tuple[int, int]]:
    return [(match.start(), match.end()) for match in _DASHES.finditer(dash_line)]


def _reached(line: str, spans: list[tuple[int, int]]) -> int:
    """How many columns start before the end of the line (at least one)."""
    count = 1
    while count < len(spans) and spans[count][0] < len(line):
        count += 1
    return count


def _aligned(line: str, spans: list[tuple[int, int]], reached: int) -> bool:
    """No word runs across the gap in front of a column (of the ``reached`` first ones: the
    others start after the end of the line)."""
    for start, _ in spans[1:reached]:
        if start > 0 and line[start - 1] != " " and line[start] != " ":
            return False
    return True


def _cells(line: str, spans: list[tuple[int, int]]) -> list[str] | None:
    """The raw text under each column (up to the next one), or the words of a row whose
    spacing was lost (one word per column), or None.

    The columns that start after the end of the line are left out (their cells are empty):
    a short line costs what its text does, not what the header does.
    """
    reached = _reached(line, spans)
    if _aligned(line, spans, reached):
        starts = [start for start, _ in spans[:reached]]
        ends = [*starts[1:], max(len(line), starts[-1])]
        return [line[start:end] for start, end in zip(starts, ends, strict=True)]
    words = line.split()
    return words if len(words) == len(spans) else None


def _cell(cells: list[str], index: int) -> str:
    return cells[index] if index < len(cells) else ""


def _join_wrapped(chunks: list[str], width: int | None, after_comma: str) -> str:
    """Glue a value wrapped over several lines of one column.

    A cell that fills its column was cut where the column ended and is glued as is (keeping a
    space it ended on); a shorter one was cut at a space (one space, or ``after_comma`` after
    a comma). Width None (layout unknown): glued as is.
    """
    if not chunks:
        return ""
    # The pieces are joined once at the end (joining as they come copies the text each time).
    # Every piece but the newest has its trailing whitespace stripped, so the text so far,
    # stripped on the right, is the pieces with the newest one stripped; ``last`` is its last
    # character.
    pieces = [chunks[0]]
    last = ""
    for previous, chunk in pairwise(chunks):
        pieces[-1] = pieces[-1].rstrip()
        last = pieces[-1][-1:] or last
        cell = previous[:width] if width else previous
        if width is None:
            pieces.append(chunk.strip())
        elif len(cell) >= width and not cell.endswith("  "):
            pieces.append((" " if cell.endswith(" ") else "") + chunk)
        else:
            pieces.append((after_comma if last == "," else " ") + chunk.strip())
    return "".join(pieces).strip()


# ---------------------------------------------------------------------------------------------
# SQL*Plus show parameter


_TYPES = r"(?P<type>big integer|boolean|integer|string|number|file|reserved)"
_SHOW_ROW = re.compile(rf"(?P<name>\S++)[ \t]++{_TYPES}(?P<rest>(?:[ \t].*)?)", re.IGNORECASE)
_SHOW_TYPE_ONLY = re.compile(rf"[ \t]++{_TYPES}(?P<rest>(?:[ \t].*)?)", re.IGNORECASE)
_SHOW_HEADER = re.compile(r"NAME\s++TYPE\s++VALUE", re.IGNORECASE)
_SQL_PROMPT = re.compile(r"(?:SQL|\d++)>(?:\s.*)?", re.IGNORECASE)


@dataclass(frozen=True)
class _ShowLayout:
    name_width: int
    type_start: int
    value_start: int
    value_width: int


@dataclass
class _ShowRow:
    line: int
    name: str
    chunks: list[str]
    aligned: bool


@dataclass
class _ShowState:
    result: Parsed[Parameter] = field(default_factory=Parsed)
    layout: _ShowLayout | None = None
    row: _ShowRow | None = None
    pending: tuple[int, str] | None = None

    def flush(self) -> None:
        if self.row is not None:
            width = self.layout.value_width if self.layout and self.row.aligned else None
            value = _join_wrapped(self.row.chunks, width, " ")
            self.result.items.append(Parameter(self.row.line, self.row.name.lower(), value))
        if self.pending is not None:
            self.result.ignored.append(self.pending[0])
        self.row = self.pending = None

    def start(self, number: int, name: str, line: str, match: re.Match[str]) -> None:
        self.flush()
        layout = self.layout
        if (
            layout is not None
            and "\t" not in line
            and line[layout.type_start : layout.value_start].strip().lower()
            == match["type"].lower()
        ):
            self.row = _ShowRow(number, name, [line[layout.value_start :]], True)
        else:
            self.row = _ShowRow(number, name, [match["rest"].strip()], False)

    def continuation(self, line: str) -> None:
        layout = self.layout
        if self.row is None:
            return
        if (
            self.row.aligned
            and layout is not None
            and "\t" not in line
            and not line[: layout.value_start].strip()
        ):
            self.row.chunks.append(line[layout.value_start :])
        else:
            self.row.aligned = False
            self.row.chunks.append(line.strip())

    def lone_word(self, number: int, word: str, line: str) -> None:
        layout = self.layout
        if (
            self.row is not None
            and layout is not None
            and len(self.row.name) == layout.name_width
            and len(self.row.chunks) == 1
            and not line[:1].isspace()
        ):
            self.row.name += word
            return
        self.flush()
        self.pending = (number, word)


def _show_layout(spans: list[tuple[int, int]]) -> _ShowLayout | None:
    if not 3 <= len(spans) <= MAX_COLUMNS:
        return None
    return _ShowLayout(
        spans[0][1] - spans[0][0], spans[1][0], spans[2][0], spans[2][1] - spans[2][0]
    )


@reads_long_lines_as_blank
def parse_show_parameter(text: str) -> Parsed[Parameter]:
    """SQL*Plus ``show parameter`` output: ``NAME TYPE VALUE`` header, dashes, then rows.

    A margin common to every line is removed, then the dashes give the columns. A value longer
    than its column continues on the next lines under the VALUE column and is joined back; a
    name too long for its column either stands alone with type and value on the next line, or
    continues alone on the next line; both are joined. Names are lowercased; values keep their
    spaces (``/u02/a.ctl, /u03/b.ctl``).

    A dashes line of more than ``MAX_COLUMNS`` groups gives no columns (and is reported as
    ignored).
    """
    state = _ShowState()
    for number, raw in _numbered(textwrap.dedent(text)):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if _SHOW_HEADER.fullmatch(stripped) or _SQL_PROMPT.fullmatch(stripped):
            state.flush()
        elif _is_dash_line(line):
            state.flush()
            spans = _spans(line)
            state.layout = _show_layout(spans)
            if len(spans) > MAX_COLUMNS:
                state.result.ignored.append(number)
        elif not line[:1].isspace() and (match := _SHOW_ROW.fullmatch(line)):
            state.start(number, match["name"], line, match)
        elif state.pending is not None and (match := _SHOW_TYPE_ONLY.fullmatch(line)):
            pending_line, name = state.pending
            state.pending = None
            state.start(pending_line, name, line, match)
        elif line[:1].isspace() and state.row is not None:
            state.continuation(line)
        elif len(stripped.split()) == 1:
            state.lone_word(number, stripped, line)
        else:
            state.flush()
            state.result.ignored.append(number)
    state.flush()
    state.result.ignored.sort()
    return state.result


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
    for number, raw in _numbered(text):
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


# ---------------------------------------------------------------------------------------------
# SQL*Plus select * from v$dnfs_servers


_SQL_FOOTER = re.compile(
    r"(?:\d++\s++rows?\s++selected\.?|no\s++rows\s++selected\.?|elapsed:.*)", re.IGNORECASE
)
_NO_ROWS = re.compile(r"no\s++rows\s++selected\.?", re.IGNORECASE)
# The v$dnfs_servers columns the audit reads; a row keeps no other cell.
_DNFS_COLUMNS = ("SVRNAME", "DIRNAME", "NFSVERSION", "WTMAX", "RTMAX")


@dataclass(frozen=True)
class _HeaderLine:
    """One (column names, dashes) pair: the column spans, and where the columns read are."""

    spans: list[tuple[int, int]]
    wanted: list[tuple[int, str]]


def _header_block(lines: list[tuple[int, str]], index: int) -> tuple[list[_HeaderLine], int, bool]:
    """Consecutive (column names, dashes) line pairs: SQL*Plus prints one pair per physical
    line of a record that is wider than the line size. Also the index after them, and whether
    they hold more than ``MAX_COLUMNS`` columns (then the block runs on over every following
    pair of a line over a dashes line, and is not read)."""
    block: list[_HeaderLine] = []
    columns = 0
    while index + 1 < len(lines):
        names, dashes = lines[index][1], lines[index + 1][1]
        if _is_dash_line(names) or not _is_dash_line(dashes):
            break
        if columns <= MAX_COLUMNS:
            spans = _spans(dashes)
            cells = _cells(names, spans)
            if cells is None or len(cells) < len(spans) or not all(c.strip() for c in cells):
                break
            columns += len(spans)
            upper = [cell.strip().upper() for cell in cells]
            wanted = [(at, name) for at, name in enumerate(upper) if name in _DNFS_COLUMNS]
            block.append(_HeaderLine(spans, wanted))
        index += 2
    return block, index, columns > MAX_COLUMNS


def _to_int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() and text.isascii() else None


def _dnfs_server(number: int, row: dict[str, str]) -> DnfsServer | None:
    if not any(row.get(column) for column in _DNFS_COLUMNS):
        return None
    return DnfsServer(
        number,
        row.get("SVRNAME", ""),
        row.get("DIRNAME", ""),
        row.get("NFSVERSION") or None,
        _to_int(row.get("WTMAX")),
        _to_int(row.get("RTMAX")),
    )


def _record(lines: list[tuple[int, str]], block: list[_HeaderLine]) -> dict[str, str] | None:
    """The cells of the columns read, or None when a line does not fit its header."""
    row: dict[str, str] = {}
    for (_, line), header in zip(lines, block, strict=True):
        cells = _cells(line, header.spans)
        if cells is None:
            return None
        row.update((name, _cell(cells, at).strip()) for at, name in header.wanted)
    return row


def _is_sql_noise(line: str) -> bool:
    stripped = line.strip()
    return bool(_SQL_FOOTER.fullmatch(stripped) or _SQL_PROMPT.fullmatch(stripped))


@reads_long_lines_as_blank
def parse_dnfs_servers(text: str) -> Parsed[DnfsServer]:
    """``select * from v$dnfs_servers;`` in SQL*Plus column layout.

    A header line of column names (ID SVRNAME DIRNAME MNTPORT NFSPORT NFSVERSION WTMAX RTMAX
    ...) over a dashes line whose groups give the columns, then one row a line. A record too
    wide for the line size is printed as several (names, dashes) pairs and as that many lines
    per row; both are followed. Columns may be missing or extra (11g has no NFSVERSION);
    ``N rows selected.``, ``Elapsed:`` and ``SQL>`` lines are skipped.

    A header of more than ``MAX_COLUMNS`` columns (all its pairs together) is not read: its
    lines and the rows under it are reported as ignored.
    """
    result: Parsed[DnfsServer] = Parsed()
    lines = _table_lines(text, result.ignored)
    noise = [_is_sql_noise(line) for _, line in lines]
    result.says_empty = any(_NO_ROWS.fullmatch(line.strip()) for _, line in lines)
    dashes = [_is_dash_line(line) for _, line in lines]
    block: list[_HeaderLine] = []
    index = 0
    while index < len(lines):
        header, after, too_wide = _header_block(lines, index)
        if too_wide:
            result.ignored.extend(number for number, _ in lines[index:after])
            block, index = [], after
            continue
        if header:
            block, index = header, after
            continue
        number = lines[index][0]
        if noise[index]:
            index += 1
            continue
        end = index + len(block)
        usable = bool(block) and end <= len(lines) and not any(noise[index:end] + dashes[index:end])
        row = _record(lines[index:end], block) if usable else None
        server = _dnfs_server(number, row) if row is not None else None
        if server is None:
            result.ignored.append(number)
            index += 1
            continue
        result.items.append(server)
        index = end
    result.ignored.sort()
    return result


# ---------------------------------------------------------------------------------------------
# Data ONTAP 7-mode options


# The prompt is matched a '>' at a time, possessively: only the last '>' of the first word can
# be followed by "options", so nothing is lost by never giving one back.
_OPTIONS_COMMAND = re.compile(r"(?:(?:[^\s>]*+>)++\s*+)?options(?:\s++|$)")
_OPTION = re.compile(r"(?P<name>[A-Za-z][\w-]*+(?:\.[\w-]++)++)(?:\s++(?P<value>.*))?")


def _drop_annotation(value: str) -> str:
    """``65536 (value might be overwritten in takeover)`` -> ``65536``: a last word group in
    parentheses, after a space, is dropped. ``value`` has single spaces between words."""
    opening = value.rfind("(")
    if (
        value.endswith(")")
        and opening >= 2
        and value[opening - 1] == " "
        and ")" not in value[opening + 1 : -1]
    ):
        return value[: opening - 1]
    return value


@reads_long_lines_as_blank
def parse_options_nfs(text: str) -> Parsed[Parameter]:
    """Data ONTAP 7-mode ``options nfs`` output: ``nfs.tcp.xfersize   65536`` a line.

    A trailing note such as ``(value might be overwritten in takeover)`` is dropped; a value
    may be empty. ``options nfs.tcp.xfersize 65536`` lines (/etc/rc, a console session) count
    as settings; ``filer> options nfs`` queries are skipped.
    """
    result: Parsed[Parameter] = Parsed()
    for number, raw in _numbered(text):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        command = _OPTIONS_COMMAND.match(line)
        if command is not None:
            line = line[command.end() :]
            if len(line.split()) < 2:
                continue
        match = _OPTION.fullmatch(line)
        if match is None:
            result.ignored.append(number)
            continue
        value = _drop_annotation(_squeeze(match["value"] or ""))
        result.items.append(Parameter(number, match["name"], value))
    return result


# ---------------------------------------------------------------------------------------------
# Clustered ONTAP show -fields / show -instance


ONTAP_KEY_COLUMNS = frozenset(
    {"vserver", "volume", "node", "port", "lif", "aggregate", "qtree", "policyname", "ruleindex"}
)
_ONTAP_FOOTER = re.compile(
    r"(?:\d++\s++entries\s++were\s++displayed\.?|there\s++are\s++no\s++entries\s++matching.*)",
    re.IGNORECASE,
)
# The label runs to the first colon ([^:] cannot pass one, so possessive loses nothing).
_ONTAP_LABEL = re.compile(r"(?P<indent>\s*+)(?P<label>[^\s:-][^:]*+):(?:\s++(?P<value>.*))?")


def _is_ontap_prompt(stripped: str) -> bool:
    """``cluster1::>`` or ``cluster1::*>``, then anything: the first word holds ``::>`` or
    ``::*>`` after at least one character."""
    first = stripped.split(maxsplit=1)
    return bool(first) and (first[0].find("::>", 1) >= 0 or first[0].find("::*>", 1) >= 0)


@dataclass
class _OntapRow:
    line: int
    chunks: dict[int, list[str]]  # the text under each column, for the columns that have some


@dataclass
class _OntapList:
    line: int
    fields: dict[str, str]
    last: str
    value_column: int
    more: list[str] = field(default_factory=list)  # lines continuing the value of ``last``

    def settle(self) -> None:
        """Join the continuation lines to the value they continue (once, not line by line)."""
        if self.more:
            value = self.fields[self.last]
            self.fields[self.last] = " ".join([value, *self.more] if value else self.more)
            self.more = []


@dataclass
class _OntapState:
    result: Parsed[OntapRecord] = field(default_factory=Parsed)
    names: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    too_wide: bool = False  # under a header of more than MAX_COLUMNS columns
    row: _OntapRow | None = None
    listing: _OntapList | None = None

    def flush(self) -> None:
        if self.row is not None:
            keys: dict[str, str] = {}
            fields: dict[str, str] = {}
            in_keys = True
            for at, (name, span) in enumerate(zip(self.names, self.spans, strict=True)):
                in_keys = in_keys and name in ONTAP_KEY_COLUMNS
                value = _join_wrapped(self.row.chunks.get(at, []), span[1] - span[0], "")
                (keys if in_keys else fields)[name] = value
            self.result.items.append(OntapRecord(self.row.line, keys, fields))
        if self.listing is not None:
            self.listing.settle()
            self.result.items.append(OntapRecord(self.listing.line, {}, self.listing.fields))
        self.row = self.listing = None

    def end_table(self) -> None:
        self.flush()
        self.names, self.spans, self.too_wide = [], [], False

    def table_line(self, number: int, line: str) -> None:
        cells = _cells(line, self.spans)
        if cells is None:
            self.result.ignored.append(number)
        elif not cells[0].strip() and self.row is not None:
            for at, cell in enumerate(cells):
                if cell.strip():
                    self.row.chunks.setdefault(at, []).append(cell)
        elif cells[0].strip():
            self.flush()
            chunks = {at: [cell] for at, cell in enumerate(cells) if cell.strip()}
            self.row = _OntapRow(number, chunks)
        else:
            self.result.ignored.append(number)

    def list_line(self, number: int, line: str) -> None:
        match = _ONTAP_LABEL.fullmatch(line)
        listing = self.listing
        if match is None:
            if listing is not None and len(line) - len(line.lstrip()) >= listing.value_column:
                listing.more.append(line.strip())
            else:
                self.result.ignored.append(number)
            return
        label = match["label"].strip()
        if listing is None or label in listing.fields:
            self.flush()
            listing = self.listing = _OntapList(number, {}, label, 0)
        listing.settle()
        listing.fields[label] = _squeeze(match["value"] or "")
        listing.last = label
        listing.value_column = match.start("value") if match["value"] else len(line)


def _ontap_header(line: str, dashes: str) -> tuple[list[str], list[tuple[int, int]]] | None:
    if _is_dash_line(line) or not _is_dash_line(dashes) or ":" in line:
        return None
    spans = _spans(dashes)
    cells = _cells(line, spans)
    if cells is None or len(cells) < len(spans) or not all(cell.strip() for cell in cells):
        return None
    return [cell.strip().lower() for cell in cells], spans


@reads_long_lines_as_blank
def parse_ontap_fields(text: str) -> Parsed[OntapRecord]:
    """Clustered ONTAP ``show -fields`` tables and ``show -instance`` / ``-vserver X`` lists.

    Table: a header of field names whose leading key columns (vserver, volume, node, port,
    lif, aggregate, qtree, policyname, ruleindex) become ``keys``, a dashes line whose groups
    give the columns, rows, and ``N entries were displayed.``. A row too long for the terminal
    continues on lines whose key columns are blank; their text is joined under its column.
    List: ``Label: value`` lines (labels right-aligned); a new record starts when a label
    repeats; a line indented to the value column continues the previous value. List records
    have empty ``keys`` and the labels, as printed, as field names.

    A header of more than ``MAX_COLUMNS`` columns is not read: it and its rows are reported as
    ignored.
    """
    state = _OntapState()
    lines = _table_lines(text, state.result.ignored)
    index = 0
    while index < len(lines):
        number, line = lines[index]
        stripped = line.strip()
        header = _ontap_header(line, lines[index + 1][1]) if index + 1 < len(lines) else None
        if header is not None:
            state.end_table()
            if len(header[1]) > MAX_COLUMNS:
                state.too_wide = True
                state.result.ignored.extend((number, lines[index + 1][0]))
            else:
                state.names, state.spans = header
            index += 2
            continue
        if _is_ontap_prompt(stripped) or _ONTAP_FOOTER.fullmatch(stripped):
            state.end_table()
        elif state.too_wide:
            state.result.ignored.append(number)
        elif state.spans and not _is_dash_line(line):
            state.table_line(number, line)
        elif not state.spans:
            state.list_line(number, line)
        else:
            state.result.ignored.append(number)
        index += 1
    state.flush()
    state.result.ignored.sort()
    return state.result

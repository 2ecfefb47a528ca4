"""Read SQL*Plus output: ``show parameter`` and ``select * from v$dnfs_servers``.

Like every parser (``nasplan.audit.parsers``), each returns what it understood with line numbers
and lists the lines it did not understand in ``ignored``; blank lines, SQL*Plus prompts, table
headers and footers are understood and produce nothing. No parser raises on any text. Line
numbers count lines as ``str.splitlines`` does (LF, CRLF and CR all end a line). The columns
are read as ``nasplan.audit.columns`` reads them, with its caps.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from nasplan.audit.columns import (
    cell_at,
    column_spans,
    is_dash_line,
    join_wrapped,
    split_cells,
    table_lines,
)
from nasplan.audit.parsers import (
    MAX_COLUMNS,
    Parameter,
    Parsed,
    numbered,
    reads_long_lines_as_blank,
)


@dataclass(frozen=True)
class DnfsServer:
    """One row of ``v$dnfs_servers``; a column missing from the paste reads as empty or None."""

    line: int
    server: str
    directory: str
    nfs_version: str | None
    wtmax: int | None
    rtmax: int | None


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
            value = join_wrapped(self.row.chunks, width, " ")
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
    for number, raw in numbered(textwrap.dedent(text)):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if _SHOW_HEADER.fullmatch(stripped) or _SQL_PROMPT.fullmatch(stripped):
            state.flush()
        elif is_dash_line(line):
            state.flush()
            spans = column_spans(line)
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
        if is_dash_line(names) or not is_dash_line(dashes):
            break
        if columns <= MAX_COLUMNS:
            spans = column_spans(dashes)
            cells = split_cells(names, spans)
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
        cells = split_cells(line, header.spans)
        if cells is None:
            return None
        row.update((name, cell_at(cells, at).strip()) for at, name in header.wanted)
    return row


def _selected_columns(line: str) -> list[str] | None:
    """The columns of a ``SELECT a, b FROM v$dnfs_servers`` line (after any prompt), upper
    case; None for any other line or for ``SELECT *`` (whose order only a header gives)."""
    words = line.strip().rstrip(";").split()
    if words and _SQL_PROMPT.fullmatch(words[0]):
        words = words[1:]
    lowered = [word.lower() for word in words]
    if not lowered or lowered[0] != "select" or "from" not in lowered:
        return None
    at = lowered.index("from")
    if lowered[at + 1 : at + 2] != ["v$dnfs_servers"]:
        return None
    columns = [c.strip().upper() for c in " ".join(words[1:at]).split(",")]
    if not columns or not all(c.replace("_", "").isalnum() and c.isascii() for c in columns):
        return None
    return columns


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
    ``N rows selected.``, ``Elapsed:`` and ``SQL>`` lines are skipped. Rows printed without a
    header are read by the columns a ``SELECT svrname, dirname FROM v$dnfs_servers`` line names.

    A header of more than ``MAX_COLUMNS`` columns (all its pairs together) is not read: its
    lines and the rows under it are reported as ignored.
    """
    result: Parsed[DnfsServer] = Parsed()
    lines = table_lines(text, result.ignored)
    noise = [_is_sql_noise(line) for _, line in lines]
    result.says_empty = any(_NO_ROWS.fullmatch(line.strip()) for _, line in lines)
    dashes = [is_dash_line(line) for _, line in lines]
    block: list[_HeaderLine] = []
    # A query that names its columns, for rows printed without a header (a blog's copy).
    selected: list[str] | None = None
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
        query = _selected_columns(lines[index][1])
        if noise[index] or query is not None:
            selected = query or selected
            index += 1
            continue
        if not block and selected is not None:
            cells = lines[index][1].split()
            server = None
            if len(cells) == len(selected):
                server = _dnfs_server(number, dict(zip(selected, cells, strict=True)))
            if server is None:
                result.ignored.append(number)
            else:
                result.items.append(server)
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

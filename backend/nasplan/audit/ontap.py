"""Read NetApp filer output: Data ONTAP 7-mode ``options nfs`` and ``vol options``, clustered
ONTAP ``show -fields`` tables and ``show -instance`` lists.

Like every parser (``nasplan.audit.parsers``), each returns what it understood with line numbers
and lists the lines it did not understand in ``ignored``; blank lines, comments, filer prompts,
table headers and footers are understood and produce nothing. No parser raises on any text.
Line numbers count lines as ``str.splitlines`` does (LF, CRLF and CR all end a line). Tables are
read as ``nasplan.audit.columns`` reads them, with its caps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nasplan.audit.columns import column_spans, is_dash_line, join_wrapped, split_cells, table_lines
from nasplan.audit.parsers import (
    MAX_COLUMNS,
    Parameter,
    Parsed,
    content_lines,
    numbered,
    reads_long_lines_as_blank,
    squeeze,
)


@dataclass(frozen=True)
class OntapRecord:
    """One row of a clustered ONTAP ``show`` command: key columns and the other fields."""

    line: int
    keys: dict[str, str]
    fields: dict[str, str]


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
    for number, raw in numbered(text):
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
        value = _drop_annotation(squeeze(match["value"] or ""))
        result.items.append(Parameter(number, match["name"], value))
    return result


@reads_long_lines_as_blank
def parse_vol_options(text: str) -> Parsed[Parameter]:
    """Data ONTAP 7-mode `vol options <vol>` output: ``name=value, name=value, ...``."""
    result: Parsed[Parameter] = Parsed()
    for number, line in content_lines(text):
        pairs = [p.strip() for p in line.split(",") if "=" in p]
        if not pairs:
            result.ignored.append(number)
            continue
        for pair in pairs:
            name, _, value = pair.partition("=")
            result.items.append(Parameter(number, name.strip(), value.strip()))
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
                value = join_wrapped(self.row.chunks.get(at, []), span[1] - span[0], "")
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
        cells = split_cells(line, self.spans)
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
        listing.fields[label] = squeeze(match["value"] or "")
        listing.last = label
        listing.value_column = match.start("value") if match["value"] else len(line)


def _ontap_header(line: str, dashes: str) -> tuple[list[str], list[tuple[int, int]]] | None:
    if is_dash_line(line) or not is_dash_line(dashes) or ":" in line:
        return None
    spans = column_spans(dashes)
    cells = split_cells(line, spans)
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
    lines = table_lines(text, state.result.ignored)
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
        elif state.spans and not is_dash_line(line):
            state.table_line(number, line)
        elif not state.spans:
            state.list_line(number, line)
        else:
            state.result.ignored.append(number)
        index += 1
    state.flush()
    state.result.ignored.sort()
    return state.result

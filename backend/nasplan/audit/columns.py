"""Read column tables as SQL*Plus and clustered ONTAP print them: a header of column names over
a dashes line whose groups give the columns, then rows (``nasplan.audit.sqlplus``,
``nasplan.audit.ontap``).

As every parser is (``nasplan.audit.parsers``), a table is read in time linear in the size of
the paste. A line longer than ``MAX_LINE_CHARS`` (also once its tabs are expanded) is reported
as ignored and otherwise read as blank. A header of more than ``MAX_COLUMNS`` columns is not
read as one (it and its rows are reported as ignored); a table has no more rows than the
``MAX_LINES`` lines a parse reads. A short row costs what its text does, not what its header
does.
"""

from __future__ import annotations

import re
import textwrap
from itertools import pairwise

from nasplan.audit.parsers import MAX_LINE_CHARS, numbered

_DASHES = re.compile(r"-+")


def table_lines(text: str, ignored: list[int]) -> list[tuple[int, str]]:
    """Non-blank lines, tabs expanded, the margin common to all of them removed; a line that
    its tabs made longer than ``MAX_LINE_CHARS`` is added to ``ignored`` instead."""
    lines: list[tuple[int, str]] = []
    for number, raw in numbered(textwrap.dedent(text.expandtabs(8))):
        line = raw.rstrip()
        if len(line) > MAX_LINE_CHARS:
            ignored.append(number)
        elif line:
            lines.append((number, line))
    return lines


def is_dash_line(line: str) -> bool:
    stripped = line.strip()
    return "--" in stripped and not stripped.strip("- ")


def column_spans(dash_line: str) -> list[tuple[int, int]]:
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


def split_cells(line: str, spans: list[tuple[int, int]]) -> list[str] | None:
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


def cell_at(cells: list[str], index: int) -> str:
    return cells[index] if index < len(cells) else ""


def join_wrapped(chunks: list[str], width: int | None, after_comma: str) -> str:
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

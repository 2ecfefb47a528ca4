"""text kept on designs loses the control and format characters the models now refuse

Revision ID: 0007
Revises: 0006

Design and revision names, reviewers, review comments and audit labels now refuse the Unicode
categories Cc (controls, C0 and C1: U+0085, U+009B ...) and Cf (format characters: the bidi
override U+202E, the zero-width space U+200B, the byte order mark ...); a comment keeps tab,
newline and carriage return, and one-line text also refuses the line and paragraph separators
U+2028 and U+2029 (nasplan.domain.plan). Rows kept before may hold such characters, and
reading them back through the stricter models failed: the export of a design whose name holds
U+202E answered 500, and so did a kept audit whose finding message echoes one from a pasted
file. This migration removes them:

- designs.name, revisions.name, reviews.reviewer (names): the characters are removed, then
  the spaces around what is left (as the models drop them from a name); a name left empty
  becomes "(unnamed)";
- design_audits.label: the characters are removed, nothing else (a label may be empty, and
  the models keep its spaces);
- reviews.comment: the characters are removed but tab, newline and carriage return (the line
  separators U+2028 and U+2029 are not format characters, and a comment may hold them);
- design_audits.report_json: the message of each finding (one line), as a label.

Rows without such characters are not written. The downgrade changes nothing: the removed
characters are not restored.

The character lists are copied here, not imported, so that this migration does the same thing
whatever the application code becomes; and spelled out rather than read from unicodedata, whose
Unicode release is the Python's (3.11 has Unicode 14.0, without the format characters
U+13439-U+1343F that the models refuse). They are Cc and Cf as of Unicode 17.0.
"""

import json
from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

BATCH = 500
UNNAMED = "(unnamed)"

Ranges = tuple[tuple[int, int], ...]
Clean = Callable[[str], str]

CONTROLS: Ranges = ((0x0000, 0x001F), (0x007F, 0x009F))  # Cc
FORMATS: Ranges = (  # Cf, Unicode 17.0
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
LINE_SEPARATORS: Ranges = ((0x2028, 0x2029),)  # Zl and Zp
KEPT_IN_COMMENTS = "\t\n\r"


def _deletions(*groups: Ranges, keep: str = "") -> dict[int, None]:
    """A str.translate table deleting the code points of ``groups`` but ``keep``."""
    kept = {ord(ch) for ch in keep}
    return {
        code: None
        for ranges in groups
        for low, high in ranges
        for code in range(low, high + 1)
        if code not in kept
    }


ONE_LINE_REMOVED = _deletions(CONTROLS, FORMATS, LINE_SEPARATORS)
COMMENT_REMOVED = _deletions(CONTROLS, FORMATS, keep=KEPT_IN_COMMENTS)


def clean_line(value: str) -> str:
    """A label or a finding's message: without controls, format characters, line breaks."""
    return value.translate(ONE_LINE_REMOVED)


def clean_name(value: str) -> str:
    """A name or a reviewer: as a label, then without the spaces around it, never empty. A
    name that loses nothing is left as it is."""
    cleaned = clean_line(value)
    if cleaned == value:
        return value
    return cleaned.strip() or UNNAMED


def clean_comment(value: str) -> str:
    return value.translate(COMMENT_REMOVED)


def _clean_columns(
    connection: sa.Connection,
    name: str,
    key: tuple[str, sa.types.TypeEngine[Any]],
    columns: Mapping[str, Clean],
) -> None:
    """Rewrite the rows of table ``name`` whose ``columns`` change when cleaned, a batch at a
    time in the order of the primary key ``key``."""
    key_name, key_type = key
    table = sa.table(name, sa.column(key_name, key_type), *(sa.column(c, sa.Text) for c in columns))
    row_key = table.c[key_name]
    update = (
        table.update()
        .where(row_key == sa.bindparam("_key"))
        .values({c: sa.bindparam(f"_{c}") for c in columns})
    )
    last: Any = None
    while True:
        query = sa.select(row_key, *(table.c[c] for c in columns)).order_by(row_key).limit(BATCH)
        if last is not None:
            query = query.where(row_key > last)
        rows = connection.execute(query).all()
        if not rows:
            return
        changed = []
        for row in rows:
            old = dict(zip(columns, row[1:], strict=True))
            new = {c: None if v is None else columns[c](v) for c, v in old.items()}
            if new != old:
                changed.append({"_key": row[0], **{f"_{c}": v for c, v in new.items()}})
        if changed:
            connection.execute(update, changed)
        last = rows[-1][0]


def _clean_report(report: dict[str, Any]) -> bool:
    """Clean the findings' messages of a kept audit report in place; whether any changed."""
    changed = False
    for finding in report.get("findings") or []:
        message = finding.get("message") if isinstance(finding, dict) else None
        if isinstance(message, str) and clean_line(message) != message:
            finding["message"] = clean_line(message)
            changed = True
    return changed


def _clean_reports(connection: sa.Connection) -> None:
    # One stored report in memory at a time, as in 0006: old ones can be large.
    table = sa.table(
        "design_audits", sa.column("id", sa.Integer), sa.column("report_json", sa.Text)
    )
    last = 0
    while True:
        ids = (
            connection.execute(
                sa.select(table.c.id).where(table.c.id > last).order_by(table.c.id).limit(BATCH)
            )
            .scalars()
            .all()
        )
        if not ids:
            return
        for row_id in ids:
            text = connection.execute(
                sa.select(table.c.report_json).where(table.c.id == row_id)
            ).scalar_one()
            report = json.loads(text)
            if isinstance(report, dict) and _clean_report(report):
                rewritten = json.dumps(report, separators=(",", ":"), ensure_ascii=False)
                connection.execute(
                    table.update().where(table.c.id == row_id).values(report_json=rewritten)
                )
        last = ids[-1]


def upgrade() -> None:
    connection = op.get_bind()
    _clean_columns(connection, "designs", ("id", sa.String()), {"name": clean_name})
    _clean_columns(connection, "revisions", ("id", sa.Integer()), {"name": clean_name})
    _clean_columns(
        connection,
        "reviews",
        ("id", sa.Integer()),
        {"reviewer": clean_name, "comment": clean_comment},
    )
    _clean_columns(connection, "design_audits", ("id", sa.Integer()), {"label": clean_line})
    _clean_reports(connection)


def downgrade() -> None:
    """Nothing to undo that can be undone: the removed characters are not restored."""

"""summaries of the audits and as-built checks kept on designs, in a column of their own

Revision ID: 0006
Revises: 0005

Lists of a design's audits and as-built checks read only these summaries, never the stored
reports. Rows kept before this migration are summarised from their stored JSON, one row at a
time. Their audit reports also lose what audits kept from now on do not keep
(nasplan.designs.records): the corrected copies of the pasted files, and the ignored line
numbers beyond the first 200 per file (their counts are kept). The downgrade drops the
summaries; it cannot bring back what was dropped from the reports.

The summary and slimming rules are copied here, not imported, so that this migration does the
same thing whatever the application code becomes.
"""

import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

MAX_IGNORED_LISTED = 200
BATCH = 200
_SEVERITIES = ("error", "warning", "info")

Converted = tuple[dict[str, Any] | None, dict[str, Any]]


def _table(name: str, stored: str) -> sa.TableClause:
    return sa.table(
        name,
        sa.column("id", sa.Integer),
        sa.column(stored, sa.Text),
        sa.column("summary_json", sa.Text),
    )


def _dumps(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _audit(report: dict[str, Any]) -> Converted:
    """The audit's summary, and its report without the echo of the pasted lines."""
    ignored: dict[str, list[int]] = report.get("ignored_lines") or {}
    known: dict[str, int] = report.get("ignored_count") or {}
    ignored_count = {kind: int(known.get(kind, len(lines))) for kind, lines in ignored.items()}
    severities: dict[str, int] = report.get("severity_counts") or {}
    if not severities:
        for finding in report.get("findings") or []:
            severity = finding.get("severity")
            severities[severity] = severities.get(severity, 0) + 1
    summary = {
        "kb_version": report["kb_version"],
        "as_of": report["as_of"],
        "score": report.get("score"),
        "severity_counts": {s: int(severities.get(s, 0)) for s in _SEVERITIES},
        "checked": report.get("checked") or {},
        "ignored_count": ignored_count,
    }
    slim = {
        **report,
        "corrected": {},
        "ignored_lines": {kind: lines[:MAX_IGNORED_LISTED] for kind, lines in ignored.items()},
        "ignored_count": ignored_count,
    }
    return slim, summary


def _as_built(result: dict[str, Any]) -> Converted:
    summary = {
        "counts": result.get("counts") or {},
        "unreadable_lines": int(result.get("unreadable_lines") or 0),
    }
    return None, summary


def _backfill(
    connection: sa.Connection,
    table: sa.TableClause,
    stored: str,
    convert: Callable[[dict[str, Any]], Converted],
) -> None:
    # One stored report in memory at a time: old ones can be many megabytes each.
    column = table.c[stored]
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
            text = connection.execute(sa.select(column).where(table.c.id == row_id)).scalar_one()
            rewritten, summary = convert(json.loads(text))
            values = {"summary_json": _dumps(summary)}
            if rewritten is not None:
                values[stored] = _dumps(rewritten)
            connection.execute(table.update().where(table.c.id == row_id).values(**values))
        last = ids[-1]


def upgrade() -> None:
    for name in ("design_audits", "as_built_checks"):
        with op.batch_alter_table(name) as batch:
            batch.add_column(sa.Column("summary_json", sa.Text, nullable=True))
    connection = op.get_bind()
    _backfill(connection, _table("design_audits", "report_json"), "report_json", _audit)
    _backfill(connection, _table("as_built_checks", "result_json"), "result_json", _as_built)
    for name in ("design_audits", "as_built_checks"):
        with op.batch_alter_table(name) as batch:
            batch.alter_column("summary_json", existing_type=sa.Text, nullable=False)


def downgrade() -> None:
    for name in ("as_built_checks", "design_audits"):
        with op.batch_alter_table(name) as batch:
            batch.drop_column("summary_json")

"""What a design keeps of an audit or an as-built check: the report, slimmed, and the figures
its lists show, stored in a column of their own so that a list never reads a report.

A kept audit stores its findings and figures, not an echo of what was pasted: no corrected
copies of the files (the audit page hands those out when the audit is run) and at most
``MAX_IGNORED_LISTED`` ignored line numbers per file, with the count of all of them.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from pydantic import BaseModel, Field

from nasplan.audit.report import AuditReport
from nasplan.designs.as_built import AsBuiltResult, Status

MAX_IGNORED_LISTED = 200


class SeverityCounts(BaseModel):
    error: int = 0
    warning: int = 0
    info: int = 0


class AuditFigures(BaseModel):
    """What a list shows of an audit report: its figures, none of its findings."""

    kb_version: str
    as_of: dt.date
    score: int | None = Field(description="The report's score, %, when anything was checked.")
    severity_counts: SeverityCounts = Field(description="Findings by severity, all of them.")
    checked: dict[str, int] = Field(description="Entries understood per file.")
    ignored_count: dict[str, int] = Field(description="Lines not understood per file.")


class AsBuiltFigures(BaseModel):
    """What a list shows of an as-built check: its counts, none of its items."""

    counts: dict[Status, int]
    unreadable_lines: int = Field(description="Report lines that were not PASS, FAIL or CHECK.")


def _ignored_count(report: AuditReport) -> dict[str, int]:
    # The audit may list only the first lines already; its own count then covers the rest.
    return {
        kind: report.ignored_count.get(kind, len(lines))
        for kind, lines in report.ignored_lines.items()
    }


def slim_report(report: AuditReport) -> AuditReport:
    """The report as a design keeps it: without the echo of the pasted files."""
    return report.model_copy(
        update={
            "corrected": {},
            "ignored_lines": {
                kind: lines[:MAX_IGNORED_LISTED] for kind, lines in report.ignored_lines.items()
            },
            "ignored_count": _ignored_count(report),
        }
    )


def audit_figures(report: AuditReport) -> AuditFigures:
    counted = report.severity_counts or Counter(f.severity for f in report.findings)
    return AuditFigures(
        kb_version=report.kb_version,
        as_of=report.as_of,
        score=report.score,
        severity_counts=SeverityCounts.model_validate(dict(counted)),
        checked=report.checked,
        ignored_count=_ignored_count(report),
    )


def as_built_figures(result: AsBuiltResult) -> AsBuiltFigures:
    return AsBuiltFigures(counts=result.counts, unreadable_lines=result.unreadable_lines)

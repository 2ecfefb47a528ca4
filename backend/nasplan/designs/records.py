"""What a design keeps of an audit or an as-built check: the report, slimmed, and the figures
its lists show, stored in a column of their own so that a list never reads a report.

A kept audit stores its findings and figures, not an echo of what was pasted: no corrected
copies of the files (the audit page hands those out when the audit is run). The audit itself
already bounds the rest (``nasplan.audit.report``: findings, ignored line numbers) and counts
what it leaves out, so the figures are the report's own.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from nasplan.audit.report import AuditReport
from nasplan.designs.as_built import AsBuiltResult, Status


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


def slim_report(report: AuditReport) -> AuditReport:
    """The report as a design keeps it: without the echo of the pasted files."""
    return report.model_copy(update={"corrected": {}})


def audit_figures(report: AuditReport) -> AuditFigures:
    return AuditFigures(
        kb_version=report.kb_version,
        as_of=report.as_of,
        score=report.score,
        severity_counts=SeverityCounts.model_validate(report.severity_counts),
        checked=report.checked,
        ignored_count=report.ignored_count,
    )


def as_built_figures(result: AsBuiltResult) -> AsBuiltFigures:
    return AsBuiltFigures(counts=result.counts, unreadable_lines=result.unreadable_lines)

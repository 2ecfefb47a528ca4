"""The audits and as-built checks kept on a design, read back: lists of summaries, newest first,
a page at a time, and each full record on its own, only through the design it belongs to.

A list reads each row's summary column (nasplan.designs.records), never a stored report, so
its cost does not grow with what was pasted.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import Row, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from nasplan.audit.report import MAX_IGNORED_LISTED, AuditReport
from nasplan.data.models import AsBuiltRow, DesignAuditRow, RevisionRow
from nasplan.designs.as_built import AsBuiltResult
from nasplan.designs.records import AsBuiltFigures, AuditFigures
from nasplan.designs.schemas import AsBuiltOut
from nasplan.designs.service import DesignNotFound, as_utc, get_design

DEFAULT_PAGE = 20
MAX_PAGE = 100
_NEXT = "Pass as `before` for the next (older) page; null on the last page."


class DesignAuditSummary(AuditFigures):
    id: int
    revision: int = Field(description="The revision the pastes were checked against.")
    created_at: dt.datetime
    label: str


class DesignAuditDetail(DesignAuditSummary):
    report: AuditReport = Field(
        description="The report as kept: findings and figures; no corrected files, and at most "
        f"{MAX_IGNORED_LISTED} ignored line numbers per file (`ignored_count` counts them all)."
    )


class DesignAuditPage(BaseModel):
    items: list[DesignAuditSummary] = Field(description="Newest first.")
    next: int | None = Field(description=_NEXT)
    total: int = Field(description="Audits the design keeps in all.")


class AsBuiltSummary(AsBuiltFigures):
    id: int
    revision: int
    created_at: dt.datetime
    host: str | None


class AsBuiltPage(BaseModel):
    items: list[AsBuiltSummary] = Field(description="Newest first.")
    next: int | None = Field(description=_NEXT)
    total: int = Field(description="As-built checks the design keeps in all.")


_Listed = Row[int, int, dt.datetime, Any, str]


def _page_rows(
    session: Session,
    design_id: str,
    kept: type[DesignAuditRow] | type[AsBuiltRow],
    name: InstrumentedAttribute[Any],
    limit: int,
    before: int | None,
) -> tuple[Sequence[_Listed], int | None, int]:
    """(id, revision number, created_at, ``name``, summary) of the records of ``kept`` on a
    design, newest (highest id) first; the id the next page starts before; the total."""
    get_design(session, design_id)
    on_revision = kept.revision_id == RevisionRow.id
    of_design = RevisionRow.design_id == design_id
    total = session.scalar(
        select(func.count()).select_from(kept).join(RevisionRow, on_revision).where(of_design)
    )
    query = (
        select(kept.id, RevisionRow.number, kept.created_at, name, kept.summary_json)
        .join(RevisionRow, on_revision)
        .where(of_design)
        .order_by(kept.id.desc())
        .limit(limit + 1)
    )
    if before is not None:
        query = query.where(kept.id < before)
    rows = session.execute(query).all()
    following = rows[limit - 1][0] if len(rows) > limit else None
    return rows[:limit], following, int(total or 0)


def audit_page(
    session: Session, design_id: str, limit: int = DEFAULT_PAGE, before: int | None = None
) -> DesignAuditPage:
    rows, following, total = _page_rows(
        session, design_id, DesignAuditRow, DesignAuditRow.label, limit, before
    )
    items = [
        DesignAuditSummary(
            **AuditFigures.model_validate_json(summary).model_dump(),
            id=row_id,
            revision=number,
            created_at=as_utc(created_at),
            label=label,
        )
        for row_id, number, created_at, label, summary in rows
    ]
    return DesignAuditPage(items=items, next=following, total=total)


def as_built_page(
    session: Session, design_id: str, limit: int = DEFAULT_PAGE, before: int | None = None
) -> AsBuiltPage:
    rows, following, total = _page_rows(
        session, design_id, AsBuiltRow, AsBuiltRow.host, limit, before
    )
    items = [
        AsBuiltSummary(
            **AsBuiltFigures.model_validate_json(summary).model_dump(),
            id=row_id,
            revision=number,
            created_at=as_utc(created_at),
            host=host,
        )
        for row_id, number, created_at, host, summary in rows
    ]
    return AsBuiltPage(items=items, next=following, total=total)


def audit_detail(row: DesignAuditRow, number: int) -> DesignAuditDetail:
    return DesignAuditDetail(
        **AuditFigures.model_validate_json(row.summary_json).model_dump(),
        id=row.id,
        revision=number,
        created_at=as_utc(row.created_at),
        label=row.label,
        report=AuditReport.model_validate_json(row.report_json),
    )


def as_built_detail(row: AsBuiltRow, number: int) -> AsBuiltOut:
    return AsBuiltOut(
        **AsBuiltResult.model_validate_json(row.result_json).model_dump(),
        id=row.id,
        revision=number,
        created_at=as_utc(row.created_at),
    )


def one_audit(session: Session, design_id: str, audit_id: int) -> DesignAuditDetail:
    get_design(session, design_id)
    found = session.execute(
        select(DesignAuditRow, RevisionRow.number)
        .join(RevisionRow, DesignAuditRow.revision_id == RevisionRow.id)
        .where(RevisionRow.design_id == design_id, DesignAuditRow.id == audit_id)
    ).first()
    if found is None:
        raise DesignNotFound(f"design {design_id!r} has no audit {audit_id}")
    return audit_detail(found[0], found[1])


def one_as_built(session: Session, design_id: str, check_id: int) -> AsBuiltOut:
    get_design(session, design_id)
    found = session.execute(
        select(AsBuiltRow, RevisionRow.number)
        .join(RevisionRow, AsBuiltRow.revision_id == RevisionRow.id)
        .where(RevisionRow.design_id == design_id, AsBuiltRow.id == check_id)
    ).first()
    if found is None:
        raise DesignNotFound(f"design {design_id!r} has no as-built check {check_id}")
    return as_built_detail(found[0], found[1])

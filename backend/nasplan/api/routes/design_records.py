"""What a design keeps besides its revisions: audits of what ran before it and as-built checks.

Lists answer summaries, newest first, a page at a time (`limit`, `before`); each full record is
read on its own.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Path, Query
from fastapi.responses import JSONResponse

from nasplan.api.deps import AuditRunnerDep, SessionDep
from nasplan.api.routes.audits import unrecognised_422
from nasplan.api.routes.design_answers import INPUT, NOT_FOUND, TOKEN, Responses
from nasplan.audit.pastes import Unrecognised
from nasplan.designs import listing, service
from nasplan.designs.listing import AsBuiltPage, DesignAuditDetail, DesignAuditPage
from nasplan.designs.schemas import MAX_REVISION, AsBuiltCreate, AsBuiltOut, DesignAuditCreate

router = APIRouter()

Limit = Annotated[
    int,
    Query(
        ge=1,
        le=listing.MAX_PAGE,
        description=f"How many to answer, at most {listing.MAX_PAGE}.",
    ),
]
# Record ids are 32-bit integers in the database, like revision numbers.
Before = Annotated[
    int | None,
    Query(
        ge=1,
        le=MAX_REVISION,
        description="Only records older than this id: the `next` of the page before.",
    ),
]
_ONE_NOT_FOUND: Responses = {
    404: {"description": "No design with this id, or the design keeps no record with that id"}
}


@router.post(
    "/{design_id}/as-built",
    status_code=201,
    response_model=AsBuiltOut,
    responses={**NOT_FOUND, **TOKEN, **INPUT},
)
def create_as_built(
    design_id: str,
    session: SessionDep,
    body: AsBuiltCreate,
    x_edit_token: Annotated[str | None, Header()] = None,
) -> AsBuiltOut:
    """Record what a host's verify report found against a revision: each planned item
    verified, differs or not checked. Needs the edit token (the team that builds the system)."""
    row, _ = service.record_as_built(session, design_id, x_edit_token, body.revision, body.report)
    return listing.as_built_detail(row, body.revision)


@router.get("/{design_id}/as-built", response_model=AsBuiltPage, responses=NOT_FOUND)
def read_as_built(
    design_id: str,
    session: SessionDep,
    limit: Limit = listing.DEFAULT_PAGE,
    before: Before = None,
) -> AsBuiltPage:
    """The design's as-built checks, newest first: counts only. Read one check for its items."""
    return listing.as_built_page(session, design_id, limit, before)


@router.get("/{design_id}/as-built/{check_id}", response_model=AsBuiltOut, responses=_ONE_NOT_FOUND)
def read_one_as_built(
    design_id: str,
    check_id: Annotated[int, Path(ge=1, le=MAX_REVISION, description="The check's id.")],
    session: SessionDep,
) -> AsBuiltOut:
    """One as-built check of the design, item by item."""
    return listing.one_as_built(session, design_id, check_id)


@router.post(
    "/{design_id}/audits",
    status_code=201,
    response_model=DesignAuditDetail,
    responses={**NOT_FOUND, **TOKEN, **INPUT},
)
def create_design_audit(
    design_id: str,
    session: SessionDep,
    runner: AuditRunnerDep,
    body: DesignAuditCreate,
    x_edit_token: Annotated[str | None, Header()] = None,
) -> DesignAuditDetail | JSONResponse:
    """Audit what runs today against a revision (its platform and advice date) and keep the
    report on the design as its "before". Needs the edit token. The design keeps the findings
    and figures, not the corrected files (the audit itself hands those out)."""
    try:
        row, _ = service.record_before_audit(
            session, runner.run, design_id, x_edit_token, body.revision, body.label, body
        )
    except Unrecognised as exc:
        return unrecognised_422(exc)
    return listing.audit_detail(row, body.revision)


@router.get("/{design_id}/audits", response_model=DesignAuditPage, responses=NOT_FOUND)
def read_design_audits(
    design_id: str,
    session: SessionDep,
    limit: Limit = listing.DEFAULT_PAGE,
    before: Before = None,
) -> DesignAuditPage:
    """The audits kept on the design, newest first: figures only. Read one audit for its
    findings."""
    return listing.audit_page(session, design_id, limit, before)


@router.get(
    "/{design_id}/audits/{audit_id}", response_model=DesignAuditDetail, responses=_ONE_NOT_FOUND
)
def read_design_audit(
    design_id: str,
    audit_id: Annotated[int, Path(ge=1, le=MAX_REVISION, description="The audit's id.")],
    session: SessionDep,
) -> DesignAuditDetail:
    """One audit kept on the design, with its report."""
    return listing.one_audit(session, design_id, audit_id)

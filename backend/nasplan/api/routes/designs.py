"""Saved designs: permalink, revisions, reviews, drift, files, export and import."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Callable
from typing import Annotated, Any

from cachetools import LRUCache
from fastapi import APIRouter, Header, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import Engine
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from nasplan.api.deps import KbDep, SessionDep, session_scope
from nasplan.api.routes import design_records
from nasplan.api.routes.bundles import RunbookFormat
from nasplan.api.routes.design_answers import INPUT, NOT_FOUND, TOKEN, Responses
from nasplan.api.routes.design_bodies import review_out, revision_body, revision_summary
from nasplan.data.models import DesignRow
from nasplan.designs import file_diff, files, reviews, service, transfer
from nasplan.designs.schemas import (
    MAX_REVISION,
    DesignCreate,
    DesignCreated,
    DesignExport,
    DesignOut,
    Drift,
    ReviewCreate,
    ReviewOut,
    RevisionCreate,
    RevisionDiff,
    RevisionFilesDiff,
    RevisionOut,
)
from nasplan.engine.diff import diff_plans
from nasplan.renderers.plan_view import PlanView

router = APIRouter(prefix="/designs", tags=["designs"])

RevisionPath = Annotated[int, Path(ge=1, le=MAX_REVISION, description="Revision number.")]


def _permalink(design_id: str) -> str:
    return f"/d/{design_id}"


def saved_link_base(request: Request) -> str | None:
    """The permalink base kept by a revision this request saves (nasplan.designs.files.link_base):
    asked only when saving, never when a revision's files are rendered."""
    settings = request.app.state.settings
    return files.link_base(
        settings.public_url,
        request.url.scheme,
        request.headers.get("host"),
        files.allowed_hosts(settings.allowed_hosts),
    )


def _with_plan(body: dict[str, Any], plan_json: str) -> str:
    envelope = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return f'{envelope[:-1]},"plan":{plan_json}}}'


def _json(text: str, status: int = 200) -> Response:
    return Response(content=text, status_code=status, media_type="application/json")


def _error(exc: service.DesignError) -> JSONResponse:
    if isinstance(exc, service.InvalidReference):
        detail: Any = [{"loc": list(exc.field), "msg": str(exc), "type": "reference"}]
        return JSONResponse(status_code=422, content={"detail": detail})
    content: dict[str, Any] = {"detail": str(exc)}
    if isinstance(exc, service.StaleRevision):
        content["latest_revision"] = exc.latest
    return JSONResponse(status_code=exc.status, content=content)


def install_error_handler(app: Any) -> None:
    @app.exception_handler(service.DesignError)  # type: ignore[untyped-decorator]
    async def _handle(_: Request, exc: service.DesignError) -> JSONResponse:
        return _error(exc)


def _created(design: DesignRow, revision: int, tokens: service.Tokens) -> DesignCreated:
    return DesignCreated(
        id=design.id,
        name=design.name,
        revision=revision,
        permalink=_permalink(design.id),
        edit_token=tokens.edit,
        review_token=tokens.review,
    )


@router.post("", status_code=201, response_model=DesignCreated, responses=INPUT)
def create_design(
    kb: KbDep, session: SessionDep, body: DesignCreate, request: Request
) -> DesignCreated:
    """Save a design. The id is the permalink; the two tokens are shown only in this answer.
    A plan with `error` findings is saved only with `acknowledge_errors: true`."""
    saving = service.Saving(saved_link_base(request), body.acknowledge_errors)
    design, revision, tokens = service.create_design(
        session, kb, body.name, body.platform, dt.date.today(), saving
    )
    return _created(design, revision.number, tokens)


@router.get("/{design_id}", response_model=DesignOut, responses=NOT_FOUND)
async def read_design(design_id: str, request: Request) -> Response:
    """The design, its latest revision with its plan, and its review state."""
    # The most read page of a team's server: all of its database work in one trip to the thread
    # pool (a plain route with a session dependency takes three).
    state = request.app.state
    text = await run_in_threadpool(
        _read_design_text, state.engine, state.session_factory, design_id
    )
    return _json(text)


def _read_design_text(engine: Engine, factory: Callable[[], Session], design_id: str) -> str:
    # What this answer depends on changes only with a new revision or a new review, so one
    # small query says whether the answer built last time still holds.
    with engine.connect() as connection:
        version = service.design_version(connection, design_id)
    if version is None:
        raise service.not_found(design_id)
    key = (service.database_of(engine), design_id, *version)
    with _DESIGN_BODIES_LOCK:
        cached = _DESIGN_BODIES.get(key)
    if cached is not None:
        return cached
    with session_scope(factory) as session:
        body_text = _design_body(design_id, session)
    with _DESIGN_BODIES_LOCK:
        _DESIGN_BODIES[key] = body_text
    return body_text


# Answers of GET /designs/{id}, keyed by the database, the design and its version (latest
# revision id, number of reviews and latest review id): a write changes the key, so no answer is
# served stale, whichever process made the write.
_DESIGN_BODIES: LRUCache[tuple[str, str, int, int, int], str] = LRUCache(maxsize=256)
_DESIGN_BODIES_LOCK = threading.Lock()  # read on the thread pool; the cache is not thread-safe


def _design_body(design_id: str, session: Session) -> str:
    design = service.get_design(session, design_id)
    rows = service.revisions(session, design_id)
    grouped = reviews.reviews_of(session, [r.id for r in rows])
    summaries = [revision_summary(r, grouped[r.id]) for r in rows]
    approved = [s.number for s in summaries if s.status == "approved"]
    latest = summaries[-1]
    label = {
        "approved": f"approved r{latest.number}",
        "changes_requested": "changes requested",
        "in_review": "in review",
        "draft": "draft",
    }[latest.status]
    if latest.status != "approved" and approved:
        label += f" (r{approved[-1]} approved)"
    body = {
        "id": design.id,
        "name": design.name,
        "created_at": service.as_utc(design.created_at).isoformat().replace("+00:00", "Z"),
        "permalink": _permalink(design.id),
        "state": latest.status,
        "state_label": label,
        "approved_revision": approved[-1] if approved else None,
        "revisions": [s.model_dump(mode="json") for s in summaries],
    }
    latest_row = rows[-1]
    latest_text = _with_plan(
        revision_body(latest_row, grouped[latest_row.id]), latest_row.plan_json
    )
    envelope = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return f'{envelope[:-1]},"latest":{latest_text}}}'


@router.get("/{design_id}/revisions/{number}", response_model=RevisionOut, responses=NOT_FOUND)
def read_revision(design_id: str, number: RevisionPath, session: SessionDep) -> Response:
    """One revision exactly as saved: its plan and knowledge-base release never change."""
    revision = service.get_revision(session, design_id, number)
    kept = reviews.reviews_of(session, [revision.id])[revision.id]
    return _json(_with_plan(revision_body(revision, kept), revision.plan_json))


@router.post(
    "/{design_id}/revisions",
    status_code=201,
    response_model=RevisionOut,
    responses={
        **NOT_FOUND,
        **TOKEN,
        **INPUT,
        409: {"description": "base_revision is not the latest; `latest_revision` says which is"},
    },
)
def create_revision(
    design_id: str,
    kb: KbDep,
    session: SessionDep,
    body: RevisionCreate,
    request: Request,
    x_edit_token: Annotated[str | None, Header()] = None,
) -> Response:
    """Add a revision on top of the latest one (optimistic concurrency on base_revision).
    A plan with `error` findings is saved only with `acknowledge_errors: true`."""
    revision = service.add_revision(
        session,
        kb,
        design_id,
        x_edit_token,
        body.platform,
        body.base_revision,
        body.name,
        dt.date.today(),
        service.Saving(saved_link_base(request), body.acknowledge_errors),
    )
    return _json(_with_plan(revision_body(revision, []), revision.plan_json), 201)


@router.post(
    "/{design_id}/reviews",
    status_code=201,
    response_model=ReviewOut,
    responses={
        **NOT_FOUND,
        **TOKEN,
        **INPUT,
        409: {
            "description": "The revision is already approved (approvals are final), or its "
            "bundle is not the `bundle_sha256` you reviewed"
        },
    },
)
def create_review(
    design_id: str,
    session: SessionDep,
    body: ReviewCreate,
    x_review_token: Annotated[str | None, Header()] = None,
) -> ReviewOut:
    """Approve, request changes or comment on a revision, or comment on one item of its plan.

    An approval is of the whole revision: it records the digest of the revision's bundle and
    freezes it (later downloads return the approved bytes). A plan with `error` findings is
    approved only with `acknowledge_errors: true`."""
    row = reviews.add_review(session, design_id, x_review_token, body)
    return review_out(row, body.revision)


@router.get("/{design_id}/diff", response_model=RevisionDiff, responses=NOT_FOUND)
def read_diff(
    design_id: str,
    session: SessionDep,
    base: Annotated[int, Query(ge=1, le=MAX_REVISION, alias="from", description="Older revision")],
    head: Annotated[int, Query(ge=1, le=MAX_REVISION, alias="to", description="Newer revision")],
) -> RevisionDiff:
    """What changed between two saved revisions, item by item, with the rules behind it."""
    older = PlanView.model_validate_json(service.get_revision(session, design_id, base).plan_json)
    newer = PlanView.model_validate_json(service.get_revision(session, design_id, head).plan_json)
    return RevisionDiff(
        design_id=design_id, from_revision=base, to_revision=head, changes=diff_plans(older, newer)
    )


@router.get("/{design_id}/diff/files", response_model=RevisionFilesDiff, responses=NOT_FOUND)
def read_files_diff(
    design_id: str,
    session: SessionDep,
    base: Annotated[int, Query(ge=1, le=MAX_REVISION, alias="from", description="Older revision")],
    head: Annotated[int, Query(ge=1, le=MAX_REVISION, alias="to", description="Newer revision")],
) -> RevisionFilesDiff:
    """What changed in the files the two revisions' downloads give, as unified diffs."""
    older, newer = (
        file_diff.revision_files(session, design_id, service.get_revision(session, design_id, n))
        for n in (base, head)
    )
    found = file_diff.compare_files(older, newer)
    return RevisionFilesDiff(
        design_id=design_id,
        from_revision=base,
        to_revision=head,
        files=found.changed,
        stamp_only=found.stamp_only,
        not_compared=found.not_compared,
    )


@router.get("/{design_id}/drift", response_model=Drift, responses=NOT_FOUND)
def read_drift(design_id: str, kb: KbDep, session: SessionDep) -> Drift:
    """What would change if the latest revision were planned with today's knowledge base."""
    result = service.drift(session, kb, design_id, dt.date.today())
    return Drift(
        design_id=design_id,
        revision=result.revision.number,
        from_kb=result.revision.kb_version,
        to_kb=result.to_kb,
        from_as_of=result.from_as_of,
        to_as_of=result.to_as_of,
        changes=result.changes,
    )


_FILES: Responses = {
    **NOT_FOUND,
    200: {"content": {"application/zip": {}}, "description": "The zip."},
}


@router.get("/{design_id}/revisions/{number}/bundle", response_class=Response, responses=_FILES)
def read_bundle(design_id: str, number: RevisionPath, session: SessionDep) -> Response:
    """The config bundle of a saved revision, stamped with its design, revision and permalink.
    Once the revision is approved, exactly the bytes that were approved."""
    revision = service.get_revision(session, design_id, number)
    stored = service.approved_bundle(session, revision)
    if stored is not None:
        content, filename, digest = (
            stored.zip,
            files.zip_filename(stored.zip, revision.number),
            stored.digest,
        )
    else:
        rendered = files.render_revision_bundle(design_id, revision, None)
        content, filename, digest = rendered.zip, rendered.filename, rendered.digest
    return Response(
        content=content,
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "X-Bundle-SHA256": digest,
        },
    )


@router.get(
    "/{design_id}/revisions/{number}/runbook",
    response_class=Response,
    responses={
        **NOT_FOUND,
        200: {"content": {"text/markdown": {}, "text/html": {}}, "description": "The runbook."},
    },
)
def read_runbook(
    design_id: str,
    number: RevisionPath,
    session: SessionDep,
    format: Annotated[
        RunbookFormat, Query(description="md, or html for the printable page")
    ] = "md",
) -> Response:
    """The runbook of a saved revision (Markdown, or ?format=html to print): the one in its
    bundle, which opens with who approved it and when, or that nobody has yet."""
    revision = service.get_revision(session, design_id, number)
    stored = service.approved_bundle(session, revision)
    path = "RUNBOOK.html" if format == "html" else "RUNBOOK.md"
    if stored is not None:
        text = files.read_from_zip(stored.zip, path)
    else:
        text = files.render_revision_bundle(design_id, revision, None).files[path]
    media = "text/html" if format == "html" else "text/markdown"
    return Response(content=text, media_type=f"{media}; charset=utf-8")


@router.get("/{design_id}/export", response_model=DesignExport, responses=NOT_FOUND)
def export_design(design_id: str, session: SessionDep) -> DesignExport:
    """The whole design as one JSON document (no tokens), for backup or another site."""
    return transfer.export_design(session, design_id)


@router.post("/import", status_code=201, response_model=DesignCreated, responses=INPUT)
def import_design(
    kb: KbDep, session: SessionDep, document: DesignExport, request: Request
) -> DesignCreated:
    """Create a new design (new id, new tokens) from an exported document.

    Nothing in the document is trusted: each revision is planned again from its platform and
    date with this site's knowledge base (an imported plan that differs is kept as a record
    only), and imported reviews are history marked "imported, not verified" — the design is
    not approved here until a reviewer here approves it."""
    design, tokens = transfer.import_design(
        session, kb, document, dt.date.today(), saved_link_base(request)
    )
    return _created(design, len(document.revisions), tokens)


router.include_router(design_records.router)

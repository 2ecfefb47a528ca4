"""Config bundles and runbooks for an unsaved plan.

A saved design's revision serves its files from ``nasplan.designs.files`` instead: they depend
on what the revision stored, and an approved revision's bundle is the stored zip.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Response

from nasplan.api.deps import KbDep
from nasplan.domain.plan import Plan
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.engine.planner import make_plan
from nasplan.renderers.bundle import bundle_filename, render_bundle
from nasplan.renderers.common import BundleMeta
from nasplan.renderers.runbook import render_runbook_html, render_runbook_markdown

router = APIRouter(prefix="/plans", tags=["bundles"])

RunbookFormat = Literal["md", "html"]

_EXAMPLES: dict[str, Any] = {
    "tr3322": {"summary": "TR-3322 lab platform", "value": EXAMPLE_PLATFORM},
}
_ERRORS: dict[int | str, dict[str, Any]] = {
    422: {"description": "The body is not a well-formed platform; `detail` names each field."},
    413: {"description": "The body is larger than the limit."},
}


def bundle_response(plan: Plan, meta: BundleMeta | None = None) -> Response:
    meta = meta or BundleMeta()
    return Response(
        content=render_bundle(plan, meta),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{bundle_filename(plan, meta)}"'},
    )


def runbook_response(
    plan: Plan, format: RunbookFormat = "md", meta: BundleMeta | None = None
) -> Response:
    if format == "html":
        return Response(
            content=render_runbook_html(plan, meta), media_type="text/html; charset=utf-8"
        )
    return Response(
        content=render_runbook_markdown(plan, meta), media_type="text/markdown; charset=utf-8"
    )


@router.post(
    "/bundle",
    response_class=Response,
    responses={**_ERRORS, 200: {"content": {"application/zip": {}}, "description": "The zip."}},
)
def plan_bundle(
    kb: KbDep, platform: Annotated[Platform, Body(openapi_examples=_EXAMPLES)]
) -> Response:
    """Every file the teams need to carry the plan out, laid out by who applies it."""
    return bundle_response(make_plan(kb, platform))


@router.post(
    "/runbook",
    response_class=Response,
    responses={
        **_ERRORS,
        200: {"content": {"text/markdown": {}, "text/html": {}}, "description": "The runbook."},
    },
)
def plan_runbook(
    kb: KbDep,
    platform: Annotated[Platform, Body(openapi_examples=_EXAMPLES)],
    format: Annotated[
        RunbookFormat, Query(description="md, or html for the printable page")
    ] = "md",
) -> Response:
    """The runbook: ordered phases, each step with command, why, expected result and risk."""
    return runbook_response(make_plan(kb, platform), format)

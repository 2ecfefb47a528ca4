"""Config bundles and runbooks for an unsaved plan.

A saved design's revision serves its files from ``nasplan.designs.files`` instead: they depend
on what the revision stored, and an approved revision's bundle is the stored zip.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Annotated, Any, Literal

from cachetools import LRUCache
from fastapi import APIRouter, Body, Query, Response

from nasplan.api.deps import KbDep
from nasplan.domain.plan import Plan
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
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


# An unsaved plan's files are a pure function of knowledge base, platform and date: each is
# rendered once and kept (with its media type and file name) for the platforms asked most
# recently, as the wizard's download buttons and a team's retries ask for the same ones again.
_Rendered = tuple[bytes, str, dict[str, str]]
_RENDERED: LRUCache[tuple[int, str, dt.date, str], _Rendered] = LRUCache(maxsize=64)
_RENDERED_LOCK = threading.Lock()  # these routes run on the thread pool


def _render(plan: Plan, kind: str) -> _Rendered:
    if kind == "zip":
        name = bundle_filename(plan, BundleMeta())
        return (
            render_bundle(plan),
            "application/zip",
            {"Content-Disposition": f'attachment; filename="{name}"'},
        )
    if kind == "html":
        return render_runbook_html(plan).encode(), "text/html; charset=utf-8", {}
    return render_runbook_markdown(plan).encode(), "text/markdown; charset=utf-8", {}


def _files_response(kb: KnowledgeBase, platform: Platform, kind: str) -> Response:
    key = (id(kb), platform.model_dump_json(), dt.date.today(), kind)
    with _RENDERED_LOCK:
        rendered = _RENDERED.get(key)
    if rendered is None:
        rendered = _render(make_plan(kb, platform, key[2]), kind)
        with _RENDERED_LOCK:
            _RENDERED[key] = rendered
    content, media_type, headers = rendered
    return Response(content=content, media_type=media_type, headers=headers)


@router.post(
    "/bundle",
    response_class=Response,
    responses={**_ERRORS, 200: {"content": {"application/zip": {}}, "description": "The zip."}},
)
def plan_bundle(
    kb: KbDep, platform: Annotated[Platform, Body(openapi_examples=_EXAMPLES)]
) -> Response:
    """Every file the teams need to carry the plan out, laid out by who applies it."""
    return _files_response(kb, platform, "zip")


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
    return _files_response(kb, platform, format)

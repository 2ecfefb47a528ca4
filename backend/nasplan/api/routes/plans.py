"""Plans for an unsaved platform, and comparing the advice of two dates."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Body, Response

from nasplan.api.deps import KbDep
from nasplan.api.schemas import CompareRequest, CompareResponse
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.engine.diff import diff_plans
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.plan_view import PlanView, plan_view

router = APIRouter(prefix="/plans", tags=["plans"])

_EXAMPLES: dict[str, Any] = {
    "tr3322": {
        "summary": "TR-3322 lab platform (Solaris 9 MU5, Oracle9i, NetApp FAS940)",
        "value": EXAMPLE_PLATFORM,
    },
    "as_of_2005": {
        "summary": "The same platform as advised in 2005 (minra on)",
        "value": {**EXAMPLE_PLATFORM, "as_of": "2005-06-01"},
    },
}

_ERRORS: dict[int | str, dict[str, Any]] = {
    422: {"description": "The body is not a well-formed platform; `detail` names each field."},
    413: {"description": "The body is larger than the limit."},
}


@lru_cache(maxsize=512)
def _plan_json(kb: KnowledgeBase, platform_json: str, today: dt.date) -> bytes:
    """A plan is a pure function of knowledge base, platform and date, so the serialised
    answer is kept for the platforms asked most recently (the wizard re-plans the same answers
    as you step through it, time travel goes back and forth, permalinks are re-opened)."""
    plan = make_plan(kb, Platform.model_validate_json(platform_json), today)
    return plan_view(plan).model_dump_json().encode()


# async: planning is CPU-bound and short; running it on the event loop avoids thread hand-offs.
@router.post("", response_model=PlanView, responses=_ERRORS)
async def create_plan(
    kb: KbDep, platform: Annotated[Platform, Body(openapi_examples=_EXAMPLES)]
) -> Response:
    body = _plan_json(kb, platform.model_dump_json(), dt.date.today())
    return Response(content=body, media_type="application/json")


@router.post("/compare", response_model=CompareResponse, responses=_ERRORS)
def compare_dates(kb: KbDep, request: CompareRequest) -> CompareResponse:
    earlier = make_plan(kb, request.platform.model_copy(update={"as_of": request.from_as_of}))
    later = make_plan(kb, request.platform.model_copy(update={"as_of": request.to_as_of}))
    return CompareResponse(
        from_as_of=earlier.as_of,
        to_as_of=later.as_of,
        kb_version=kb.version,
        changes=diff_plans(earlier, later, include_platform=False, include_plan=False),
    )

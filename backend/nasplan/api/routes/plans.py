"""Plans for an unsaved platform, and comparing the advice of two dates."""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Any, Literal

from cachetools import LRUCache
from fastapi import APIRouter, Body, Query, Response
from pydantic import ValidationError

from nasplan.api.deps import KbDep
from nasplan.api.errors import validation_422
from nasplan.api.schemas import (
    CompareRequest,
    CompareResponse,
    ExpectationPair,
    GainSource,
    MeasuredGainOut,
    NotYetReleasedOut,
    WhatIfRequest,
    WhatIfResponse,
    WhatIfVariantOut,
)
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.engine.diff import diff_plans
from nasplan.engine.lifecycle import not_yet_released
from nasplan.engine.planner import make_plan
from nasplan.engine.what_if import what_if
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import MeasuredGain
from nasplan.knowledge.merge import deep_merge
from nasplan.knowledge.resolve import resolve
from nasplan.renderers.plan_view import PlanView, plan_view

router = APIRouter(prefix="/plans", tags=["plans"])

EXPLANATIONS_LINK = '</api/v1/knowledge/explanations>; rel="describedby"'

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


# A plan is a pure function of knowledge base, platform, date and form, so the serialised answer
# is kept for the platforms asked most recently (the wizard re-plans the same answers as you step
# through it, time travel goes back and forth, permalinks are re-opened).
_PLAN_CACHE: LRUCache[tuple[int, str, dt.date, bool], bytes] = LRUCache(maxsize=512)

Explain = Literal["ids", "full"]


def plan_json(kb: KnowledgeBase, platform: Platform, today: dt.date, explain: Explain) -> bytes:
    """The plan as the API answers it. ``ids``: items name their rules and ``rules`` is left
    empty; the explanations are served once per knowledge base by GET
    /api/v1/knowledge/explanations. ``full``: every explanation inline, as saved designs hold.
    """
    key = (id(kb), platform.model_dump_json(), today, explain == "full")
    cached = _PLAN_CACHE.get(key)
    if cached is None:
        view = plan_view(make_plan(kb, platform, today))
        if explain == "ids":
            view = view.model_copy(update={"rules": {}})
        cached = _PLAN_CACHE[key] = view.model_dump_json().encode()
    return cached


# async: planning is CPU-bound and short; running it on the event loop avoids thread hand-offs.
@router.post("", response_model=PlanView, responses=_ERRORS)
async def create_plan(
    kb: KbDep,
    platform: Annotated[Platform, Body(openapi_examples=_EXAMPLES)],
    explain: Annotated[
        Explain,
        Query(
            description="`ids` (default): `rules` is empty and each item names its rule ids; "
            "fetch the explanations once from GET /api/v1/knowledge/explanations (the `Link` "
            "header points there). `full`: every rule's explanation inline."
        ),
    ] = "ids",
) -> Response:
    body = plan_json(kb, platform, dt.date.today(), explain)
    headers = {} if explain == "full" else {"Link": EXPLANATIONS_LINK}
    return Response(content=body, media_type="application/json", headers=headers)


@router.post("/compare", response_model=CompareResponse, responses=_ERRORS)
def compare_dates(kb: KbDep, request: CompareRequest) -> CompareResponse:
    at_first = request.platform.model_copy(update={"as_of": request.from_as_of})
    earlier = make_plan(kb, at_first)
    later = make_plan(kb, request.platform.model_copy(update={"as_of": request.to_as_of}))
    missing = not_yet_released(kb, resolve(kb, at_first))
    return CompareResponse(
        from_as_of=earlier.as_of,
        to_as_of=later.as_of,
        kb_version=kb.version,
        changes=diff_plans(earlier, later, include_platform=False, include_plan=False),
        not_yet_released=[NotYetReleasedOut(label=m.label, available=m.available) for m in missing],
    )


# The model figures what-if shows side by side.
_SIDE_BY_SIDE = (
    "planned_client",
    "planned_scan_mb_s",
    "single_stream_mb_s",
    "rtt_us",
    "aggregate_ceiling_mb_s",
    "nfs_overhead_8k_us",
    "random_8k_reads_ceiling",
    "tcp_window_bytes",
    "bottleneck",
)


@router.post(
    "/what-if",
    response_model=WhatIfResponse,
    responses={
        **_ERRORS,
        422: {
            "description": "The base or a variant is not a well-formed platform; `detail` "
            "names the field, e.g. body.variants.0.patch.network.nic_gbps."
        },
    },
)
def plan_what_if(kb: KbDep, request: WhatIfRequest) -> Response:
    """Plan a base platform and up to four variants of it (a patch of answers or a whole
    platform): for each variant its plan, what changes item by item, the model's expectations
    side by side, and the gains the sources measured for changes of that kind."""
    platforms: list[tuple[str, Platform]] = []
    problems: list[Any] = []
    base_data = request.base.model_dump(mode="json")
    for index, variant in enumerate(request.variants):
        if variant.platform is not None:
            platforms.append((variant.label, variant.platform))
            continue
        assert variant.patch is not None
        try:
            merged = deep_merge(base_data, variant.patch)
            platforms.append((variant.label, Platform.model_validate_json(json.dumps(merged))))
        except ValidationError as exc:
            where = ("body", "variants", index, "patch")
            problems += [{**e, "loc": (*where, *e["loc"])} for e in exc.errors()]
    if problems:
        return validation_422(problems)
    result = what_if(kb, request.base, platforms, dt.date.today())
    base_view = plan_view(result.base)
    response = WhatIfResponse(
        kb_version=kb.version,
        base=base_view,
        variants=[
            WhatIfVariantOut(
                label=outcome.label,
                plan=plan_view(outcome.plan),
                changes=outcome.changes,
                expectations=[
                    ExpectationPair(
                        field=name,
                        base=getattr(result.base.expectations, name),
                        variant=getattr(outcome.plan.expectations, name),
                    )
                    for name in _SIDE_BY_SIDE
                ],
                measured_gains=[_gain(kb, found.gain, found.reverse) for found in outcome.gains],
            )
            for outcome in result.variants
        ],
    )
    return Response(content=response.model_dump_json(), media_type="application/json")


def _gain(kb: KnowledgeBase, gain: MeasuredGain, reverse: bool) -> MeasuredGainOut:
    source = kb.sources[gain.source.id]
    return MeasuredGainOut(
        id=gain.id,
        change=gain.change,
        figure=gain.figure,
        measured_under=gain.measured_under,
        source=GainSource(
            id=source.id,
            title=source.title,
            locator=gain.source.locator,
            published=gain.source.edition or source.published,
        ),
        fact=gain.fact,
        reverse=reverse,
    )

"""The knowledge base: rules, sources, facts, conflicts, and each rule's history."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Query, Response

from nasplan.api.deps import KbDep
from nasplan.api.schemas import (
    HistoryEntry,
    KnowledgeIndex,
    RuleDetail,
    RuleExplanations,
    RuleSummary,
)
from nasplan.engine.planner import explain
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.schema import Rule

router = APIRouter(prefix="/knowledge", tags=["knowledge"])


def _summary(kb: KnowledgeBase, rule: Rule) -> RuleSummary:
    return RuleSummary(
        id=rule.id,
        title=rule.title,
        category=rule.category,
        severity=rule.severity,
        confidence=rule.confidence,
        effective_from=rule.effective_from,
        date_confidence=rule.date_confidence,
        retired_on=rule.retired_on,
        supersedes=rule.supersedes,
        superseded_by=kb.superseded_by.get(rule.id, []),
        sources=list(dict.fromkeys(ref.id for ref in rule.sources)),
        when=rule.when,
    )


def _matches(rule: Rule, text: str) -> bool:
    haystack = " ".join([rule.id, rule.title, rule.rationale]).lower()
    return all(word in haystack for word in text.lower().split())


@router.get("", response_model=KnowledgeIndex)
def knowledge_index(
    kb: KbDep,
    q: Annotated[
        str | None, Query(max_length=200, description="Words in id, title or rationale")
    ] = None,
    category: Annotated[str | None, Query(max_length=40)] = None,
    source: Annotated[str | None, Query(max_length=40, description="A source id")] = None,
) -> KnowledgeIndex:
    rules = [
        r
        for r in kb.rules.values()
        if (q is None or _matches(r, q))
        and (category is None or r.category == category)
        and (source is None or any(ref.id == source for ref in r.sources))
    ]
    return KnowledgeIndex(
        kb_version=kb.version,
        released=kb.release.released,
        summary=kb.release.summary,
        changelog=kb.changelog,
        rules=[_summary(kb, r) for r in sorted(rules, key=lambda r: (r.category, r.id))],
        sources=list(kb.sources.values()),
        facts=kb.facts,
        conflicts=kb.conflicts,
    )


def _chain(kb: KnowledgeBase, rule_id: str) -> list[str]:
    """All rules linked to this one by supersession, in either direction."""
    seen: set[str] = set()
    stack = [rule_id]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        stack.extend(kb.rules[current].supersedes)
        stack.extend(kb.superseded_by.get(current, []))
    return sorted(seen, key=lambda r: (kb.rules[r].effective_from, r))


@router.get(
    "/rules/{rule_id}",
    response_model=RuleDetail,
    responses={404: {"description": "No rule with this id"}},
)
def rule_detail(rule_id: str, kb: KbDep) -> RuleDetail:
    rule = kb.rules.get(rule_id)
    if rule is None:
        raise HTTPException(status_code=404, detail=f"no rule {rule_id!r}")
    history = [
        HistoryEntry(
            id=r.id,
            title=r.title,
            effective_from=r.effective_from,
            retired_on=r.retired_on,
            replaced_by=kb.superseded_by.get(r.id, []),
        )
        for r in (kb.rules[i] for i in _chain(kb, rule_id))
    ]
    return RuleDetail(
        **rule.model_dump(),
        superseded_by=kb.superseded_by.get(rule_id, []),
        history=history,
        cited_sources=[kb.sources[s] for s in dict.fromkeys(ref.id for ref in rule.sources)],
        conflicts=[
            c for c in kb.conflicts if any(rule_id in side.rules for side in (c.winner, *c.losers))
        ],
        facts=[f for f in kb.facts if rule_id in f.rules],
    )


@lru_cache(maxsize=8)
def _explanations(kb: KnowledgeBase) -> tuple[bytes, str]:
    body = RuleExplanations(
        kb_version=kb.version, rules={rule_id: explain(kb, rule_id) for rule_id in kb.rules}
    )
    data = body.model_dump_json().encode()
    return data, f'"{hashlib.sha256(data).hexdigest()[:32]}"'


@router.get(
    "/explanations",
    response_model=RuleExplanations,
    responses={304: {"description": "The copy named by If-None-Match is current."}},
)
def rule_explanations(kb: KbDep, if_none_match: Annotated[str | None, Header()] = None) -> Response:
    """Every rule's explanation (title, rationale, sources, dates) by id: what a plan's items
    name. It changes only with the knowledge base, so it carries an ETag; plans reference it
    instead of repeating it."""
    data, etag = _explanations(kb)
    headers = {"ETag": etag, "Cache-Control": "public, max-age=300, must-revalidate"}
    if if_none_match is not None and etag in {t.strip() for t in if_none_match.split(",")}:
        return Response(status_code=304, headers=headers)
    return Response(content=data, media_type="application/json", headers=headers)

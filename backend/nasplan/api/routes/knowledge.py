"""The knowledge base: rules, sources, facts, conflicts, and each rule's history."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query

from nasplan.api.deps import KbDep
from nasplan.api.schemas import HistoryEntry, KnowledgeIndex, RuleDetail, RuleSummary
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

"""Which rules apply to a platform on a date, and which of them newer advice has replaced."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache

from nasplan.engine.conditions import Predicate, compile_conditions
from nasplan.engine.index import rule_index
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import ResolvedPlatform
from nasplan.knowledge.schema import Rule


@dataclass(frozen=True)
class Evaluation:
    fired: list[Rule]
    # old rule id -> ids of the applicable rules that replace it on this platform
    superseded: dict[str, list[str]]


@lru_cache(maxsize=8)
def compiled_predicates(kb: KnowledgeBase) -> dict[str, Predicate]:
    return {rule_id: compile_conditions(kb, rule.when) for rule_id, rule in kb.rules.items()}


def in_effect(rule: Rule, as_of: dt.date) -> bool:
    return rule.effective_from <= as_of and (rule.retired_on is None or as_of < rule.retired_on)


def evaluate(kb: KnowledgeBase, resolved: ResolvedPlatform) -> Evaluation:
    """The rules that apply: only the index's candidates are evaluated, in knowledge-base
    order, so the cost follows the rules that may apply, not the size of the knowledge base."""
    predicates = compiled_predicates(kb)
    rules = kb.rules
    applicable = [
        rules[rule_id]
        for rule_id in rule_index(kb).candidates(resolved)
        if in_effect(rules[rule_id], resolved.as_of) and predicates[rule_id](resolved)
    ]
    applicable_ids = {rule.id for rule in applicable}
    superseded: dict[str, list[str]] = {}
    for rule in applicable:
        replacements = [r for r in kb.superseded_by.get(rule.id, []) if r in applicable_ids]
        if replacements:
            superseded[rule.id] = replacements
    return Evaluation(
        fired=[rule for rule in applicable if rule.id not in superseded], superseded=superseded
    )

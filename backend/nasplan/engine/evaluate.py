"""Which rules apply to a platform on a date, and which of them newer advice has replaced."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache

from cachetools import LRUCache

from nasplan.engine.conditions import FIELD_READERS, Predicate, compile_conditions, fields_set
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


Reader = Callable[[ResolvedPlatform], Hashable]
_MEMO_LOCK = threading.Lock()


@lru_cache(maxsize=8)
def _memo(kb: KnowledgeBase) -> tuple[tuple[Reader, ...], LRUCache[Hashable, Evaluation]]:
    """What the rules of ``kb`` read of a platform, and the evaluations keyed on it."""
    read = sorted(set().union(*(fields_set(rule.when) for rule in kb.rules.values())))
    return tuple(FIELD_READERS[name] for name in read), LRUCache(maxsize=4096)


def in_effect(rule: Rule, as_of: dt.date) -> bool:
    return rule.effective_from <= as_of and (rule.retired_on is None or as_of < rule.retired_on)


def evaluate(kb: KnowledgeBase, resolved: ResolvedPlatform) -> Evaluation:
    """The rules that apply, on the platform's date. Platforms that differ only in what no
    condition reads (a host's memory, its names) share one evaluation."""
    readers, memo = _memo(kb)
    key = (resolved.as_of, *(read(resolved) for read in readers))
    with _MEMO_LOCK:  # plans are also made on the thread pool (compare, what-if, designs)
        found = memo.get(key)
    if found is None:
        found = evaluate_uncached(kb, resolved)
        with _MEMO_LOCK:
            memo[key] = found
    return found


def evaluate_uncached(kb: KnowledgeBase, resolved: ResolvedPlatform) -> Evaluation:
    """Only the index's candidates are evaluated, in knowledge-base order, so the cost follows
    the rules that may apply, not the size of the knowledge base."""
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

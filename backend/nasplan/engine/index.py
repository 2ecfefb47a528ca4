"""An index of rules by the platform fields their conditions read.

Most rules are silent for a given platform, and most say so in one discrete field: the OS, the
OS release, the filer family, Direct NFS or not, an exact memory size. Each rule is filed under
the most selective such condition it has (the fewest accepted values for the size of the field's
domain); a plan then looks up the platform's value in each field and evaluates only the rules
found there, plus the few whose conditions give no such key. The index only narrows: every
candidate still runs its full predicate, so a plan is the same with or without it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, get_args, get_origin

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from nasplan.engine.conditions import FIELD_READERS, Reader
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.conditions import CONDITION_FIELDS, ConditionField, Conditions, IntRange
from nasplan.knowledge.cross_check import os_release_spec
from nasplan.knowledge.resolve import ResolvedPlatform
from nasplan.knowledge.versions import compile_range

# Fields whose values are not enumerable (exact ints, versions): an exact key among them is
# taken to match about one platform in this many.
_OPEN_DOMAIN = 50


def _type_values(annotation: object) -> int:
    """How many values a field's type allows: the members of its Literal, 2 for a flag."""
    if annotation is bool:
        return 2
    if get_origin(annotation) is Literal:
        return len(get_args(annotation))
    inner = [arg for arg in get_args(annotation) if arg is not type(None)]
    return max((_type_values(arg) for arg in inner), default=_OPEN_DOMAIN)


def _domain(kb: KnowledgeBase, name: str, spec: ConditionField) -> int:
    if isinstance(spec.domain, int):
        return spec.domain
    if spec.domain == "os":
        return len(kb.os)
    if spec.domain == "os_releases":
        return sum(len(entry.releases) for entry in kb.os.values())
    if spec.domain == "filer_families":
        return sum(len(vendor.families) for vendor in kb.filers.vendors.values())
    if spec.kind in ("int_range", "version_range"):
        return _OPEN_DOMAIN
    return max(1, _type_values(Conditions.model_fields[name].annotation))


def _exact_version(spec_text: str) -> Version | None:
    """The one version a range accepts when it is a single `==V` (no wildcard), else None."""
    clauses = list(SpecifierSet(spec_text))
    if len(clauses) != 1 or clauses[0].operator != "==" or "*" in clauses[0].version:
        return None
    try:
        return Version(clauses[0].version)
    except InvalidVersion:
        return None


def _exact_int(bounds: IntRange) -> int | None:
    if bounds.min is None or bounds.min != bounds.max:
        return None
    return bounds.min


def _accepted(
    kb: KnowledgeBase, cond: Conditions, spec: ConditionField, wanted: object
) -> frozenset[Hashable] | None:
    """The values of one condition as an index key; None when they cannot be listed."""
    if spec.kind == "one_of":
        assert isinstance(wanted, list)
        return frozenset(wanted)
    if spec.kind == "equals":
        assert isinstance(wanted, Hashable)
        return frozenset([wanted])
    if spec.kind == "int_range":
        assert isinstance(wanted, IntRange)
        exact_int = _exact_int(wanted)
        return None if exact_int is None else frozenset([exact_int])
    assert isinstance(wanted, str)
    if spec.kind == "os_release_range":
        if cond.os is None or len(cond.os) != 1:
            return None
        accepts = compile_range(os_release_spec(kb, cond.os[0], wanted))
        keys = (Version(rel.key) for rel in kb.os[cond.os[0]].releases)
        return frozenset(key for key in keys if accepts(key))
    exact = _exact_version(wanted)
    return None if exact is None else frozenset([exact])


def keys_of(kb: KnowledgeBase, cond: Conditions) -> dict[str, frozenset[Hashable]]:
    """Each indexable condition of a rule: the field and the values it accepts (a superset of
    what the full predicate accepts for that field)."""
    keys: dict[str, frozenset[Hashable]] = {}
    for name, spec in CONDITION_FIELDS.items():
        wanted = getattr(cond, name)
        if wanted is not None:
            accepted = _accepted(kb, cond, spec, wanted)
            if accepted is not None:
                keys[name] = accepted
    return keys


@dataclass(frozen=True)
class RuleIndex:
    # field -> platform value -> positions (in kb.rules order) of the rules filed there
    buckets: dict[str, dict[Hashable, tuple[int, ...]]]
    readers: dict[str, Reader]
    unkeyed: tuple[int, ...]
    rule_ids: tuple[str, ...]

    def candidates(self, resolved: ResolvedPlatform) -> list[str]:
        """The ids of the rules that may apply, in knowledge-base order."""
        found: list[int] = list(self.unkeyed)
        for name, bucket in self.buckets.items():
            hit = bucket.get(self.readers[name](resolved))
            if hit:
                found.extend(hit)
        found.sort()
        return [self.rule_ids[i] for i in found]


@lru_cache(maxsize=8)
def rule_index(kb: KnowledgeBase) -> RuleIndex:
    domains = {name: _domain(kb, name, spec) for name, spec in CONDITION_FIELDS.items()}
    grouped: dict[str, dict[Hashable, list[int]]] = defaultdict(lambda: defaultdict(list))
    unkeyed: list[int] = []
    rule_ids = tuple(kb.rules)
    for position, rule in enumerate(kb.rules.values()):
        keys = keys_of(kb, rule.when)
        if not keys:
            unkeyed.append(position)
            continue
        name = min(keys, key=lambda n: len(keys[n]) / domains[n])
        for value in keys[name]:
            grouped[name][value].append(position)
    return RuleIndex(
        buckets={n: {v: tuple(p) for v, p in by.items()} for n, by in grouped.items()},
        readers={n: FIELD_READERS[n] for n in grouped},
        unkeyed=tuple(unkeyed),
        rule_ids=rule_ids,
    )

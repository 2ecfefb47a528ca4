"""Compile a rule's ``when`` block into a predicate over a resolved platform.

Compilation happens once per knowledge base; a plan then costs a handful of comparisons per
rule. What each field reads and how it compares come from its declaration in
``knowledge/schema.py`` (``CONDITION_FIELDS``): this module knows the kinds, not the fields.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from operator import attrgetter

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.conditions import (
    CONDITION_FIELDS,
    NESTED_CONDITIONS,
    ConditionField,
    Conditions,
    IntRange,
)
from nasplan.knowledge.cross_check import os_release_spec
from nasplan.knowledge.resolve import ResolvedPlatform
from nasplan.knowledge.versions import compile_range

Predicate = Callable[[ResolvedPlatform], bool]
Reader = Callable[[ResolvedPlatform], Hashable]


def reader(spec: ConditionField) -> Reader:
    read: Reader = attrgetter(spec.reads)
    return read


# Every condition field -> the value a predicate compiled from it depends on. Platforms that
# agree on these values for every field some rule sets are indistinguishable to the rules.
FIELD_READERS: dict[str, Reader] = {name: reader(spec) for name, spec in CONDITION_FIELDS.items()}


def fields_set(cond: Conditions) -> set[str]:
    """The condition fields a rule's ``when`` sets, in its alternatives too."""
    names = {name for name in CONDITION_FIELDS if getattr(cond, name) is not None}
    for nested in NESTED_CONDITIONS:
        for sub in getattr(cond, nested) or []:
            names |= fields_set(sub)
    return names


def _within(bounds: IntRange, value: int) -> bool:
    return (bounds.min is None or value >= bounds.min) and (
        bounds.max is None or value <= bounds.max
    )


def _compile_field(
    kb: KnowledgeBase, cond: Conditions, name: str, spec: ConditionField, wanted: object
) -> Predicate:
    read = FIELD_READERS[name]
    if spec.kind == "one_of":
        assert isinstance(wanted, list)
        accepted = frozenset(wanted)
        return lambda r: read(r) in accepted
    if spec.kind == "equals":
        return lambda r: read(r) == wanted
    if spec.kind == "int_range":
        assert isinstance(wanted, IntRange)
        bounds = wanted

        def in_bounds(r: ResolvedPlatform) -> bool:
            value = read(r)
            return isinstance(value, int) and _within(bounds, value)

        return in_bounds
    assert isinstance(wanted, str)
    if spec.kind == "os_release_range":
        assert cond.os is not None  # the schema requires exactly one os beside os_release
        in_range = compile_range(os_release_spec(kb, cond.os[0], wanted))
    else:
        in_range = compile_range(SpecifierSet(wanted))

    def in_versions(r: ResolvedPlatform) -> bool:
        value = read(r)
        return isinstance(value, Version) and in_range(value)

    return in_versions


def compile_conditions(kb: KnowledgeBase, cond: Conditions) -> Predicate:
    checks: list[Predicate] = [
        _compile_field(kb, cond, name, spec, getattr(cond, name))
        for name, spec in CONDITION_FIELDS.items()
        if getattr(cond, name) is not None
    ]
    if cond.any_of:
        alternatives = [compile_conditions(kb, sub) for sub in cond.any_of]
        checks.append(lambda r: any(p(r) for p in alternatives))
    if cond.none_of:
        excluded = [compile_conditions(kb, sub) for sub in cond.none_of]
        checks.append(lambda r: not any(p(r) for p in excluded))
    return lambda r: all(check(r) for check in checks)

"""Compile a rule's ``when`` block into a predicate over a resolved platform.

Compilation happens once per knowledge base; a plan then costs a handful of comparisons per
rule.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from packaging.specifiers import SpecifierSet

from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.cross_check import os_release_spec
from nasplan.knowledge.resolve import ResolvedPlatform
from nasplan.knowledge.schema import Conditions, IntRange
from nasplan.knowledge.versions import compile_range

Predicate = Callable[[ResolvedPlatform], bool]


def _within(bounds: IntRange, value: int) -> bool:
    return (bounds.min is None or value >= bounds.min) and (
        bounds.max is None or value <= bounds.max
    )


# Condition field -> what it reads on the platform: built once, not per rule.
_FLAG_READERS: tuple[tuple[str, Callable[[ResolvedPlatform], object]], ...] = (
    ("bits", lambda r: r.platform.oracle.bits),
    ("rac", lambda r: r.platform.oracle.rac),
    ("dnfs", lambda r: r.platform.oracle.dnfs),
    ("archivelog", lambda r: r.platform.oracle.archivelog),
    ("jumbo_frames", lambda r: r.platform.network.jumbo_frames),
    ("dedicated_storage_network", lambda r: r.platform.network.dedicated_storage_network),
    ("oracle_home", lambda r: r.platform.layout.oracle_home),
    ("volumes", lambda r: r.platform.layout.volumes),
)
_RANGE_READERS: tuple[tuple[str, Callable[[ResolvedPlatform], int | None]], ...] = (
    ("nic_gbps", lambda r: r.platform.network.nic_gbps),
    ("nic_count", lambda r: r.platform.network.nic_count),
    ("switch_hops", lambda r: r.platform.network.switch_hops),
    ("router_hops", lambda r: r.platform.network.router_hops),
    ("memory_gb", lambda r: r.platform.host.memory_gb),
    ("instances", lambda r: r.platform.oracle.instances),
)


# Every condition field -> the value a predicate compiled from it depends on. Platforms that
# agree on these values for every field some rule sets are indistinguishable to the rules.
FIELD_READERS: dict[str, Callable[[ResolvedPlatform], Hashable]] = {
    "os": lambda r: r.platform.host.os,
    "os_release": lambda r: (r.platform.host.os, r.os_key),
    "arch": lambda r: r.platform.host.arch,
    "oracle": lambda r: r.oracle_version,
    "filer_family": lambda r: r.filer_family.id,
    "filer_vendor": lambda r: r.platform.filer.vendor,
    "filer_release": lambda r: r.filer_version,
    "nic_driver": lambda r: r.nic_driver,
    "workload": lambda r: r.platform.oracle.workload,
    "nfs_version": lambda r: r.platform.oracle.nfs_version,
    "switch": lambda r: r.platform.network.switch,
    **dict(_FLAG_READERS),
    **dict(_RANGE_READERS),
}
# Not fields of their own: they combine the others.
NESTED_FIELDS = ("any_of", "none_of")


def fields_set(cond: Conditions) -> set[str]:
    """The condition fields a rule's ``when`` sets, in its alternatives too."""
    names = {
        name
        for name in Conditions.model_fields
        if name not in NESTED_FIELDS and getattr(cond, name) is not None
    }
    for nested in (cond.any_of or [], cond.none_of or []):
        for sub in nested:
            names |= fields_set(sub)
    return names


def compile_conditions(kb: KnowledgeBase, cond: Conditions) -> Predicate:
    checks: list[Predicate] = []
    add = checks.append

    if cond.os is not None:
        os_names = frozenset(cond.os)
        add(lambda r: r.platform.host.os in os_names)
    if cond.os_release is not None and cond.os:
        os_in_range = compile_range(os_release_spec(kb, cond.os[0], cond.os_release))
        add(lambda r: os_in_range(r.os_key))
    if cond.arch is not None:
        arches = frozenset(cond.arch)
        add(lambda r: r.platform.host.arch in arches)
    if cond.oracle is not None:
        oracle_in_range = compile_range(SpecifierSet(cond.oracle))
        add(lambda r: oracle_in_range(r.oracle_version))
    if cond.filer_family is not None:
        families = frozenset(cond.filer_family)
        add(lambda r: r.filer_family.id in families)
    if cond.filer_vendor is not None:
        vendors = frozenset(cond.filer_vendor)
        add(lambda r: r.platform.filer.vendor in vendors)
    if cond.filer_release is not None:
        filer_in_range = compile_range(SpecifierSet(cond.filer_release))
        add(lambda r: r.filer_version is not None and filer_in_range(r.filer_version))
    if cond.nic_driver is not None:
        drivers = frozenset(cond.nic_driver)
        add(lambda r: r.nic_driver in drivers)
    if cond.workload is not None:
        workloads = frozenset(cond.workload)
        add(lambda r: r.platform.oracle.workload in workloads)
    if cond.nfs_version is not None:
        versions = frozenset(cond.nfs_version)
        add(lambda r: r.platform.oracle.nfs_version in versions)
    if cond.switch is not None:
        switches = frozenset(cond.switch)
        add(lambda r: r.platform.network.switch in switches)

    for name, read in _FLAG_READERS:
        wanted = getattr(cond, name)
        if wanted is not None:

            def equals(
                r: ResolvedPlatform,
                wanted: object = wanted,
                read: Callable[[ResolvedPlatform], object] = read,
            ) -> bool:
                return read(r) == wanted

            add(equals)

    for name, read_int in _RANGE_READERS:
        bounds = getattr(cond, name)
        if bounds is not None:

            def in_bounds(
                r: ResolvedPlatform,
                bounds: IntRange = bounds,
                read_int: Callable[[ResolvedPlatform], int | None] = read_int,
            ) -> bool:
                value = read_int(r)
                return value is not None and _within(bounds, value)

            add(in_bounds)

    if cond.any_of:
        alternatives = [compile_conditions(kb, sub) for sub in cond.any_of]
        add(lambda r: any(p(r) for p in alternatives))
    if cond.none_of:
        excluded = [compile_conditions(kb, sub) for sub in cond.none_of]
        add(lambda r: not any(p(r) for p in excluded))

    return lambda r: all(check(r) for check in checks)

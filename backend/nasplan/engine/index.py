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
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import get_args

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from nasplan.domain.platform import (
    Arch,
    FilerVendor,
    NfsVersion,
    OracleHomePlacement,
    SwitchKind,
    VolumeLayout,
    Workload,
)
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.cross_check import os_release_spec
from nasplan.knowledge.resolve import ResolvedPlatform
from nasplan.knowledge.schema import Conditions, IntRange
from nasplan.knowledge.versions import compile_range

Reader = Callable[[ResolvedPlatform], Hashable]

# Fields whose values are not enumerable (exact ints, versions): an exact key among them is
# taken to match about one platform in this many. NIC drivers are fewer (ce, ge, e1000g, ...;
# about a dozen), and one of them serves most hosts of an OS.
_OPEN_DOMAIN = 50
_DRIVERS = 12


@dataclass(frozen=True)
class _Field:
    read: Reader
    domain: int


def _fields(kb: KnowledgeBase) -> dict[str, _Field]:
    def size(values: Iterable[object]) -> int:
        return max(1, len(list(values)))

    return {
        "os": _Field(lambda r: r.platform.host.os, size(kb.os)),
        "os_release": _Field(
            lambda r: (r.platform.host.os, r.os_release.id),
            size(rel for entry in kb.os.values() for rel in entry.releases),
        ),
        "arch": _Field(lambda r: r.platform.host.arch, size(get_args(Arch))),
        "oracle": _Field(lambda r: r.oracle_version, _OPEN_DOMAIN),
        "bits": _Field(lambda r: r.platform.oracle.bits, 2),
        "rac": _Field(lambda r: r.platform.oracle.rac, 2),
        "dnfs": _Field(lambda r: r.platform.oracle.dnfs, 2),
        "archivelog": _Field(lambda r: r.platform.oracle.archivelog, 2),
        "nfs_version": _Field(lambda r: r.platform.oracle.nfs_version, size(get_args(NfsVersion))),
        "workload": _Field(lambda r: r.platform.oracle.workload, size(get_args(Workload))),
        "filer_vendor": _Field(lambda r: r.platform.filer.vendor, size(get_args(FilerVendor))),
        "filer_family": _Field(
            lambda r: r.filer_family.id,
            size(f for vendor in kb.filers.vendors.values() for f in vendor.families),
        ),
        "filer_release": _Field(lambda r: r.filer_version, _OPEN_DOMAIN),
        "jumbo_frames": _Field(lambda r: r.platform.network.jumbo_frames, 2),
        "switch": _Field(lambda r: r.platform.network.switch, size(get_args(SwitchKind))),
        "dedicated": _Field(lambda r: r.platform.network.dedicated_storage_network, 2),
        "oracle_home": _Field(
            lambda r: r.platform.layout.oracle_home, size(get_args(OracleHomePlacement))
        ),
        "volumes": _Field(lambda r: r.platform.layout.volumes, size(get_args(VolumeLayout))),
        "nic_driver": _Field(lambda r: r.nic_driver, _DRIVERS),
        "nic_gbps": _Field(lambda r: r.platform.network.nic_gbps, _OPEN_DOMAIN),
        "nic_count": _Field(lambda r: r.platform.network.nic_count, _OPEN_DOMAIN),
        "switch_hops": _Field(lambda r: r.platform.network.switch_hops, _OPEN_DOMAIN),
        "router_hops": _Field(lambda r: r.platform.network.router_hops, _OPEN_DOMAIN),
        "memory_gb": _Field(lambda r: r.platform.host.memory_gb, _OPEN_DOMAIN),
        "instances": _Field(lambda r: r.platform.oracle.instances, _OPEN_DOMAIN),
    }


def _exact_version(spec_text: str) -> Version | None:
    """The one version a range accepts when it is a single `==V` (no wildcard), else None."""
    clauses = list(SpecifierSet(spec_text))
    if len(clauses) != 1 or clauses[0].operator != "==" or "*" in clauses[0].version:
        return None
    try:
        return Version(clauses[0].version)
    except InvalidVersion:
        return None


def _exact_int(bounds: IntRange | None) -> int | None:
    if bounds is None or bounds.min is None or bounds.min != bounds.max:
        return None
    return bounds.min


def keys_of(kb: KnowledgeBase, cond: Conditions) -> dict[str, frozenset[Hashable]]:
    """Each indexable condition of a rule: the field and the values it accepts (a superset of
    what the full predicate accepts for that field)."""
    keys: dict[str, frozenset[Hashable]] = {}
    if cond.os is not None:
        keys["os"] = frozenset(cond.os)
        if cond.os_release is not None and len(cond.os) == 1:
            os_name = cond.os[0]
            accepts = compile_range(os_release_spec(kb, os_name, cond.os_release))
            keys["os_release"] = frozenset(
                (os_name, rel.id) for rel in kb.os[os_name].releases if accepts(Version(rel.key))
            )
    for name, values in (
        ("arch", cond.arch),
        ("nfs_version", cond.nfs_version),
        ("workload", cond.workload),
        ("filer_vendor", cond.filer_vendor),
        ("filer_family", cond.filer_family),
        ("switch", cond.switch),
        ("nic_driver", cond.nic_driver),
    ):
        if values is not None:
            keys[name] = frozenset(values)
    for name, flag in (
        ("bits", cond.bits),
        ("rac", cond.rac),
        ("dnfs", cond.dnfs),
        ("archivelog", cond.archivelog),
        ("jumbo_frames", cond.jumbo_frames),
        ("dedicated", cond.dedicated_storage_network),
        ("oracle_home", cond.oracle_home),
        ("volumes", cond.volumes),
    ):
        if flag is not None:
            keys[name] = frozenset([flag])
    for name, spec in (("oracle", cond.oracle), ("filer_release", cond.filer_release)):
        exact = _exact_version(spec) if spec is not None else None
        if exact is not None:
            keys[name] = frozenset([exact])
    for name, bounds in (
        ("nic_gbps", cond.nic_gbps),
        ("nic_count", cond.nic_count),
        ("switch_hops", cond.switch_hops),
        ("router_hops", cond.router_hops),
        ("memory_gb", cond.memory_gb),
        ("instances", cond.instances),
    ):
        exact_int = _exact_int(bounds)
        if exact_int is not None:
            keys[name] = frozenset([exact_int])
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
    fields = _fields(kb)
    grouped: dict[str, dict[Hashable, list[int]]] = defaultdict(lambda: defaultdict(list))
    unkeyed: list[int] = []
    rule_ids = tuple(kb.rules)
    for position, rule in enumerate(kb.rules.values()):
        keys = keys_of(kb, rule.when)
        if not keys:
            unkeyed.append(position)
            continue
        name = min(keys, key=lambda n: len(keys[n]) / fields[n].domain)
        for value in keys[name]:
            grouped[name][value].append(position)
    return RuleIndex(
        buckets={n: {v: tuple(p) for v, p in by.items()} for n, by in grouped.items()},
        readers={n: fields[n].read for n in grouped},
        unkeyed=tuple(unkeyed),
        rule_ids=rule_ids,
    )

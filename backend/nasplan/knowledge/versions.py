"""Turning the release names people type into comparable versions (via ``packaging``)."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from functools import lru_cache

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from nasplan.domain.platform import FilerVendor


def oracle_version(text: str) -> Version:
    """`19.x` means any 19 release: the `x` parts are dropped before comparing."""
    parts = [p for p in text.split(".") if p != "x"]
    return Version(".".join(parts))


def filer_version(vendor: FilerVendor, text: str) -> Version | None:
    """Data ONTAP `7.1RC4` -> 7.1rc4; Sun 7000 `2009.Q3` -> 2009.3; ZFS SA `OS8.8` -> 8.8."""
    candidate = text
    if vendor == "sun":
        candidate = re.sub(r"\.Q(\d)", r".\1", text)
    elif vendor == "oracle_zfssa":
        candidate = text.removeprefix("OS")
    try:
        return Version(candidate)
    except InvalidVersion:
        return None


def in_range(version: Version, spec: SpecifierSet) -> bool:
    # Release candidates (7.1RC4) count as the release they lead to.
    return spec.contains(version, prereleases=True)


_COMPARE: dict[str, Callable[[Version, Version], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}


def compile_range(spec: SpecifierSet) -> Callable[[Version], bool]:
    """A fast membership test for plain comparison ranges (no wildcards or ~=), used in the
    planner's hot path; anything else falls back to ``in_range``."""
    clauses = []
    for clause in spec:
        if clause.operator not in _COMPARE or "*" in clause.version:
            return lambda version: in_range(version, spec)
        clauses.append((_COMPARE[clause.operator], Version(clause.version)))
    return lambda version: all(compare(version, bound) for compare, bound in clauses)


@lru_cache(maxsize=4096)
def in_catalog_range(version: Version, range_text: str) -> bool:
    """``in_range`` for a range the catalog writes as text; catalogs name few ranges and
    platforms few versions, so each answer is worked out once."""
    return in_range(version, SpecifierSet(range_text))

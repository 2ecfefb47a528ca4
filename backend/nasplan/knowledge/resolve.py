"""Checking a platform against the catalog and deriving the comparable values rules test.

An unknown release is bad input (HTTP 422 naming the field); a known release in a combination
that does not work is for the rules to say (an ``error`` finding in the plan).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import FilerFamilyEntry, OsRelease
from nasplan.knowledge.versions import filer_version, in_catalog_range, oracle_version

FieldPath = tuple[str, ...]


class CatalogError(ValueError):
    """The platform names something the catalog does not know."""

    def __init__(self, problems: list[tuple[FieldPath, str]]) -> None:
        super().__init__("; ".join(f"{'.'.join(loc)}: {msg}" for loc, msg in problems))
        self.problems = problems


@dataclass(frozen=True)
class ResolvedPlatform:
    platform: Platform
    as_of: dt.date
    os_release: OsRelease
    os_key: Version
    oracle_version: Version
    oracle_release_id: str
    filer_family: FilerFamilyEntry
    filer_version: Version | None
    nic_interface: str
    nic_driver: str


def resolve(
    kb: KnowledgeBase, platform: Platform, today: dt.date | None = None
) -> ResolvedPlatform:
    problems: list[tuple[FieldPath, str]] = []
    os_entry = kb.os[platform.host.os]
    os_release = os_entry.release(platform.host.os_version)
    if os_release is None:
        known = ", ".join(r.id for r in os_entry.releases)
        problems.append(
            (("host", "os_version"), f"unknown {platform.host.os} release; choose one of: {known}")
        )

    oracle_release_id = ""
    try:
        version = oracle_version(platform.oracle.version)
        oracle_release_id = next(
            (r.id for r in kb.oracle.releases if in_catalog_range(version, r.range)), ""
        )
        if not oracle_release_id:
            problems.append(
                (("oracle", "version"), "not an Oracle release nasplan covers (8.1.7 to 26)")
            )
    except InvalidVersion:
        version = Version("0")
        problems.append((("oracle", "version"), "not a dotted release such as 19.21"))

    family, fversion = _resolve_filer(kb, platform, problems)

    if problems:
        raise CatalogError(problems)
    assert os_release is not None and family is not None

    interface = platform.host.nic_interface or os_entry.default_interface
    # The driver is the interface's name without its instance number (ce0, e1000g1, nxge0).
    driver = re.match(r".*[A-Za-z]", interface)
    return ResolvedPlatform(
        platform=platform,
        as_of=platform.as_of or today or dt.date.today(),
        os_release=os_release,
        os_key=Version(os_release.key),
        oracle_version=version,
        oracle_release_id=oracle_release_id,
        filer_family=family,
        filer_version=fversion,
        nic_interface=interface,
        nic_driver=driver.group(0).lower() if driver else interface,
    )


def _resolve_filer(
    kb: KnowledgeBase, platform: Platform, problems: list[tuple[FieldPath, str]]
) -> tuple[FilerFamilyEntry | None, Version | None]:
    vendor = kb.filers.vendors[platform.filer.vendor]
    release = platform.filer.os_version
    if release is None:
        if vendor.release_required:
            problems.append((("filer", "os_version"), "required for this vendor"))
            return None, None
        return vendor.families[0], None
    if not vendor.release_matches_pattern(release):
        problems.append((("filer", "os_version"), f"not a {vendor.label} release name"))
        return None, None
    version = filer_version(platform.filer.vendor, release)
    if version is None:
        problems.append((("filer", "os_version"), "not a release number such as 7.3 or 9.14.1"))
        return None, None
    for family in vendor.families:
        if in_catalog_range(version, family.releases):
            return family, version
    ranges = "; ".join(f"{f.label} {f.releases}" for f in vendor.families)
    problems.append((("filer", "os_version"), f"outside the releases nasplan covers ({ranges})"))
    return None, None

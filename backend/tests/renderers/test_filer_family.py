"""The renderers' filer family (renderers/common.filer_family, read from the stored plan alone)
is the family the knowledge base resolves for the same platform, for every vendor and every
release the catalog knows, so the two cannot drift apart."""

from __future__ import annotations

import datetime as dt
from typing import Any

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from nasplan.knowledge.resolve import CatalogError, resolve
from nasplan.renderers.common import filer_family


def test_every_known_release_of_every_vendor_gets_the_catalogs_family(kb: KnowledgeBase) -> None:
    base: dict[str, Any] = dict(kb.presets["current-linux-ontap"].platform)
    checked = 0
    for vendor, entry in kb.filers.vendors.items():
        for family in entry.families:
            releases: list[str | None] = [*family.known] or [None]
            for release in releases:
                filer: dict[str, Any] = {"vendor": vendor, "os_version": release, "interface": None}
                if family.service_levels:
                    level = next(iter(family.service_levels))
                    filer |= {"service_level": level, "capacity_tib": 4}
                if vendor == "aws_fsxn":
                    filer["throughput_mb_s"] = 1024
                try:
                    platform = Platform.model_validate(deep_merge(base, {"filer": filer}))
                    resolved = resolve(kb, platform)
                except (CatalogError, ValueError):
                    continue
                plan = make_plan(kb, platform, dt.date(2026, 11, 1))
                assert filer_family(plan) == resolved.filer_family.id, (vendor, release)
                checked += 1
    assert checked >= len(kb.filers.vendors)

"""Platform suggestions that apply together without a platform the knowledge base refuses.

Each suggestion comes from one pasted file; applied together they can describe a platform that
a compatibility rule refuses with an error (Oracle 10g from ``compatible`` while the platform
keeps Direct NFS on, or Data ONTAP 7-mode from /vol/ exports while it keeps NFSv4.1). The audit
plans the platform with every suggestion applied, and with fewer where that one is refused, and
keeps the largest set that brings no new error; the others are withheld with the rules that
refuse them, so that the user changes those answers first.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pydantic import ValidationError

from nasplan.audit.suggestions import PlatformSuggestion
from nasplan.domain.plan import Plan
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import CatalogError


def apply_suggestions(
    kb: KnowledgeBase, platform: Platform, suggestions: Sequence[PlatformSuggestion]
) -> Platform | None:
    """``platform`` with the suggestions applied as the wizard applies them (a new host OS
    takes its newest release and first architecture where the old ones do not fit); None
    when the result is not a valid platform."""
    data = platform.model_dump(mode="json")
    for suggestion in suggestions:
        if suggestion.field == "host.os":
            entry = next((e for name, e in kb.os.items() if name == suggestion.value), None)
            data["host"]["os"] = suggestion.value
            if entry is not None and entry.release(data["host"]["os_version"]) is None:
                data["host"]["os_version"] = entry.releases[-1].id
            if entry is not None and data["host"]["arch"] not in entry.arches:
                data["host"]["arch"] = entry.arches[0]
        elif suggestion.field == "oracle.version":
            data["oracle"]["version"] = suggestion.value
        else:
            data["filer"]["os_version"] = suggestion.value
    try:
        return Platform.model_validate(data)
    except ValidationError:
        return None


def _errors(kb: KnowledgeBase, platform: Platform) -> set[str] | None:
    try:
        plan = make_plan(kb, platform)
    except CatalogError:
        return None
    return {f.rule for f in plan.findings if f.severity == "error"}


def compatible_suggestions(
    kb: KnowledgeBase, plan: Plan, suggestions: Sequence[PlatformSuggestion]
) -> tuple[list[PlatformSuggestion], dict[str, set[str]]]:
    """The largest set of ``suggestions`` that applies together without an error the plan
    does not already have, and each withheld suggestion's field with the rules that refuse it
    (an empty set: the platform it gives is not valid)."""
    before = {f.rule for f in plan.findings if f.severity == "error"}
    for size in range(len(suggestions), 0, -1):
        for kept in combinations(suggestions, size):
            applied = apply_suggestions(kb, plan.platform, kept)
            errors = _errors(kb, applied) if applied is not None else None
            if errors is not None and errors <= before:
                withheld = [s for s in suggestions if s not in kept]
                return list(kept), _refusing(kb, plan.platform, kept, withheld, before)
    return [], _refusing(kb, plan.platform, (), list(suggestions), before)


def _refusing(
    kb: KnowledgeBase,
    platform: Platform,
    kept: Sequence[PlatformSuggestion],
    withheld: list[PlatformSuggestion],
    before: set[str],
) -> dict[str, set[str]]:
    refused: dict[str, set[str]] = {}
    for suggestion in withheld:
        applied = apply_suggestions(kb, platform, [*kept, suggestion])
        errors = _errors(kb, applied) if applied is not None else None
        refused[suggestion.field] = (errors or set()) - before
    return refused

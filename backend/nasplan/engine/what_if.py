"""What if: plan a base platform and variants of it, say what changes and what the sources
measured for changes of that kind.

Pure, like the planner: the variants are planned by ``make_plan`` and compared by
``diff_plans``; the measured gains come from ``knowledge/model/gains.yaml`` and are reported
apart from nasplan's own model figures (the plans' expectations).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from nasplan.domain.plan import Plan
from nasplan.domain.platform import Platform
from nasplan.engine.diff import Change, diff_plans
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import GainTrigger, MeasuredGain


@dataclass(frozen=True)
class GainFound:
    """A measured gain that applies to a variant: as measured (``reverse`` False), or the
    variant undoes the change that was measured (``reverse`` True: expect the opposite)."""

    gain: MeasuredGain
    reverse: bool


@dataclass(frozen=True)
class VariantOutcome:
    label: str
    plan: Plan
    changes: list[Change]
    gains: list[GainFound]


@dataclass(frozen=True)
class WhatIf:
    base: Plan
    variants: list[VariantOutcome]


def what_if(
    kb: KnowledgeBase, base: Platform, variants: list[tuple[str, Platform]], today: dt.date
) -> WhatIf:
    base_plan = make_plan(kb, base, today)
    outcomes = []
    for label, platform in variants:
        plan = make_plan(kb, platform, today)
        outcomes.append(
            VariantOutcome(
                label=label,
                plan=plan,
                changes=diff_plans(base_plan, plan),
                gains=_gains(kb, base_plan, plan),
            )
        )
    return WhatIf(base_plan, outcomes)


def _gains(kb: KnowledgeBase, before: Plan, after: Plan) -> list[GainFound]:
    """The gains measured for this change, and those measured for the opposite change (a
    variant that goes from Direct NFS back to the kernel client undoes what was measured)."""
    found = [GainFound(g, False) for g in kb.gains if _triggered(g.trigger, before, after)]
    found += [GainFound(g, True) for g in kb.gains if _triggered(g.trigger, after, before)]
    return found


def _triggered(trigger: GainTrigger, before: Plan, after: Plan) -> bool:
    if trigger.kind == "platform_field":
        assert trigger.field is not None
        old, new = _field(before.platform, trigger.field), _field(after.platform, trigger.field)
        if trigger.increase:
            return isinstance(old, int) and isinstance(new, int) and new > old
        return bool(old == trigger.before and new == trigger.after)
    if trigger.kind == "data_rsize":
        old_rsize, new_rsize = _data_rsize(before), _data_rsize(after)
        return (
            old_rsize is not None
            and new_rsize is not None
            and trigger.before_at_most is not None
            and trigger.after_at_least is not None
            and old_rsize <= trigger.before_at_most
            and new_rsize >= trigger.after_at_least
        )
    return (
        _setting(after, trigger.key) == trigger.value
        and _setting(before, trigger.key) != trigger.value
    )


def _field(platform: Platform, dotted: str) -> Any:
    value: Any = platform
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def _data_rsize(plan: Plan) -> int | None:
    mount = next((m for m in plan.mounts if "data" in m.serves), None)
    for option in mount.options if mount else []:
        name, _, value = option.partition("=")
        if name == "rsize" and value.isdigit():
            return int(value)
    return None


def _setting(plan: Plan, key: str | None) -> str | None:
    return next((s.value for s in plan.settings if s.key == key and s.action == "set"), None)

"""The plan item a review is about, found in the revision's plan by the key the plan diff gives
it (nasplan.engine.diff), so a comment stays on exactly one mount, option, setting or finding
even when one rule is behind many of them."""

from __future__ import annotations

from dataclasses import dataclass

from nasplan.designs.schemas import ReviewItem

# The plan diff's keys, one definition: an item named by a change of GET .../diff is the item a
# review names, and the plan view serves the same keys.
from nasplan.domain.item_keys import finding_key, mount_key, setting_key
from nasplan.domain.plan import Finding, Mount, Plan, Setting


@dataclass(frozen=True)
class NotInPlan:
    """Why an item or its rule is not in the plan: the field to blame (under the item's own
    location) and what to say."""

    field: tuple[str, ...]
    message: str


def _mount(plan: Plan, key: str) -> Mount | None:
    return next((m for m in plan.mounts if mount_key(m) == key), None)


def _setting(plan: Plan, key: str) -> Setting | None:
    return next((s for s in plan.settings if setting_key(s) == key), None)


def _finding(plan: Plan, key: str) -> Finding | None:
    return next((f for f in plan.findings if finding_key(f) == key), None)


def rules_behind(plan: Plan, item: ReviewItem) -> list[str] | NotInPlan:
    """The rules behind ``item`` in ``plan``, or why it is not there."""
    missing = NotInPlan(("item", "key"), f"the plan has no {item.kind} {item.key!r}")
    if item.kind == "setting":
        setting = _setting(plan, item.key)
        return missing if setting is None else list(setting.rules)
    if item.kind == "finding":
        finding = _finding(plan, item.key)
        return missing if finding is None else [finding.rule, *finding.related_rules]
    mount = _mount(plan, item.key)
    if mount is None:
        return NotInPlan(("item", "key"), f"the plan has no mount {item.key!r}")
    if item.kind == "mount":
        return list(mount.rules)
    if item.option is None or item.option not in mount.options:
        return NotInPlan(
            ("item", "option"), f"{mount.mount_point} is not mounted with {item.option!r}"
        )
    return list(mount.option_rules.get(item.option, []))


def check_item(plan: Plan, item: ReviewItem, item_rule: str | None) -> NotInPlan | None:
    """Whether a review's item is in the plan and its rule, when it names one too, is one of the
    rules behind that item."""
    rules = rules_behind(plan, item)
    if isinstance(rules, NotInPlan):
        return rules
    if item_rule is not None and item_rule not in rules:
        return NotInPlan(("item_rule",), f"rule {item_rule} is not behind that {item.kind}")
    return None

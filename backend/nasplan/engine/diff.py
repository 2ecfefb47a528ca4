"""What changed between two plans, item by item, with the rules and the reason.

Used for time travel (the same platform on two dates) and for drift (a saved revision against
today's knowledge base).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal, TypeVar

from pydantic import BaseModel

from nasplan.domain.plan import Finding, Mount, Plan, Setting, Volume

ItemKind = Literal["volume", "mount", "setting", "finding"]
T = TypeVar("T")


class Change(BaseModel):
    kind: Literal["added", "removed", "changed"]
    item: ItemKind
    key: str
    before: str | None
    after: str | None
    rules_before: list[str]
    rules_after: list[str]
    reason: str


def _mount_key(m: Mount) -> str:
    return f"{'+'.join(m.serves)} {m.mount_point}"


def _mount_value(m: Mount) -> str:
    return f"{m.export} {','.join(m.options)}"


def _setting_key(s: Setting) -> str:
    where = f" [{', '.join(s.applies_to)}]" if s.applies_to else ""
    scope = f" ({s.scope})" if s.scope else ""
    return f"{s.target} {s.key}{where}{scope}"


def _setting_value(s: Setting) -> str:
    return "(unset)" if s.action == "unset" else s.value


def _volume_key(v: Volume) -> str:
    return v.name


def _volume_value(v: Volume) -> str:
    return f"{v.export} holds {', '.join(v.holds)}"


def _finding_key(f: Finding) -> str:
    return f"{f.rule}: {f.message}"


def _finding_value(f: Finding) -> str:
    return f.severity


def diff_plans(before: Plan, after: Plan) -> list[Change]:
    explain = _Reasons(before, after)
    changes: list[Change] = []
    changes += _diff(
        "volume",
        before.volumes,
        after.volumes,
        _volume_key,
        _volume_value,
        lambda v: v.rules,
        explain,
    )
    changes += _diff(
        "mount",
        before.mounts,
        after.mounts,
        _mount_key,
        _mount_value,
        lambda m: m.rules,
        explain,
    )
    changes += _diff(
        "setting",
        before.settings,
        after.settings,
        _setting_key,
        _setting_value,
        lambda s: s.rules,
        explain,
    )
    changes += _diff(
        "finding",
        before.findings,
        after.findings,
        _finding_key,
        _finding_value,
        lambda f: [f.rule],
        explain,
    )
    return changes


class _Reasons:
    def __init__(self, before: Plan, after: Plan) -> None:
        self.before = before
        self.after = after
        self.replaced_by = {s.rule: s for s in after.superseded}

    def why(self, rules_before: list[str], rules_after: list[str]) -> str:
        parts: list[str] = []
        for rule_id in rules_before:
            if rule_id in rules_after:
                continue
            replaced = self.replaced_by.get(rule_id)
            if replaced is not None:
                parts.append(
                    f"{rule_id} superseded by {', '.join(replaced.by)} "
                    f"({replaced.replaced_on.isoformat()}): {replaced.reason}"
                )
            elif rule_id not in self.after.applied_rules:
                parts.append(f"{rule_id} no longer applies")
            else:
                parts.append(f"{rule_id} no longer decides this item")
        for rule_id in rules_after:
            if rule_id in rules_before:
                continue
            explanation = self.after.rules.get(rule_id)
            since = (
                f" (in effect from {explanation.effective_from.isoformat()})" if explanation else ""
            )
            parts.append(f"{rule_id} now applies{since}")
        if not parts and self.before.kb_version != self.after.kb_version:
            versions = f"{self.before.kb_version} -> {self.after.kb_version}"
            parts.append(f"knowledge base {versions} changed the rule")
        return "; ".join(parts) or "same rules, different platform"


def _diff(
    item: ItemKind,
    before: Iterable[T],
    after: Iterable[T],
    key: Callable[[T], str],
    value: Callable[[T], str],
    rules: Callable[[T], list[str]],
    reasons: _Reasons,
) -> list[Change]:
    old = {key(x): x for x in before}
    new = {key(x): x for x in after}
    changes: list[Change] = []
    for k in sorted(old.keys() | new.keys()):
        a, b = old.get(k), new.get(k)
        if a is not None and b is not None and value(a) == value(b):
            continue
        rules_a = rules(a) if a is not None else []
        rules_b = rules(b) if b is not None else []
        kind: Literal["added", "removed", "changed"] = (
            "added" if a is None else "removed" if b is None else "changed"
        )
        changes.append(
            Change(
                kind=kind,
                item=item,
                key=k,
                before=value(a) if a is not None else None,
                after=value(b) if b is not None else None,
                rules_before=rules_a,
                rules_after=rules_b,
                reason=reasons.why(rules_a, rules_b),
            )
        )
    return changes

"""Why an item of a plan changed: the rules behind it, as data (`RuleShift`) and in words.

The words are built from the data, so the API's `reason` and `shifts` always agree; clients
render `shifts` and need not read the sentence.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field

from nasplan.domain.plan import Plan


class RuleShift(BaseModel):
    """One rule's part in a change: what `reason` says in words, as data."""

    rule: str | None = Field(description="Null for a change of knowledge base release.")
    shift: Literal[
        "superseded", "no_longer_applies", "no_longer_decides", "now_applies", "kb_release"
    ]
    by: list[str] = Field(default=[], description="For `superseded`: the rules replacing it.")
    on: dt.date | None = Field(
        default=None,
        description="`superseded`: the day it was replaced; `now_applies`: in effect from.",
    )
    why: str | None = Field(default=None, description="For `superseded`: the stated reason.")


def shift_words(shift: RuleShift) -> str:
    if shift.shift == "superseded":
        on = shift.on.isoformat() if shift.on else ""
        return f"{shift.rule} superseded by {', '.join(shift.by)} ({on}): {shift.why}"
    if shift.shift == "now_applies":
        since = f" (in effect from {shift.on.isoformat()})" if shift.on else ""
        return f"{shift.rule} now applies{since}"
    if shift.shift == "kb_release":
        return f"knowledge base {shift.why} changed the rule"
    words = "no longer applies" if shift.shift == "no_longer_applies" else "no longer decides"
    return f"{shift.rule} {words}" + (" this item" if shift.shift == "no_longer_decides" else "")


def reason_words(shifts: list[RuleShift]) -> str:
    return "; ".join(shift_words(s) for s in shifts) or "same rules, different platform"


class Reasons:
    def __init__(self, before: Plan, after: Plan) -> None:
        self.before = before
        self.after = after
        self.replaced_by = {s.rule: s for s in after.superseded}

    def shifts(self, rules_before: list[str], rules_after: list[str]) -> list[RuleShift]:
        out: list[RuleShift] = []
        for rule_id in rules_before:
            if rule_id in rules_after:
                continue
            replaced = self.replaced_by.get(rule_id)
            if replaced is not None:
                out.append(
                    RuleShift(
                        rule=rule_id,
                        shift="superseded",
                        by=list(replaced.by),
                        on=replaced.replaced_on,
                        why=replaced.reason,
                    )
                )
            elif rule_id not in self.after.applied_rules:
                out.append(RuleShift(rule=rule_id, shift="no_longer_applies"))
            else:
                out.append(RuleShift(rule=rule_id, shift="no_longer_decides"))
        for rule_id in rules_after:
            if rule_id in rules_before:
                continue
            explanation = self.after.rules.get(rule_id)
            on = explanation.effective_from if explanation else None
            out.append(RuleShift(rule=rule_id, shift="now_applies", on=on))
        if not out and self.before.kb_version != self.after.kb_version:
            versions = f"{self.before.kb_version} -> {self.after.kb_version}"
            out.append(RuleShift(rule=None, shift="kb_release", why=versions))
        return out

    def why(self, rules_before: list[str], rules_after: list[str]) -> str:
        return reason_words(self.shifts(rules_before, rules_after))

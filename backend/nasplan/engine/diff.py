"""What changed between two plans, item by item, with the rules and the reason.

Used for time travel (the same platform on two dates), for drift (a saved revision against
today's knowledge base) and for the diff between two revisions of a design.

Covered, in this order: the plan's own knowledge base release and date (``plan``), every
platform answer (``platform``), volumes, mounts (with the options token by token), settings,
findings, checks, and the expectations (``expectation``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field

from nasplan.domain.item_keys import finding_key, mount_key, setting_key
from nasplan.domain.plan import (
    Check,
    Expectations,
    Finding,
    LatencyPart,
    Mount,
    Plan,
    Setting,
    Volume,
)
from nasplan.engine.change_parts import (
    AnswerParts,
    CheckParts,
    FindingParts,
    MountParts,
    SettingParts,
    answer_parts,
    parts_of,
)
from nasplan.engine.diff_reasons import Reasons, RuleShift, reason_words

ItemKind = Literal[
    "volume", "mount", "setting", "finding", "platform", "check", "expectation", "plan"
]
T = TypeVar("T")

# Expectation fields compared one by one (floats rounded to one decimal) and as whole lists.
EXPECTATION_SCALARS: tuple[str, ...] = (
    "planned_client",
    "planned_scan_mb_s",
    "planned_scan_low_mb_s",
    "planned_scan_high_mb_s",
    "service_ceiling_mb_s",
    "single_stream_mb_s",
    "pipelined_stream_mb_s",
    "rtt_us",
    "transfer_bytes",
    "nic_payload_ceiling_mb_s",
    "aggregate_ceiling_mb_s",
    "tcp_window_bytes",
    "bottleneck",
    "serial_client",
    "nfs_overhead_8k_us",
    "overhead_vs_disk_pct",
    "random_8k_reads_ceiling",
    "random_8k_reads_per_read_in_flight",
    "random_8k_reads_in_flight_to_fill",
    "client_cpu_note",
    "rtt_measured",
)
EXPECTATION_LISTS: tuple[str, ...] = ("improvements", "assumptions", "latency_budget_us")

PLATFORM_REASON = "platform answer changed"


class Change(BaseModel):
    kind: Literal["added", "removed", "changed"]
    item: ItemKind
    key: str
    before: str | None
    after: str | None
    rules_before: list[str]
    rules_after: list[str]
    reason: str
    added_tokens: list[str] = []
    removed_tokens: list[str] = []
    shifts: list[RuleShift] = Field(
        default=[], description="The rules behind the change, as `reason` words them."
    )
    setting: SettingParts | None = Field(default=None, description="For settings: the key.")
    mount: MountParts | None = Field(default=None, description="For mounts: the key.")
    finding: FindingParts | None = Field(default=None, description="For findings: the key.")
    check: CheckParts | None = Field(default=None, description="For checks: the key.")
    answer: AnswerParts | None = Field(default=None, description="For platform answers: the key.")


def _mount_value(m: Mount) -> str:
    return f"{m.export} {','.join(m.options)}"


def _setting_value(s: Setting) -> str:
    return "(unset)" if s.action == "unset" else s.value


def _volume_key(v: Volume) -> str:
    return v.name


def _volume_value(v: Volume) -> str:
    return f"{v.export} holds {', '.join(v.holds)}"


def _finding_value(f: Finding) -> str:
    return f.severity


def _check_key(c: Check) -> str:
    return f"{c.where}: {c.what}"


def _check_value(c: Check) -> str:
    return f"{c.command} (expect: {c.expect})"


def _text(value: object) -> str:
    """A value as JSON-ish text: ``25``, ``true``, ``solaris``, ``(none)`` for None."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, dt.date):
        return value.isoformat()
    return json.dumps(value)


def _expectation_text(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.1f}"
    return _text(value)


def _latency_text(part: LatencyPart) -> str:
    return f"{part.part} {part.us:.1f} µs ({part.note})"


def _list_text(values: list[Any]) -> str:
    return "; ".join(_latency_text(v) if isinstance(v, LatencyPart) else str(v) for v in values)


def diff_plans(
    before: Plan,
    after: Plan,
    *,
    include_platform: bool = True,
    include_plan: bool = True,
) -> list[Change]:
    """Every difference between two plans, ``before`` -> ``after``.

    ``include_platform=False`` leaves out the platform answers (for callers that compare the
    same platform by construction, such as time travel, whose two platforms differ only in
    ``as_of``). ``include_plan=False`` leaves out the plan's own ``kb_version`` and ``as_of``
    (for callers that report those dates and releases beside the changes).
    """
    explain = Reasons(before, after)
    changes: list[Change] = []
    if include_plan:
        changes += _diff_plan_meta(before, after)
    if include_platform:
        changes += _diff_platform(before, after)
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
        mount_key,
        _mount_value,
        lambda m: m.rules,
        explain,
        tokens=lambda m: m.options,
    )
    changes += _diff(
        "setting",
        before.settings,
        after.settings,
        setting_key,
        _setting_value,
        lambda s: s.rules,
        explain,
    )
    changes += _diff(
        "finding",
        before.findings,
        after.findings,
        finding_key,
        _finding_value,
        lambda f: [f.rule],
        explain,
    )
    changes += _diff(
        "check",
        before.checks,
        after.checks,
        _check_key,
        _check_value,
        lambda c: c.rules,
        explain,
    )
    changes += _diff_expectations(before.expectations, after.expectations, explain)
    return changes


def _changed(item: ItemKind, key: str, before: str, after: str, reason: str) -> Change:
    return Change(
        kind="changed",
        item=item,
        key=key,
        before=before,
        after=after,
        rules_before=[],
        rules_after=[],
        reason=reason,
    )


def _diff_plan_meta(before: Plan, after: Plan) -> list[Change]:
    changes: list[Change] = []
    if before.kb_version != after.kb_version:
        reason = "planned with another knowledge base release"
        changes.append(_changed("plan", "kb_version", before.kb_version, after.kb_version, reason))
    if before.as_of != after.as_of:
        old, new = before.as_of.isoformat(), after.as_of.isoformat()
        changes.append(_changed("plan", "as_of", old, new, "planned for another date"))
    return changes


def _leaves(prefix: str, value: object) -> Iterator[tuple[str, object]]:
    """Every answer by its dotted path; a list of objects (the storage paths) item by item,
    numbered from 1 as the wizard numbers them (``handover.paths.1.host_interface``)."""
    if isinstance(value, dict):
        for name, inner in value.items():
            yield from _leaves(f"{prefix}.{name}" if prefix else str(name), inner)
    elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
        for number, inner in enumerate(value, start=1):
            yield from _leaves(f"{prefix}.{number}", inner)
    else:
        yield prefix, value


def _answer(value: object) -> object:
    """An answer as the plan reads it: nothing given, an empty list and an empty text are the
    same (no answer), so a hand-over saved without its lists is no change."""
    return None if value in ("", [], {}) else value


def _answer_text(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(_text(item) for item in value)
    return _text(value)


def _diff_platform(before: Plan, after: Plan) -> list[Change]:
    old = {k: _answer(v) for k, v in _leaves("", before.platform.model_dump(mode="json"))}
    new = {k: _answer(v) for k, v in _leaves("", after.platform.model_dump(mode="json"))}
    changes: list[Change] = []
    for key in [*old, *(k for k in new if k not in old)]:
        a, b = old.get(key), new.get(key)
        if a != b:
            before_text, after_text = _answer_text(a), _answer_text(b)
            change = _changed("platform", key, before_text, after_text, PLATFORM_REASON)
            listed = isinstance(a, list) or isinstance(b, list)
            parts = AnswerParts(field=f"{key}[]") if listed else answer_parts(key)
            changes.append(change.model_copy(update={"answer": parts}))
    return changes


def _diff_expectations(before: Expectations, after: Expectations, reasons: Reasons) -> list[Change]:
    texts: list[tuple[str, str, str]] = []
    for name in EXPECTATION_SCALARS:
        old = _expectation_text(getattr(before, name))
        new = _expectation_text(getattr(after, name))
        texts.append((name, old, new))
    for name in EXPECTATION_LISTS:
        texts.append((name, _list_text(getattr(before, name)), _list_text(getattr(after, name))))
    changes: list[Change] = []
    for name, old, new in texts:
        if old == new:
            continue
        changes.append(
            Change(
                kind="changed",
                item="expectation",
                key=name,
                before=old,
                after=new,
                rules_before=list(before.rules),
                rules_after=list(after.rules),
                reason=reasons.why(list(before.rules), list(after.rules)),
                shifts=reasons.shifts(list(before.rules), list(after.rules)),
            )
        )
    return changes


def _diff(
    item: ItemKind,
    before: Iterable[T],
    after: Iterable[T],
    key: Callable[[T], str],
    value: Callable[[T], str],
    rules: Callable[[T], list[str]],
    reasons: Reasons,
    tokens: Callable[[T], list[str]] | None = None,
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
        added: list[str] = []
        removed: list[str] = []
        if tokens is not None:
            tokens_a = tokens(a) if a is not None else []
            tokens_b = tokens(b) if b is not None else []
            added = _missing(tokens_b, tokens_a)
            removed = _missing(tokens_a, tokens_b)
        shifts = reasons.shifts(rules_a, rules_b)
        either = b if b is not None else a
        changes.append(
            Change(
                kind=kind,
                item=item,
                key=k,
                before=value(a) if a is not None else None,
                after=value(b) if b is not None else None,
                rules_before=rules_a,
                rules_after=rules_b,
                reason=reason_words(shifts),
                added_tokens=added,
                removed_tokens=removed,
                shifts=shifts,
                **parts_of(either),
            )
        )
    return changes


def _missing(tokens: list[str], other: list[str]) -> list[str]:
    """Tokens of ``tokens`` not in ``other``, in their order, each once."""
    seen = set(other)
    out: list[str] = []
    for token in tokens:
        if token not in seen:
            seen.add(token)
            out.append(token)
    return out

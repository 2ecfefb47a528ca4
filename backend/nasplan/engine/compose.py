"""Merge what the fired rules contribute into one consistent set of options and settings.

Order of precedence, strongest first:

1. A declared conflict (``knowledge/conflicts.yaml``): when a rule of the winning side fires,
   whatever a losing rule contributes that collides with the winner is dropped, and the plan
   gets a finding citing both sides.
2. A forbidden option (``forbid_options``) is never placed on that role, whoever asks.
3. Any other collision (same option key, options that exclude each other, same setting key)
   is a knowledge-base defect: it is resolved by rule severity, then the newer rule, and is
   reported both as a warning finding and in ``Composition.undeclared`` (tests require it empty).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from nasplan.domain.platform import OsName
from nasplan.domain.vocabulary import Role
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.schema import Conflict, Rule, SettingEffect

_SEVERITY_RANK = {"critical": 0, "high": 1, "medium": 2, "low": 3}


@dataclass(frozen=True)
class OptionContribution:
    role: Role
    option: str
    rule: Rule


@dataclass(frozen=True)
class SettingContribution:
    effect: SettingEffect
    rule: Rule
    # (target, key, roles): settings with the same target and key and overlapping roles collide
    slot: tuple[str, str, tuple[Role, ...]] = field(init=False)

    def __post_init__(self) -> None:
        roles = tuple(sorted(self.effect.roles or ()))
        object.__setattr__(self, "slot", (self.effect.target, self.effect.key, roles))


@dataclass(frozen=True)
class ConflictOutcome:
    conflict: Conflict
    winners: list[str]
    losers: list[str]


@dataclass
class Composition:
    options: list[OptionContribution]
    settings: list[SettingContribution]
    conflicts: list[ConflictOutcome] = field(default_factory=list)
    # (kept rule, dropped rule, what): collisions the knowledge base did not declare
    undeclared: list[tuple[str, str, str]] = field(default_factory=list)
    # (forbidding rule, dropped rule, role, option)
    withheld: list[tuple[str, str, Role, str]] = field(default_factory=list)


def _precedence(rule: Rule) -> tuple[int, int, str]:
    return (_SEVERITY_RANK[rule.severity], -rule.effective_from.toordinal(), rule.id)


class _OptionVocabulary:
    """Which options set the same thing or exclude each other on one OS (memoised: plans repeat
    the same few dozen option pairs)."""

    def __init__(self, kb: KnowledgeBase, os_name: OsName) -> None:
        self.kb = kb
        self.os = os_name

    def key(self, option: str) -> str:
        return _option_key(self.kb, self.os, option)

    def collide(self, a: str, b: str) -> bool:
        return a != b and _options_collide(self.kb, self.os, a, b)


@lru_cache(maxsize=4096)
def _option_key(kb: KnowledgeBase, os_name: OsName, option: str) -> str:
    entry = kb.option_index.get((os_name, option.split("=", 1)[0]))
    return entry.key if entry else option


@lru_cache(maxsize=16384)
def _options_collide(kb: KnowledgeBase, os_name: OsName, a: str, b: str) -> bool:
    if _option_key(kb, os_name, a) == _option_key(kb, os_name, b):
        return True
    entry_a = kb.option_index.get((os_name, a.split("=", 1)[0]))
    entry_b = kb.option_index.get((os_name, b.split("=", 1)[0]))
    if entry_a is None or entry_b is None:
        return False
    return entry_b.token in entry_a.excludes or entry_a.token in entry_b.excludes


def composed(kb: KnowledgeBase, os_name: OsName, fired: list[Rule]) -> Composition:
    """``compose``, kept for the combinations asked recently: the result depends only on the
    OS and which rules fired, and many platforms share both (the planner only reads it)."""
    return _composed(kb, os_name, tuple(rule.id for rule in fired))


@lru_cache(maxsize=2048)
def _composed(kb: KnowledgeBase, os_name: OsName, fired_ids: tuple[str, ...]) -> Composition:
    return compose(kb, os_name, [kb.rules[rule_id] for rule_id in fired_ids])


def compose(kb: KnowledgeBase, os_name: OsName, fired: list[Rule]) -> Composition:
    vocab = _OptionVocabulary(kb, os_name)
    options = [
        OptionContribution(role, option, rule)
        for rule in fired
        for block in rule.effects.mount_options
        if block.os is None or os_name in block.os
        for role in block.roles
        for option in block.options
    ]
    settings = [
        SettingContribution(effect, rule) for rule in fired for effect in rule.effects.settings
    ]
    forbids = [
        (role, option, rule)
        for rule in fired
        for block in rule.effects.forbid_options
        for role in block.roles
        for option in block.options
    ]
    result = Composition(options=options, settings=settings)
    fired_ids = {rule.id for rule in fired}
    for conflict in kb.conflicts:
        _apply_conflict(conflict, fired_ids, forbids, vocab, result)
    _apply_forbids(forbids, result)
    _resolve_leftovers(vocab, result)
    return result


def _apply_conflict(
    conflict: Conflict,
    fired_ids: set[str],
    forbids: list[tuple[Role, str, Rule]],
    vocab: _OptionVocabulary,
    result: Composition,
) -> None:
    winners = {r for r in conflict.winner.rules if r in fired_ids}
    losers = {r for side in conflict.losers for r in side.rules if r in fired_ids}
    if not winners or not losers:
        return
    won_options = [c for c in result.options if c.rule.id in winners]
    won_forbids = [(role, opt) for role, opt, rule in forbids if rule.id in winners]
    won_slots = {c.slot[:2] for c in result.settings if c.rule.id in winners}

    def option_loses(c: OptionContribution) -> bool:
        if c.rule.id not in losers:
            return False
        return any(
            w.role == c.role and (w.option == c.option or vocab.collide(w.option, c.option))
            for w in won_options
        ) or any(role == c.role and opt == c.option for role, opt in won_forbids)

    dropped_options = [c for c in result.options if option_loses(c)]
    dropped_settings = [
        c for c in result.settings if c.rule.id in losers and c.slot[:2] in won_slots
    ]
    if not dropped_options and not dropped_settings:
        return
    result.options = [c for c in result.options if c not in dropped_options]
    result.settings = [c for c in result.settings if c not in dropped_settings]
    dropped_rules = sorted(
        {c.rule.id for c in dropped_options} | {c.rule.id for c in dropped_settings}
    )
    result.conflicts.append(ConflictOutcome(conflict, sorted(winners), dropped_rules))


def _apply_forbids(forbids: list[tuple[Role, str, Rule]], result: Composition) -> None:
    blockers: dict[tuple[Role, str], Rule] = {}
    for role, option, rule in forbids:
        blockers.setdefault((role, option), rule)
    kept = []
    for contribution in result.options:
        blocker = blockers.get((contribution.role, contribution.option))
        if blocker is None:
            kept.append(contribution)
            continue
        result.withheld.append(
            (blocker.id, contribution.rule.id, contribution.role, contribution.option)
        )
        result.undeclared.append(
            (blocker.id, contribution.rule.id, f"{contribution.option} on {contribution.role}")
        )
    result.options = kept


def _resolve_leftovers(vocab: _OptionVocabulary, result: Composition) -> None:
    ranked = sorted(result.options, key=lambda c: _precedence(c.rule))
    kept_options: list[OptionContribution] = []
    kept_by_role: dict[Role, list[OptionContribution]] = {}
    for contribution in ranked:
        same_role = kept_by_role.setdefault(contribution.role, [])
        rival = next((k for k in same_role if vocab.collide(k.option, contribution.option)), None)
        if rival is None:
            kept_options.append(contribution)
            same_role.append(contribution)
        elif rival.rule.id != contribution.rule.id:
            result.undeclared.append(
                (
                    rival.rule.id,
                    contribution.rule.id,
                    f"{contribution.option} on {contribution.role}",
                )
            )
    order = {id(c): i for i, c in enumerate(result.options)}
    result.options = sorted(kept_options, key=lambda c: order[id(c)])

    kept_settings: list[SettingContribution] = []
    for setting in sorted(result.settings, key=lambda c: _precedence(c.rule)):
        target, key, roles = setting.slot
        rival_setting = next(
            (
                k
                for k in kept_settings
                if k.slot[:2] == (target, key)
                and _overlap(k.slot[2], roles)
                and (k.effect.value, k.effect.action)
                != (setting.effect.value, setting.effect.action)
            ),
            None,
        )
        if rival_setting is None:
            # Equal values from several rules are kept: the planner merges them into one item.
            kept_settings.append(setting)
        else:
            result.undeclared.append(
                (rival_setting.rule.id, contribution.rule.id, f"{target} {key}")
            )
    setting_order = {id(c): i for i, c in enumerate(result.settings)}
    result.settings = sorted(kept_settings, key=lambda c: setting_order[id(c)])


def _overlap(a: tuple[Role, ...], b: tuple[Role, ...]) -> bool:
    return not a or not b or bool(set(a) & set(b))

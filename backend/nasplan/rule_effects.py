"""What a rule case asserts beyond "fired" or "silent": the rule's exact effects in the plan.

Where a rule fires, every effect it declares is in the plan and cites it: each setting (target
and key), each mount option (by option name, on every mount that serves one of its roles, for
the host's OS), each finding (severity), check (stage) and volume (role). The only excuse is a
conflict in ``conflicts.yaml`` that the rule loses to a rule the plan applies. Where a rule is
silent, nothing in the plan is its doing: no setting, option, check, volume or finding of its
own (a finding that names it as earlier advice is fine). Like semgrep's ``ruleid:``/``ok:``
pins, but read from the rule itself, so a case needs no copy of the effects.
"""

from __future__ import annotations

from nasplan.domain.plan import Plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.schema import Rule


def _option_name(option: str) -> str:
    return option.split("=", 1)[0]


def _overruled(kb: KnowledgeBase, rule_id: str, plan: Plan) -> bool:
    """The rule loses a declared conflict to a rule this plan applies."""
    applied = set(plan.applied_rules)
    return any(
        any(rule_id in side.rules for side in conflict.losers)
        and applied.intersection(conflict.winner.rules)
        for conflict in kb.conflicts
    )


def missing_effects(kb: KnowledgeBase, rule: Rule, plan: Plan) -> list[str]:
    """The effects of a fired rule that are not in the plan, in words."""
    rid, effects, missing = rule.id, rule.effects, []
    for setting in effects.settings:
        if not any(
            s.target == setting.target and s.key == setting.key and rid in s.rules
            for s in plan.settings
        ):
            missing.append(f"setting {setting.target} {setting.key}")
    for wanted in effects.mount_options:
        if wanted.os is not None and plan.platform.host.os not in wanted.os:
            continue
        for mount in plan.mounts:
            if not set(mount.serves) & set(wanted.roles):
                continue
            for option in wanted.options:
                name = _option_name(option)
                if not any(
                    _option_name(have) == name and rid in rules
                    for have, rules in mount.option_rules.items()
                ):
                    missing.append(f"option {option} on {mount.mount_point}")
    for finding in effects.findings:
        if not any(f.rule == rid and f.severity == finding.severity for f in plan.findings):
            missing.append(f"{finding.severity} finding")
    for check in effects.checks:
        if not any(rid in c.rules and c.stage == check.stage for c in plan.checks):
            missing.append(f"check '{check.what}'")
    for volume in effects.volumes:
        if not any(v.role == volume.role and rid in v.rules for v in plan.volumes):
            missing.append(f"{volume.role} volume")
    if missing and _overruled(kb, rid, plan):
        return []
    return missing


def stray_effects(rule_id: str, plan: Plan) -> list[str]:
    """What in the plan a silent rule is cited for, in words."""
    stray = [f"setting {s.target} {s.key}" for s in plan.settings if rule_id in s.rules]
    stray += [
        f"option {option} on {mount.mount_point}"
        for mount in plan.mounts
        for option, rules in mount.option_rules.items()
        if rule_id in rules
    ]
    stray += [f"{f.severity} finding" for f in plan.findings if f.rule == rule_id]
    stray += [f"check '{c.what}'" for c in plan.checks if rule_id in c.rules]
    stray += [f"{v.role} volume" for v in plan.volumes if rule_id in v.rules]
    return stray

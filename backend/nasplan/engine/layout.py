"""Volumes and mounts: which volume holds which roles, the mounts that serve them with the
options the composed rules give, in the OS's order, and rsize/wsize capped at the largest
transfer the client OS and the filer support. Pure, like the planner that calls it.
"""

from __future__ import annotations

from collections import defaultdict

from nasplan.domain.plan import Finding, Mount, Volume
from nasplan.domain.vocabulary import ROLES, Role
from nasplan.engine.compose import Composition
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import ResolvedPlatform
from nasplan.knowledge.schema import Rule

_ROLE_ORDER = {role: index for index, role in enumerate(ROLES)}


def plan_volumes(kb: KnowledgeBase, resolved: ResolvedPlatform, fired: list[Rule]) -> list[Volume]:
    holds: dict[Role, list[Role]] = {}
    rules: dict[Role, list[str]] = defaultdict(list)
    for rule in fired:
        for effect in rule.effects.volumes:
            current = holds.setdefault(effect.role, [])
            current.extend(r for r in effect.holds if r not in current)
            rules[effect.role].append(rule.id)
    layout = kb.layout.roles
    prefix = resolved.filer_family.export_prefix
    separator = resolved.filer_family.export_separator
    db_lower = resolved.platform.layout.db_name.lower()
    return [
        Volume(
            role=role,
            name=f"{db_lower}_{layout[role].volume_suffix}",
            holds=sorted(holds[role], key=_ROLE_ORDER.__getitem__),
            export=prefix + f"{db_lower}_{layout[role].volume_suffix}".replace("_", separator),
            rules=rules[role],
        )
        for role in sorted(holds, key=_ROLE_ORDER.__getitem__)
    ]


def plan_mounts(
    kb: KnowledgeBase,
    resolved: ResolvedPlatform,
    composition: Composition,
    volumes: list[Volume],
    cap_rule: Rule | None,
) -> tuple[list[Mount], list[Finding]]:
    """The mounts of the volumes, and the findings of any transfer size ``cap_rule`` (the fired
    rule with the ``transfer_size_caps`` model check, if any) lowered."""
    per_role: dict[Role, dict[str, list[str]]] = defaultdict(dict)
    for contribution in composition.options:
        rule_ids = per_role[contribution.role].setdefault(contribution.option, [])
        if contribution.rule.id not in rule_ids:
            rule_ids.append(contribution.rule.id)
    layout = kb.layout.roles
    filer = resolved.platform.layout.filer_host
    db = resolved.platform.layout.db_name
    mounts: list[Mount] = []
    for volume in volumes:
        groups: dict[frozenset[str], list[Role]] = {}
        for role in volume.holds:
            groups.setdefault(frozenset(per_role[role]), []).append(role)
        split = len(groups) > 1
        for roles in groups.values():
            lead = roles[0]
            option_rules: dict[str, list[str]] = {}
            for role in roles:
                for option, rule_ids in per_role[role].items():
                    merged = option_rules.setdefault(option, [])
                    merged.extend(r for r in rule_ids if r not in merged)
            export_path = volume.export + (f"/{layout[lead].subdir}" if split else "")
            options = _ordered(kb, resolved, option_rules)
            mounts.append(
                Mount(
                    role=lead,
                    serves=roles,
                    volume=volume.name,
                    mount_point=layout[lead].mount_point.format(db=db),
                    export=f"{filer}:{export_path}",
                    options=options,
                    rules=list(dict.fromkeys(r for o in options for r in option_rules[o])),
                    option_rules={o: option_rules[o] for o in options},
                )
            )
    if cap_rule is None:
        return mounts, []
    findings: list[Finding] = []
    return [_cap_transfer_sizes(kb, resolved, m, cap_rule, findings) for m in mounts], findings


def _ordered(
    kb: KnowledgeBase, resolved: ResolvedPlatform, option_rules: dict[str, list[str]]
) -> list[str]:
    index = kb.option_index
    os_name = resolved.platform.host.os

    def position(option: str) -> tuple[int, str]:
        entry = index.get((os_name, option.split("=", 1)[0]))
        return (entry.order if entry else 99, option)

    return sorted(option_rules, key=position)


def _cap_transfer_sizes(
    kb: KnowledgeBase,
    resolved: ResolvedPlatform,
    mount: Mount,
    cap_rule: Rule,
    findings: list[Finding],
) -> Mount:
    os_max = kb.os[resolved.platform.host.os].rsize_max
    filer_max = resolved.filer_family.max_xfer
    limit = min(os_max, filer_max) if filer_max else os_max
    options = list(mount.options)
    option_rules = dict(mount.option_rules)
    for index, option in enumerate(options):
        name, _, value = option.partition("=")
        if name not in ("rsize", "wsize") or not value.isdigit() or int(value) <= limit:
            continue
        capped = f"{name}={limit}"
        options[index] = capped
        option_rules[capped] = [*option_rules.pop(option), cap_rule.id]
        who = "the client OS" if limit == os_max else resolved.filer_family.label
        findings.append(
            Finding(
                severity="info",
                rule=cap_rule.id,
                message=f"{name} on {mount.mount_point} lowered from {value} to {limit}: "
                f"the largest transfer {who} supports.",
                related_rules=option_rules[capped][:-1],
            )
        )
    if options == mount.options:
        return mount
    return mount.model_copy(
        update={
            "options": options,
            "option_rules": option_rules,
            "rules": list(dict.fromkeys([*mount.rules, cap_rule.id])),
        }
    )

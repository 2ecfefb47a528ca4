"""Platform -> plan. Pure: no I/O, no web framework; the knowledge base is an argument.

Flow: resolve the platform against the catalog -> evaluate rules on the ``as_of`` date ->
compose their contributions (conflicts, forbidden options) -> lay out volumes and mounts ->
settings, findings, checks -> expectations -> explanations of every rule used.
"""

from __future__ import annotations

import datetime as dt
import string
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from nasplan.domain.plan import (
    Check,
    Finding,
    Mount,
    Plan,
    RuleExplanation,
    Setting,
    SourceCitation,
    SupersededRule,
    Volume,
    dnfs_path_count,
)
from nasplan.domain.platform import Platform
from nasplan.domain.vocabulary import ROLES, Role
from nasplan.engine.compose import Composition, composed
from nasplan.engine.evaluate import Evaluation, evaluate
from nasplan.engine.expectations import compute as compute_expectations
from nasplan.engine.lifecycle import certification_findings, lifecycle_findings
from nasplan.engine.sizing import size_volumes
from nasplan.engine.summary import summarize
from nasplan.engine.volume_group import volume_group_plan
from nasplan.engine.volume_qos import volume_qos_findings
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import ResolvedPlatform, resolve
from nasplan.knowledge.schema import Rule

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
_TARGET_ORDER = {"network": 0, "switch": 1, "filer": 2, "host": 3, "oracle": 4}
_ROLE_ORDER = {role: index for index, role in enumerate(ROLES)}


@dataclass(frozen=True)
class PlanResult:
    plan: Plan
    # Collisions between rules that conflicts.yaml does not declare: knowledge-base defects.
    undeclared: list[tuple[str, str, str]]


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def make_plan(kb: KnowledgeBase, platform: Platform, today: dt.date | None = None) -> Plan:
    return plan_with_diagnostics(kb, platform, today).plan


def plan_with_diagnostics(
    kb: KnowledgeBase, platform: Platform, today: dt.date | None = None
) -> PlanResult:
    resolved = resolve(kb, platform, today)
    evaluation = evaluate(kb, resolved)
    composition = composed(kb, platform.host.os, evaluation.fired)
    builder = _PlanBuilder(kb, resolved, evaluation, composition)
    return PlanResult(plan=builder.build(), undeclared=composition.undeclared)


class _PlanBuilder:
    def __init__(
        self,
        kb: KnowledgeBase,
        resolved: ResolvedPlatform,
        evaluation: Evaluation,
        composition: Composition,
    ) -> None:
        self.kb = kb
        self.resolved = resolved
        self.platform = resolved.platform
        self.evaluation = evaluation
        self.composition = composition
        self.fired = {rule.id: rule for rule in evaluation.fired}
        self.findings: list[Finding] = []
        self.context = message_context(kb, resolved)

    # ---------------------------------------------------------------- layout
    def volumes(self) -> list[Volume]:
        holds: dict[Role, list[Role]] = {}
        rules: dict[Role, list[str]] = defaultdict(list)
        for rule in self.evaluation.fired:
            for effect in rule.effects.volumes:
                current = holds.setdefault(effect.role, [])
                current.extend(r for r in effect.holds if r not in current)
                rules[effect.role].append(rule.id)
        layout = self.kb.layout.roles
        prefix = self.resolved.filer_family.export_prefix
        separator = self.resolved.filer_family.export_separator
        db_lower = self.platform.layout.db_name.lower()
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

    def mounts(self, volumes: list[Volume]) -> list[Mount]:
        per_role: dict[Role, dict[str, list[str]]] = defaultdict(dict)
        for contribution in self.composition.options:
            rule_ids = per_role[contribution.role].setdefault(contribution.option, [])
            if contribution.rule.id not in rule_ids:
                rule_ids.append(contribution.rule.id)
        layout = self.kb.layout.roles
        filer = self.platform.layout.filer_host
        db = self.platform.layout.db_name
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
                options = self._ordered(option_rules)
                mounts.append(
                    Mount(
                        role=lead,
                        serves=roles,
                        volume=volume.name,
                        mount_point=layout[lead].mount_point.format(db=db),
                        export=f"{filer}:{export_path}",
                        options=options,
                        rules=_unique(r for o in options for r in option_rules[o]),
                        option_rules={o: option_rules[o] for o in options},
                    )
                )
        return [self._cap_transfer_sizes(m) for m in mounts]

    def _ordered(self, option_rules: dict[str, list[str]]) -> list[str]:
        index = self.kb.option_index
        os_name = self.platform.host.os

        def position(option: str) -> tuple[int, str]:
            entry = index.get((os_name, option.split("=", 1)[0]))
            return (entry.order if entry else 99, option)

        return sorted(option_rules, key=position)

    def _cap_transfer_sizes(self, mount: Mount) -> Mount:
        cap_rule = self._model_check_rule("transfer_size_caps")
        if cap_rule is None:
            return mount
        os_max = self.kb.os[self.platform.host.os].rsize_max
        filer_max = self.resolved.filer_family.max_xfer
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
            who = "the client OS" if limit == os_max else self.resolved.filer_family.label
            self.findings.append(
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
                "rules": _unique([*mount.rules, cap_rule.id]),
            }
        )

    # -------------------------------------------------------------- settings
    def settings(self, volumes: list[Volume]) -> list[Setting]:
        merged: dict[tuple[Any, ...], Setting] = {}
        for contribution in self.composition.settings:
            effect = contribution.effect
            applies_to = sorted(
                v.name for v in volumes if effect.roles and set(v.holds) & set(effect.roles)
            )
            scope = effect.scope.format_map(_Blank(self.context)) if effect.scope else None
            slot = (
                effect.target,
                effect.key,
                effect.action,
                effect.value,
                tuple(applies_to),
                scope,
            )
            existing = merged.get(slot)
            if existing is None:
                merged[slot] = Setting(
                    target=effect.target,
                    key=effect.key,
                    value=effect.value,
                    action=effect.action,
                    mechanism=effect.mechanism,
                    applies_to=applies_to,
                    requires=effect.requires,
                    scope=scope,
                    rules=[contribution.rule.id],
                )
            elif contribution.rule.id not in existing.rules:
                merged[slot] = existing.model_copy(
                    update={"rules": [*existing.rules, contribution.rule.id]}
                )
        return sorted(merged.values(), key=lambda s: (_TARGET_ORDER[s.target], s.key, s.applies_to))

    # -------------------------------------------------------------- findings
    def rule_findings(self) -> None:
        for rule in self.evaluation.fired:
            for effect in rule.effects.findings:
                message = string.Formatter().vformat(effect.message, (), _Blank(self.context))
                self.findings.append(
                    Finding(severity=effect.severity, rule=rule.id, message=message)
                )
            if "os_arch_supported" in rule.effects.model_checks:
                self._check_arch(rule)
            if "vendor_lifecycle" in rule.effects.model_checks:
                self.findings += lifecycle_findings(self.kb, self.resolved, rule.id)
            if "oracle_os_certified" in rule.effects.model_checks:
                self.findings += certification_findings(self.kb, self.resolved, rule.id)
        for old_id, new_ids in self.evaluation.superseded.items():
            old = self.kb.rules[old_id]
            for new_id in new_ids:
                new = self.kb.rules[new_id]
                self.findings.append(
                    Finding(
                        severity="info",
                        rule=new_id,
                        message=f"Advice changed on {new.effective_from.isoformat()}: "
                        f"\u201c{old.title}\u201d ({_cite(self.kb, old)}) was replaced by "
                        f"\u201c{new.title}\u201d ({_cite(self.kb, new)}).",
                        related_rules=[old_id],
                    )
                )
        for outcome in self.composition.conflicts:
            conflict = outcome.conflict
            losers = "; ".join(side.position for side in conflict.losers)
            self.findings.append(
                Finding(
                    severity=conflict.severity,
                    rule=outcome.winners[0],
                    message=f"Sources disagree on {conflict.topic}. Followed: "
                    f"{conflict.winner.position} Set aside: {losers} Why: {conflict.reason}",
                    related_rules=[*outcome.winners[1:], *outcome.losers],
                )
            )
        for blocker, dropped, role, option in self.composition.withheld:
            self.findings.append(
                Finding(
                    severity="info",
                    rule=blocker,
                    message=f"{option} is not used on the {role} mount.",
                    related_rules=[dropped],
                )
            )
        for kept, dropped, what in self.composition.undeclared:
            if any(f.rule == kept and dropped in f.related_rules for f in self.findings):
                continue
            self.findings.append(
                Finding(
                    severity="warning",
                    rule=kept,
                    message=f"Two rules disagree on {what} and the knowledge base does not say "
                    f"which wins; nasplan followed the stronger, newer rule. Please report it.",
                    related_rules=[dropped],
                )
            )

    def _check_arch(self, rule: Rule) -> None:
        host = self.platform.host
        entry = self.kb.os[host.os]
        if host.arch not in entry.arches:
            self.findings.append(
                Finding(
                    severity="error",
                    rule=rule.id,
                    message=f"{entry.label} does not run on {host.arch}: choose "
                    f"{' or '.join(entry.arches)} for host.arch, or another OS.",
                )
            )

    def _model_check_rule(self, name: str) -> Rule | None:
        return next((r for r in self.evaluation.fired if name in r.effects.model_checks), None)

    def checks(self) -> list[Check]:
        keys = (self.platform.host.os, self.resolved.filer_family.id, "any")
        found: list[Check] = []
        for rule in self.evaluation.fired:
            for effect in rule.effects.checks:
                command = next((effect.commands[k] for k in keys if k in effect.commands), None)
                if command is None:
                    continue
                found.append(
                    Check(
                        what=effect.what,
                        where=effect.where,
                        command=command.format_map(_Blank(self.context)),
                        expect=effect.expect.format_map(_Blank(self.context)),
                        rules=[rule.id],
                        stage=effect.stage,
                    )
                )
        return found

    # ----------------------------------------------------------- expectations
    def expectation_findings(self, settings: list[Setting], expectations: Any) -> None:
        bdp_rule = self._model_check_rule("tcp_window_vs_bdp")
        if bdp_rule is not None:
            bdp = (
                f"the bandwidth-delay product of this path ({expectations.tcp_window_bytes} "
                f"bytes at {expectations.rtt_us:g} us round trip)"
            )
            host_window = _planned_receive_window(settings)
            if host_window is not None and host_window < expectations.tcp_window_bytes:
                self.findings.append(
                    Finding(
                        severity="warning",
                        rule=bdp_rule.id,
                        message=f"The planned TCP receive window ({host_window} bytes) is "
                        f"smaller than {bdp}: one connection cannot fill the link.",
                    )
                )
            filer_window = _planned_filer_receive_window(settings)
            if filer_window is not None and filer_window < expectations.tcp_window_bytes:
                self.findings.append(
                    Finding(
                        severity="warning",
                        rule=bdp_rule.id,
                        message=f"The filer's NFS TCP receive window ({filer_window} bytes, "
                        f"nfs.tcp.recvwindowsize) is smaller than {bdp}: writes over one "
                        f"connection cannot fill the link. The value comes from guidance written "
                        f"for GbE; raise it to at least the bandwidth-delay product after "
                        f"checking the largest value your Data ONTAP release accepts.",
                        related_rules=_unique(
                            r
                            for s in settings
                            if s.key == "nfs.tcp.recvwindowsize"
                            for r in s.rules
                        ),
                    )
                )
        serial_rule = self._model_check_rule("serial_client")
        if serial_rule is not None and expectations.serial_client:
            self.findings.append(
                Finding(
                    severity="info",
                    rule=serial_rule.id,
                    message=f"The {self.kb.os[self.platform.host.os].label} kernel NFS client "
                    f"keeps one request in flight per stream: a single serial scan is expected "
                    f"at about {expectations.single_stream_mb_s:g} MB/s of a "
                    f"{expectations.nic_payload_ceiling_mb_s:g} MB/s link.",
                )
            )

    # ------------------------------------------------------------- assemble
    def build(self) -> Plan:
        volumes = self.volumes()
        mounts = self.mounts(volumes)
        settings = self.settings(volumes)
        self.rule_findings()
        data_mount = next((m for m in mounts if "data" in m.serves), None)
        rsize = _option_int(data_mount.options if data_mount else [], "rsize") or 32768
        direct_io = (
            self.platform.oracle.dnfs
            or bool(data_mount and "forcedirectio" in data_mount.options)
            or any(
                s.key == "filesystemio_options" and s.value in ("setall", "directio")
                for s in settings
            )
        )
        model_rules = [
            r.id
            for r in self.evaluation.fired
            if {"expectations_model", "serial_client", "tcp_window_vs_bdp"}
            & set(r.effects.model_checks)
        ]
        dnfs_paths = dnfs_path_count(self.platform.network.nic_count, settings)
        expectations = compute_expectations(
            self.kb, self.resolved, rsize, direct_io, model_rules, dnfs_paths
        )
        self.expectation_findings(settings, expectations)
        volumes, capacity = size_volumes(
            self.kb,
            self.platform,
            volumes,
            self.resolved.filer_family,
            expectations.planned_scan_mb_s,
        )
        qos_rule = self._model_check_rule("anf_volume_qos")
        if qos_rule is not None:
            self.findings += volume_qos_findings(self.resolved, volumes, qos_rule.id)
        group_rule = self._model_check_rule("anf_volume_group")
        group = None
        if group_rule is not None:
            group, group_findings = volume_group_plan(self.platform, volumes, group_rule.id)
            self.findings += group_findings
        findings = sorted(
            _dedupe(self.findings), key=lambda f: (_SEVERITY_ORDER[f.severity], f.rule, f.message)
        )
        checks = self.checks()
        superseded = [self._superseded(old, new) for old, new in self.evaluation.superseded.items()]
        used = _unique(
            [
                *(r for v in volumes for r in v.rules),
                *(r for m in mounts for r in m.rules),
                *(r for s in settings for r in s.rules),
                *(f.rule for f in findings),
                *(r for f in findings for r in f.related_rules),
                *(r for c in checks for r in c.rules),
                *expectations.rules,
                *(s.rule for s in superseded),
                *(r for s in superseded for r in s.by),
            ]
        )
        plan = Plan(
            kb_version=self.kb.version,
            as_of=self.resolved.as_of,
            platform=self.platform,
            volumes=volumes,
            mounts=mounts,
            settings=settings,
            findings=findings,
            checks=checks,
            expectations=expectations,
            rules={rule_id: explain(self.kb, rule_id) for rule_id in sorted(used)},
            superseded=superseded,
            applied_rules=[rule.id for rule in self.evaluation.fired],
            capacity=capacity,
            volume_group=group,
        )
        conflicts = [(o.conflict, o.winners[0]) for o in self.composition.conflicts]
        return plan.model_copy(update={"summary": summarize(plan, conflicts)})

    def _superseded(self, old_id: str, new_ids: list[str]) -> SupersededRule:
        old = self.kb.rules[old_id]
        newest = [self.kb.rules[n] for n in new_ids]
        replaced_on = min(r.effective_from for r in newest)
        reason = " ".join(r.rationale.split(". ")[0].rstrip(".") + "." for r in newest)
        return SupersededRule(
            rule=old_id,
            title=old.title,
            by=new_ids,
            effective_from=old.effective_from,
            replaced_on=replaced_on,
            reason=reason,
        )


def message_context(kb: KnowledgeBase, resolved: ResolvedPlatform) -> dict[str, str]:
    """Values rule messages, checks and setting scopes may name as {placeholders}."""
    p = resolved.platform
    vendor = kb.filers.vendors[p.filer.vendor]
    return {
        "db_name": p.layout.db_name,
        "os_label": kb.os[p.host.os].label,
        "os_release": resolved.os_release.label,
        "oracle_version": p.oracle.version,
        "filer_label": vendor.label,
        "filer_release": p.filer.os_version or "",
        "filer_host": p.layout.filer_host,
        "nic_gbps": str(p.network.nic_gbps),
        "nic_interface": resolved.nic_interface,
        "filer_interface": p.filer.interface or "<filer-interface>",
        "memory": f"the {p.host.memory_gb} GB of" if p.host.memory_gb else "the host's",
    }


@lru_cache(maxsize=1024)
def explain(kb: KnowledgeBase, rule_id: str) -> RuleExplanation:
    """The reader-facing summary of a rule (rules never change within a knowledge base)."""
    rule = kb.rules[rule_id]
    return RuleExplanation(
        id=rule.id,
        title=rule.title,
        category=rule.category,
        severity=rule.severity,
        confidence=rule.confidence,
        rationale=rule.rationale.strip(),
        sources=[
            SourceCitation(
                id=ref.id,
                title=kb.sources[ref.id].title,
                locator=ref.locator,
                published=ref.edition or kb.sources[ref.id].published,
            )
            for ref in rule.sources
        ],
        effective_from=rule.effective_from,
        date_confidence=rule.date_confidence,
        date_note=rule.date_note,
        supersedes=rule.supersedes,
    )


def _cite(kb: KnowledgeBase, rule: Rule) -> str:
    ref = rule.sources[0]
    source = kb.sources[ref.id]
    label = source.number or source.title
    return f"{label}, {rule.effective_from:%B %Y}"


def _option_int(options: list[str], name: str) -> int | None:
    for option in options:
        key, _, value = option.partition("=")
        if key == name and value.isdigit():
            return int(value)
    return None


def _planned_receive_window(settings: list[Setting]) -> int | None:
    for setting in settings:
        if setting.key in ("tcp_recv_hiwat", "tcp_recvspace"):
            return int(setting.value) if setting.value.isdigit() else None
        if setting.key == "net.ipv4.tcp_rmem":
            return int(setting.value.split()[-1])
    return None


def _planned_filer_receive_window(settings: list[Setting]) -> int | None:
    for setting in settings:
        if setting.target == "filer" and setting.key == "nfs.tcp.recvwindowsize":
            return int(setting.value) if setting.value.isdigit() else None
    return None


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _dedupe(findings: list[Finding]) -> list[Finding]:
    return list({(f.severity, f.rule, f.message): f for f in findings}.values())

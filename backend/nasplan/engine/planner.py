"""Platform -> plan. Pure: no I/O, no web framework; the knowledge base is an argument.

Flow: resolve the platform against the catalog -> evaluate rules on the ``as_of`` date ->
compose their contributions (conflicts, forbidden options) -> lay out volumes and mounts ->
settings, findings, checks -> expectations -> explanations of every rule used.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from nasplan.domain.plan import (
    Check,
    Finding,
    Plan,
    Setting,
    Volume,
    dnfs_path_count,
    kernel_nfs_path_count,
)
from nasplan.domain.plan_explanations import RuleExplanation, SourceCitation, SupersededRule
from nasplan.domain.platform import Platform
from nasplan.engine.compose import Composition, composed
from nasplan.engine.evaluate import Evaluation, evaluate
from nasplan.engine.expectations import compute as compute_expectations
from nasplan.engine.findings import expectation_findings, rule_findings
from nasplan.engine.layout import plan_mounts, plan_volumes
from nasplan.engine.messages import Blank, message_context
from nasplan.engine.path_spread import spread_over_paths
from nasplan.engine.sizing import size_volumes
from nasplan.engine.summary import summarize
from nasplan.engine.volume_group import volume_group_plan
from nasplan.engine.volume_qos import volume_qos_findings
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import ResolvedPlatform, resolve
from nasplan.knowledge.schema import Rule

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
_TARGET_ORDER = {"network": 0, "switch": 1, "filer": 2, "host": 3, "oracle": 4}


@dataclass(frozen=True)
class PlanResult:
    plan: Plan
    # Collisions between rules that conflicts.yaml does not declare: knowledge-base defects.
    undeclared: list[tuple[str, str, str]]


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

    # -------------------------------------------------------------- settings
    def settings(self, volumes: list[Volume]) -> list[Setting]:
        merged: dict[tuple[Any, ...], Setting] = {}
        for contribution in self.composition.settings:
            effect = contribution.effect
            applies_to = sorted(
                v.name for v in volumes if effect.roles and set(v.holds) & set(effect.roles)
            )
            scope = effect.scope.format_map(Blank(self.context)) if effect.scope else None
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
                    at_least=effect.at_least,
                )
            elif contribution.rule.id not in existing.rules:
                # A minimum only where every rule that sets the value gives it as one.
                merged[slot] = existing.model_copy(
                    update={
                        "rules": [*existing.rules, contribution.rule.id],
                        "at_least": existing.at_least and effect.at_least,
                    }
                )
        return sorted(merged.values(), key=lambda s: (_TARGET_ORDER[s.target], s.key, s.applies_to))

    # ---------------------------------------------------------------- checks
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
                        command=command.format_map(Blank(self.context)),
                        expect=effect.expect.format_map(Blank(self.context)),
                        rules=[rule.id],
                        stage=effect.stage,
                    )
                )
        return found

    # ------------------------------------------------------------- assemble
    def build(self) -> Plan:
        volumes = plan_volumes(self.kb, self.resolved, self.evaluation.fired)
        mounts, cap_findings = plan_mounts(
            self.kb,
            self.resolved,
            self.composition,
            volumes,
            self._model_check_rule("transfer_size_caps"),
        )
        self.findings += cap_findings
        spread_rule = self._model_check_rule("knfs_path_spread")
        if spread_rule is not None:
            volumes, mounts, spread_findings = spread_over_paths(
                self.kb, self.resolved, volumes, mounts, spread_rule.id
            )
            self.findings += spread_findings
        settings = self.settings(volumes)
        self.findings += rule_findings(
            self.kb,
            self.resolved,
            self.evaluation,
            self.composition,
            self.context,
            self.findings,
        )
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
        knfs_paths = kernel_nfs_path_count(mounts)
        data_paths = len({m.path for m in mounts if "data" in m.serves and m.path}) or 1
        expectations = compute_expectations(
            self.kb,
            self.resolved,
            rsize,
            direct_io,
            model_rules,
            dnfs_paths,
            knfs_paths,
            data_paths,
        )
        self.findings += expectation_findings(
            self.kb,
            self.platform,
            settings,
            expectations,
            self._model_check_rule("tcp_window_vs_bdp"),
            self._model_check_rule("serial_client"),
        )
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


def _option_int(options: list[str], name: str) -> int | None:
    for option in options:
        key, _, value = option.partition("=")
        if key == name and value.isdigit():
            return int(value)
    return None


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _dedupe(findings: list[Finding]) -> list[Finding]:
    return list({(f.severity, f.rule, f.message): f for f in findings}.values())

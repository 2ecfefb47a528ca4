"""``nasplan kb check [PATH]``: load a knowledge folder as the app would and run every rule's own
cases, naming the file and key of each problem, so an editor finds out before the test suite does.

It sits above the layers it uses: the loader (every file valid, every id it names known, each
rule in the folder of its category), the audit (the rules it names exist), the generated
reference pages (up to date), the engine (each case fires or stays silent as it says, with no
collision conflicts.yaml does not declare).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from nasplan.audit.rule_ids import AUDIT_RULE_IDS
from nasplan.domain.platform import Platform
from nasplan.engine.planner import plan_with_diagnostics
from nasplan.kb_docs import stale_docs
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.cross_check import check_rule_cases
from nasplan.knowledge.loader import KnowledgeError, load_knowledge
from nasplan.knowledge.merge import deep_merge
from nasplan.knowledge.resolve import CatalogError
from nasplan.knowledge.schema import Rule, RuleCase
from nasplan.rule_effects import missing_effects, stray_effects

Expected = Literal["fires", "silent"]


@dataclass
class KbReport:
    rules: int = 0
    cases: int = 0
    problems: list[str] = field(default_factory=list)


def check_knowledge(root: Path, today: dt.date) -> KbReport:
    try:
        kb = load_knowledge(root)
    except KnowledgeError as exc:
        return KbReport(problems=exc.problems)
    report = KbReport(rules=len(kb.rules), problems=check_rule_cases(kb))
    report.problems += [
        f"knowledge/rules: rule {rule_id} is missing; the audit names it in its findings "
        "(backend/nasplan/audit/rule_ids.py)"
        for rule_id in AUDIT_RULE_IDS
        if rule_id not in kb.rules
    ]
    report.problems += [
        f"{root / path}: out of date; run 'nasplan kb docs'" for path in stale_docs(root, kb)
    ]
    if report.problems:
        return report
    for rule in kb.rules.values():
        kinds: tuple[tuple[Expected, list[RuleCase]], ...] = (
            ("fires", rule.tests.fires),
            ("silent", rule.tests.silent),
        )
        for expected, cases in kinds:
            for index, case in enumerate(cases):
                report.cases += 1
                where = f"knowledge/rules/{rule.category}/{rule.id}.yaml: field tests.{expected}"
                report.problems += case_problems(
                    kb, rule, case, expected, f"{where}[{index}]", today
                )
    return report


def case_problems(
    kb: KnowledgeBase,
    rule: Rule,
    case: RuleCase,
    expected: Expected,
    where: str,
    today: dt.date,
) -> list[str]:
    data = deep_merge(kb.presets[case.preset].platform, case.patch)
    if case.as_of is not None:
        data["as_of"] = case.as_of.isoformat()
    try:
        result = plan_with_diagnostics(kb, Platform.model_validate(data), today)
    except (ValidationError, CatalogError) as exc:
        return [f"{where} ({case.name}): not a valid platform: {exc}"]
    problems = []
    plan = result.plan
    applied = rule.id in plan.applied_rules
    if applied != (expected == "fires"):
        problems.append(
            f"{where} ({case.name}): the rule "
            + ("did not fire" if expected == "fires" else "fired")
        )
    elif applied:
        problems += [
            f"{where} ({case.name}): the rule fired but its {what} is not in the plan"
            for what in missing_effects(kb, rule, plan)
        ]
    else:
        problems += [
            f"{where} ({case.name}): the rule is silent but the plan cites it for {what}"
            for what in stray_effects(rule.id, plan)
        ]
    problems += [
        f"{where} ({case.name}): {kept} and {dropped} collide on {what}, and "
        "knowledge/conflicts.yaml does not say which wins"
        for kept, dropped, what in result.undeclared
    ]
    return problems

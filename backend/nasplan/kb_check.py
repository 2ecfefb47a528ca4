"""``nasplan kb check [PATH]``: load a knowledge folder as the app would and run every rule's own
cases, naming the file and key of each problem, so an editor finds out before the test suite does.

It sits above the layers it uses: the loader (every file valid, every id it names known, each
rule in the folder of its category), the engine (each case fires or stays silent as it says,
with no collision conflicts.yaml does not declare).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from nasplan.domain.platform import Platform
from nasplan.engine.planner import plan_with_diagnostics
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.cross_check import check_rule_cases
from nasplan.knowledge.loader import KnowledgeError, load_knowledge
from nasplan.knowledge.merge import deep_merge
from nasplan.knowledge.resolve import CatalogError
from nasplan.knowledge.schema import Rule, RuleCase

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
                report.problems += _run_case(kb, rule, case, expected, f"{where}[{index}]", today)
    return report


def _run_case(
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
    applied = rule.id in result.plan.applied_rules
    if applied != (expected == "fires"):
        problems.append(
            f"{where} ({case.name}): the rule "
            + ("did not fire" if expected == "fires" else "fired")
        )
    problems += [
        f"{where} ({case.name}): {kept} and {dropped} collide on {what}, and "
        "knowledge/conflicts.yaml does not say which wins"
        for kept, dropped, what in result.undeclared
    ]
    return problems

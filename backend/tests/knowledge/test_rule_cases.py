"""Every rule fires where its own test cases say it should, and stays silent where it should not.

A rule "fires" when it is in effect for the platform on the case's date and no newer rule
replaces it there (``plan.applied_rules``). Each case is also checked for collisions between
rules that conflicts.yaml does not declare.
"""

from __future__ import annotations

import pytest

from nasplan.engine.planner import plan_with_diagnostics
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import load_knowledge
from nasplan.knowledge.schema import RuleCase
from tests.conftest import TODAY, preset_platform

_KB = load_knowledge()
CASES = [
    pytest.param(rule_id, expected, case, id=f"{rule_id}-{expected}-{index}")
    for rule_id, rule in _KB.rules.items()
    for expected, cases in (("fires", rule.tests.fires), ("silent", rule.tests.silent))
    for index, case in enumerate(cases)
]


@pytest.mark.parametrize(("rule_id", "expected", "case"), CASES)
def test_rule_case(kb: KnowledgeBase, rule_id: str, expected: str, case: RuleCase) -> None:
    platform = preset_platform(kb, case.preset, case.patch, case.as_of)
    result = plan_with_diagnostics(kb, platform, TODAY)
    applied = rule_id in result.plan.applied_rules
    assert applied == (expected == "fires"), f"{case.name}: applied={applied}"
    assert result.undeclared == []
    if applied:
        rule = kb.rules[rule_id]
        produced = bool(
            rule.effects.findings
            or rule.effects.settings
            or rule.effects.volumes
            or rule.effects.checks
            or rule.effects.mount_options
        )
        if produced:
            assert rule_id in result.plan.rules, f"{case.name}: {rule_id} left no trace"


def test_every_rule_has_both_kinds_of_case(kb: KnowledgeBase) -> None:
    for rule in kb.rules.values():
        assert rule.tests.fires and rule.tests.silent, rule.id

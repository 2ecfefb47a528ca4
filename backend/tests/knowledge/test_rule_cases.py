"""Every rule fires where its own test cases say it should, with all its effects in the plan, and
stays silent where it should not, with nothing in the plan of its doing.

A rule "fires" when it is in effect for the platform on the case's date and no newer rule
replaces it there (``plan.applied_rules``). Each case is also checked for collisions between
rules that conflicts.yaml does not declare. The checks are those of ``nasplan kb check``
(``nasplan/kb_check.py``, ``nasplan/rule_effects.py``).
"""

from __future__ import annotations

import pytest

from nasplan.engine.planner import make_plan
from nasplan.kb_check import Expected, case_problems
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import load_knowledge
from nasplan.knowledge.schema import Rule, RuleCase, SettingEffect
from nasplan.rule_effects import missing_effects, stray_effects
from tests.conftest import TODAY, preset_platform

_KB = load_knowledge()
CASES = [
    pytest.param(rule_id, expected, case, id=f"{rule_id}-{expected}-{index}")
    for rule_id, rule in _KB.rules.items()
    for expected, cases in (("fires", rule.tests.fires), ("silent", rule.tests.silent))
    for index, case in enumerate(cases)
]


@pytest.mark.parametrize(("rule_id", "expected", "case"), CASES)
def test_rule_case(kb: KnowledgeBase, rule_id: str, expected: Expected, case: RuleCase) -> None:
    rule = kb.rules[rule_id]
    assert case_problems(kb, rule, case, expected, f"{rule_id} {expected}", TODAY) == []


def _with_extra_setting(rule: Rule) -> Rule:
    extra = SettingEffect(target="host", key="vm.not_a_setting", value="1", mechanism="sysctl")
    effects = rule.effects.model_copy(update={"settings": [*rule.effects.settings, extra]})
    return rule.model_copy(update={"effects": effects})


def test_an_effect_missing_from_the_plan_is_named(kb: KnowledgeBase) -> None:
    rule = kb.rules["NTAP-MINRA-OFF"]
    case = rule.tests.fires[0]
    plan = make_plan(kb, preset_platform(kb, case.preset, case.patch, case.as_of), TODAY)
    assert missing_effects(kb, rule, plan) == []
    assert missing_effects(kb, _with_extra_setting(rule), plan) == ["setting host vm.not_a_setting"]


def test_a_silent_rule_the_plan_cites_is_named(kb: KnowledgeBase) -> None:
    rule = kb.rules["NTAP-MINRA-OFF"]
    fired = rule.tests.fires[0]
    plan = make_plan(kb, preset_platform(kb, fired.preset, fired.patch, fired.as_of), TODAY)
    # Read against a plan where it fired, a "silent" rule is cited for its filer setting.
    assert "setting filer minra" in stray_effects(rule.id, plan)
    silent = rule.tests.silent[0]
    quiet = make_plan(kb, preset_platform(kb, silent.preset, silent.patch, silent.as_of), TODAY)
    assert stray_effects(rule.id, quiet) == []


def test_a_rule_that_loses_a_declared_conflict_is_excused(kb: KnowledgeBase) -> None:
    loser = next(
        kb.rules[rid]
        for conflict in kb.conflicts
        for side in conflict.losers
        for rid in side.rules
        if kb.rules[rid].effects.settings or kb.rules[rid].effects.mount_options
    )
    case = loser.tests.fires[0]
    plan = make_plan(kb, preset_platform(kb, case.preset, case.patch, case.as_of), TODAY)
    overruled = any(
        loser.id in side.rules and set(plan.applied_rules) & set(c.winner.rules)
        for c in kb.conflicts
        for side in c.losers
    )
    with_extra = missing_effects(kb, _with_extra_setting(loser), plan)
    assert (with_extra == []) == overruled

"""A migration whose Oracle home is on the filer: the backout unmounts that home before it starts
the database again, so it must first send the database back to the home it ran from before."""

from __future__ import annotations

import pytest

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from nasplan.renderers.common import BundleMeta
from nasplan.renderers.runbook import build_runbook
from nasplan.renderers.runbook_view import StepView


def _backout(kb: KnowledgeBase, preset: str, layout: dict[str, str]) -> list[StepView]:
    data = deep_merge(kb.presets[preset].platform, {"layout": layout})
    view = build_runbook(make_plan(kb, Platform.model_validate(data)), BundleMeta())
    return next(p for p in view.phases if p.key == "rollback").steps


def _home_note(step: StepView) -> list[str]:
    return [n for n in step.notes if "Oracle home" in n]


@pytest.mark.parametrize("preset", ["current-rac", "tr3322-lab"])
def test_the_backout_returns_to_the_original_home_before_it_unmounts_the_filer_home(
    kb: KnowledgeBase, preset: str
) -> None:
    steps = _backout(kb, preset, {"oracle_home": "nas"})
    back = next(s for s in steps if s.title.startswith("Point the database back"))
    unmount = next(s for s in steps if any(c == "umount /u01/app/oracle" for c in s.commands))
    start = next(s for s in steps if s.outage == "start")
    assert steps.index(back) < steps.index(unmount) < steps.index(start)
    [note] = _home_note(back)
    assert "/u01/app/oracle" in note and "unmounts" in note and "before" in note
    if preset == "current-rac":
        assert "Clusterware" in note


def test_a_local_home_has_nothing_to_return_to(kb: KnowledgeBase) -> None:
    steps = _backout(kb, "current-rac", {"oracle_home": "local"})
    back = next(s for s in steps if s.title.startswith("Point the database back"))
    assert _home_note(back) == []

"""The runbook's order is safe on every platform kind (issue 29's "done means"): every OS x filer
family x RAC x Direct NFS combination, RAC with shared and with local Oracle homes, migration and
new build.

What each runbook must hold, read from the step markers (stop, start, rolling) and the files the
steps run, not from one platform's wording:
- every step that needs the database down (a relink, moving or pointing back the files, the host
  rollback that unmounts) lies between a stop and the start after it, or is a rolling step of
  its own (local homes: one node at a time), never inside a full outage;
- a phase that stops the database ends with it started again: the backout restores service;
- SQL*Plus SHUTDOWN only where no srvctl step is cited (single instance, or RAC before 12.1), and
  srvctl only on RAC;
- a new MTU is gated on every path before anything mounts over it;
- verification runs after the database is started, and the backout's network steps come after
  the host is back on its old settings (lower the MTU at the ends before the path).
"""

from __future__ import annotations

from typing import Any

import pytest

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from nasplan.renderers.common import BundleMeta
from nasplan.renderers.runbook import build_runbook
from nasplan.renderers.runbook_view import PhaseView, RunbookView, StepView
from tests.renderers.matrix import COMBOS, combo_id, combo_platform

# Files whose scripts refuse to run, or must not run, while an instance has the files open.
NEEDS_DOWN_FILES = {
    "oracle/enable_dnfs.sh",
    "rollback/oracle_rollback.sh",
    "rollback/host_rollback.sh",
}
# Manual steps that move the database's files: no script to recognise them by.
NEEDS_DOWN_TITLES = ("Move the database's files", "Point the database back")


def _needs_down(step: StepView) -> bool:
    return step.file in NEEDS_DOWN_FILES or step.title.startswith(NEEDS_DOWN_TITLES)


def _runbook(kb: KnowledgeBase, platform: Platform) -> RunbookView:
    return build_runbook(make_plan(kb, platform), BundleMeta())


def _phase(view: RunbookView, key: str) -> PhaseView | None:
    return next((p for p in view.phases if p.key == key), None)


def _check_outage_order(phase: PhaseView, rac: bool, new_build: bool = False) -> list[str]:
    """What is wrong with the phase's outage order, in words (empty: nothing).

    A new build has nothing in service: its Oracle phase runs before any database exists, and
    its backout stops the new database, if one was created, and leaves it stopped."""
    problems: list[str] = []
    down = new_build and phase.key == "oracle"
    for step in phase.steps:
        if new_build and step.title.startswith("Stop the new database"):
            down = True
            continue
        if new_build and step.title.startswith("Create the database"):
            down = False
            continue
        if step.outage == "stop":
            if down:
                problems.append(f"{step.number} stops a database already stopped")
            down = True
        elif step.outage == "start":
            if not down:
                problems.append(f"{step.number} starts a database never stopped")
            down = False
        elif step.outage == "rolling":
            # Self-contained: each node's instance stops, its home relinks, it starts again.
            if down:
                problems.append(f"{step.number} rolls inside a full outage")
        elif _needs_down(step) and not down:
            problems.append(f"{step.number} ({step.title}) runs with the database open")
        sql_stop = any(c.startswith(("SHUTDOWN", "STARTUP")) for c in step.commands)
        srvctl = any(c.startswith("srvctl") for c in step.commands)
        if srvctl and not rac:
            problems.append(f"{step.number} uses srvctl on a single instance")
        if sql_stop and srvctl:
            problems.append(f"{step.number} mixes SQL*Plus and srvctl")
    if down and not new_build:
        problems.append(f"phase {phase.number} ends with the database down")
    return problems


def _check_whole_runbook(view: RunbookView, rac: bool, new_build: bool = False) -> list[str]:
    problems: list[str] = []
    for key in ("oracle", "rollback"):
        phase = _phase(view, key)
        if phase is not None:
            problems += _check_outage_order(phase, rac, new_build)
    steps = [s for p in view.phases for s in p.steps]
    mounts = [i for i, s in enumerate(steps) if s.file == "host/mounts.sh"]
    gates = [
        i
        for i, s in enumerate(steps)
        if s.title.startswith("Go/no-go: every storage path carries the new MTU")
    ]
    network = _phase(view, "network")
    changes_mtu = network is not None and any("MTU" in s.title for s in network.steps)
    if changes_mtu and not gates:
        problems.append("a new MTU with no per-path gate")
    if gates and mounts and not gates[0] < mounts[0]:
        problems.append("the MTU gate comes after the first mount")
    oracle = _phase(view, "oracle")
    verify = _phase(view, "verify")
    if oracle and verify and oracle.number > verify.number:
        problems.append("verification runs before the Oracle phase")
    rollback = _phase(view, "rollback")
    if rollback is not None:
        host = [i for i, s in enumerate(rollback.steps) if s.file == "rollback/host_rollback.sh"]
        switch = [i for i, s in enumerate(rollback.steps) if s.title.startswith("Switches")]
        if host and switch and not host[0] < switch[0]:
            problems.append("the backout lowers the switches' MTU before the host's")
    return problems


@pytest.mark.parametrize("combo", COMBOS, ids=[combo_id(*c) for c in COMBOS])
def test_every_platform_kind_stops_before_the_work_and_starts_after(
    kb: KnowledgeBase, combo: tuple[str, str, bool, bool]
) -> None:
    os_name, family, rac, dnfs = combo
    view = _runbook(kb, combo_platform(kb, os_name, family, rac, dnfs))
    assert _check_whole_runbook(view, rac) == []
    oracle = _phase(view, "oracle")
    assert oracle is not None and any(s.outage == "stop" for s in oracle.steps), (
        "a migration (the default) moves the files inside an outage"
    )


RAC_VARIANTS: dict[str, dict[str, Any]] = {
    "shared-home": {"layout": {"oracle_home": "nas"}},
    "local-homes": {"layout": {"oracle_home": "local"}},
    "local-homes-new-build": {
        "layout": {"oracle_home": "local"},
        "handover": {"change_kind": "new_build"},
    },
    "shared-home-11.2": {
        "layout": {"oracle_home": "nas"},
        "oracle": {"version": "11.2.0.4"},
        "host": {"os_version": "ol6"},
    },
}


@pytest.mark.parametrize("dnfs", [False, True], ids=["knfs", "dnfs"])
@pytest.mark.parametrize("variant", RAC_VARIANTS)
def test_rac_homes_and_releases_keep_the_order(kb: KnowledgeBase, variant: str, dnfs: bool) -> None:
    data = deep_merge(kb.presets["current-rac"].platform, RAC_VARIANTS[variant])
    data = deep_merge(
        data, {"oracle": {"dnfs": dnfs}, "handover": {"cluster_nodes": ["rac01", "rac02"]}}
    )
    view = _runbook(kb, Platform.model_validate(data))
    new_build = variant.endswith("new-build")
    assert _check_whole_runbook(view, rac=True, new_build=new_build) == []
    oracle = _phase(view, "oracle")
    assert oracle is not None
    marks = [s.outage for s in oracle.steps if s.outage]
    if new_build:
        # Nothing runs yet: no outage; the backout stops the new database before undoing.
        assert marks == []
        rollback = _phase(view, "rollback")
        assert rollback is not None
        assert rollback.steps[0].title.startswith("Stop the new database")
    else:
        # The files move, which every instance opens: a full outage even with local homes; a
        # local home's relink rolls node by node before it, while the others serve.
        rolling = variant == "local-homes" and dnfs
        assert marks == ["rolling", "stop", "start"] if rolling else ["stop", "start"]
        srvctl = any(c.startswith("srvctl") for s in oracle.steps for c in s.commands)
        assert srvctl == (variant != "shared-home-11.2")


def test_the_checks_find_a_relink_with_the_database_open(kb: KnowledgeBase) -> None:
    """The order checks can fail: a relink moved before the stop is named."""
    view = _runbook(kb, combo_platform(kb, "linux", "ontap_cluster", False, True))
    oracle = _phase(view, "oracle")
    assert oracle is not None
    relink = next(s for s in oracle.steps if s.file == "oracle/enable_dnfs.sh")
    oracle.steps.remove(relink)
    oracle.steps.insert(0, relink)
    assert _check_outage_order(oracle, rac=False) == [
        f"{relink.number} (Direct NFS: switch it on in the Oracle home) runs with the database open"
    ]
    oracle.steps[:] = [s for s in oracle.steps if s.outage != "start"]
    assert f"phase {oracle.number} ends with the database down" in _check_outage_order(
        oracle, rac=False
    )


def test_the_checks_find_a_new_mtu_without_its_gate_and_a_backout_in_the_wrong_order(
    kb: KnowledgeBase,
) -> None:
    view = _runbook(kb, combo_platform(kb, "linux", "ontap_cluster", True, False))
    assert _check_whole_runbook(view, rac=True) == []
    network, rollback = _phase(view, "network"), _phase(view, "rollback")
    assert network is not None and rollback is not None
    network.steps[:] = [s for s in network.steps if not s.title.startswith("Go/no-go")]
    switches = next(s for s in rollback.steps if s.title.startswith("Switches"))
    rollback.steps.remove(switches)
    rollback.steps.insert(0, switches)
    assert _check_whole_runbook(view, rac=True) == [
        "a new MTU with no per-path gate",
        "the backout lowers the switches' MTU before the host's",
    ]

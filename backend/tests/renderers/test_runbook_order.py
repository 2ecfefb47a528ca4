"""The runbook's Oracle and backout phases run in a safe order (issue 29, and issue 20's RAC
restart): the database is stopped before a relink and started after it; RAC uses srvctl from
12.1, a full outage with a shared Oracle home and a rolling one with local homes."""

from __future__ import annotations

from typing import Any

import pytest

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from nasplan.renderers.common import BundleMeta
from nasplan.renderers.runbook import StepView, build_runbook
from tests.renderers.matrix import AS_OF


def _phase(
    kb: KnowledgeBase, preset: str, key: str, patch: dict[str, Any] | None = None
) -> list[StepView]:
    data = deep_merge(kb.presets[preset].platform, patch or {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    view = build_runbook(plan, BundleMeta())
    return next(p for p in view.phases if p.key == key).steps


def _index(steps: list[StepView], words: str) -> int:
    hits = [i for i, s in enumerate(steps) if words in s.title]
    assert len(hits) == 1, [s.title for s in steps]
    return hits[0]


@pytest.mark.parametrize("preset", ["current-linux-ontap", "fawcett-lab"])
def test_single_instance_stops_before_the_relink_and_starts_after(
    kb: KnowledgeBase, preset: str
) -> None:
    steps = _phase(kb, preset, "oracle")
    stop, relink, start = (
        _index(steps, "Stop the database"),
        _index(steps, "Direct NFS: switch it on"),
        _index(steps, "Start the database"),
    )
    assert stop < relink < start
    assert steps[stop].commands == ["SHUTDOWN IMMEDIATE"]
    assert steps[start].commands == ["STARTUP"]


def test_single_instance_backout_stops_before_reverting_and_restarts(kb: KnowledgeBase) -> None:
    steps = _phase(kb, "current-linux-ontap", "rollback")
    params = _index(steps, "parameters back")
    stop, unlink, start = (
        _index(steps, "Stop the database"),
        _index(steps, "Direct NFS off"),
        _index(steps, "Start the database"),
    )
    assert params < stop < unlink < start


def test_rac_with_a_shared_home_takes_a_full_outage_with_srvctl(kb: KnowledgeBase) -> None:
    steps = _phase(kb, "current-rac", "oracle")
    stop = _index(steps, "Stop the database on every node (full outage)")
    relink = _index(steps, "Direct NFS: switch it on")
    start = _index(steps, "Start the database on every node")
    assert stop < relink < start
    assert steps[stop].commands == [
        "srvctl stop database -db RACDB -stopoption IMMEDIATE",
        "srvctl status database -db RACDB",
    ]
    assert steps[start].commands[0] == "srvctl start database -db RACDB"
    assert not any("SHUTDOWN" in c for s in steps for c in s.commands)


def test_rac_with_local_homes_rolls_node_by_node(kb: KnowledgeBase) -> None:
    patch = {"layout": {"oracle_home": "local"}, "handover": {"cluster_nodes": ["rac01", "rac02"]}}
    steps = _phase(kb, "current-rac", "oracle", patch)
    (rolling,) = [s for s in steps if s.title.startswith("Node by node")]
    lines = [c for c in rolling.commands if not c.startswith("#")]
    assert lines == [
        "srvctl stop instance -db RACDB -node rac01 -stopoption IMMEDIATE",
        "oracle/enable_dnfs.sh --apply   # on rac01",
        "srvctl start instance -db RACDB -node rac01",
        "srvctl status database -db RACDB",
        "srvctl stop instance -db RACDB -node rac02 -stopoption IMMEDIATE",
        "oracle/enable_dnfs.sh --apply   # on rac02",
        "srvctl start instance -db RACDB -node rac02",
        "srvctl status database -db RACDB",
    ]
    assert not [s for s in steps if s.title.startswith("Direct NFS: switch it on")]


def test_rac_before_12_1_has_no_srvctl_syntax_it_cannot_cite(kb: KnowledgeBase) -> None:
    steps = _phase(
        kb,
        "current-rac",
        "oracle",
        {"oracle": {"version": "11.2.0.4"}, "host": {"os_version": "ol6"}},
    )
    assert not any("srvctl" in c for s in steps for c in s.commands)
    stop = _index(steps, "Stop the database on every node")
    start = _index(steps, "Start the database on every node")
    assert stop < start and "rac01" in steps[stop].expect


def test_kernel_nfs_restart_without_a_relink_still_stops_and_starts(kb: KnowledgeBase) -> None:
    steps = _phase(kb, "tr3496-lab", "oracle")
    stop, start = _index(steps, "Stop the database"), _index(steps, "Start the database")
    assert stop + 1 == start
    assert _index(steps, "Initialization parameters") < stop


def test_a_new_mtu_is_gated_on_every_path_before_anything_mounts(kb: KnowledgeBase) -> None:
    paths = [
        {"host_address": f"192.168.{10 + n}.11/24", "filer_address": f"192.168.{10 + n}.21"}
        for n in range(2)
    ]
    steps = _phase(kb, "current-rac", "network", {"handover": {"paths": paths}})
    gate = _index(steps, "Go/no-go")
    assert gate == len(steps) - 1 and _index(steps, "Host NIC") < gate
    assert steps[gate].commands == [
        "ping -M do -s 8972 -c 3 192.168.10.21",
        "ping -M do -s 8972 -c 3 192.168.11.21",
    ]
    assert "No-go" in steps[gate].risk


def test_the_gate_uses_the_os_own_check_and_is_absent_without_a_new_mtu(kb: KnowledgeBase) -> None:
    solaris = _phase(kb, "tr3322-lab", "network")
    assert solaris[_index(solaris, "Go/no-go")].commands == ["traceroute -F filer01 9000"]
    assert not [s for s in _phase(kb, "current-anf", "network") if "Go/no-go" in s.title]


def _verify_sql(kb: KnowledgeBase, preset: str, patch: dict[str, Any] | None = None) -> str:
    from nasplan.renderers.bundle import render_bundle_files

    data = deep_merge(kb.presets[preset].platform, patch or {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    return render_bundle_files(plan)["verify/verify_oracle.sql"]


def test_rac_verification_reads_every_instance(kb: KnowledgeBase) -> None:
    sql = _verify_sql(kb, "current-rac")
    queries = [line for line in sql.splitlines() if line.startswith("SELECT")]
    assert queries and not any(" v$" in q for q in queries)
    assert "FROM gv$dnfs_servers" in sql and "COUNT(DISTINCT inst_id)" in sql
    assert any("(SELECT COUNT(*) FROM gv$instance)" in q and "gv$parameter" in q for q in queries)
    single = _verify_sql(kb, "current-linux-ontap")
    assert "gv$" not in single and "FROM v$dnfs_servers" in single


def test_the_filer_backout_restores_the_recorded_policies(kb: KnowledgeBase) -> None:
    from nasplan.renderers.bundle import render_bundle_files

    data = deep_merge(kb.presets["current-linux-ontap"].platform, {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    files = render_bundle_files(plan)
    assert "-fields policy,snapshot-policy" in files["filer/commands.txt"]
    backout = files["rollback/filer_rollback.txt"]
    volumes = [v.name for v in plan.volumes]
    for name in volumes:
        assert f"-volume {name} -policy RECORDED_VALUE" in backout
    assert "-policy default" not in [line[-15:] for line in backout.splitlines()]
    (redo,) = [v.name for v in plan.volumes if "redo" in v.holds]
    assert f"-volume {redo} -snapshot-policy RECORDED_VALUE" in backout


def test_the_printed_runbook_numbers_its_pages_and_wraps_code_at_spaces(kb: KnowledgeBase) -> None:
    from nasplan.renderers.bundle import render_bundle_files

    data = deep_merge(kb.presets["current-linux-ontap"].platform, {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    html = render_bundle_files(plan)["RUNBOOK.html"]
    assert 'counter(page) " of " counter(pages)' in html
    pre_rule = html.split("  pre {", 1)[1].split("}", 1)[0]
    assert "overflow-wrap: break-word" in pre_rule and "anywhere" not in pre_rule
    assert "estimates from nasplan's model" in html


def test_the_broadcast_domain_change_lists_every_port_it_reaches_first(kb: KnowledgeBase) -> None:
    # Issue 29: the MTU of a broadcast domain is set on all of its ports, whoever uses them.
    network = _phase(
        kb, "current-linux-ontap", "network", {"handover": {"broadcast_domain": "bd_nfs"}}
    )
    (step,) = [s for s in network if s.title.startswith("MTU 9000 on the data port")]
    show = "network port broadcast-domain show -broadcast-domain bd_nfs -fields ports,mtu"
    assert step.commands[0] == show
    assert step.commands[1].startswith(
        "network port broadcast-domain modify -broadcast-domain bd_nfs"
    )
    assert any("every port this change reaches" in note for note in step.notes)
    prereq = _phase(
        kb, "current-linux-ontap", "prereq", {"handover": {"broadcast_domain": "bd_nfs"}}
    )
    record = prereq[_index(prereq, "Record the cluster's current values")]
    assert show in record.commands


def test_sources_are_listed_once_at_the_end_and_steps_name_the_rules(kb: KnowledgeBase) -> None:
    # Issue 29: the "Why" source lists, repeated step after step, filled most printed pages;
    # each rule's sources now appear once, at the end, with the documents' titles.
    from nasplan.renderers.bundle import render_bundle_files

    data = deep_merge(kb.presets["current-linux-ontap"].platform, {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    view = build_runbook(plan, BundleMeta())
    named = [w.rule for p in view.phases for s in p.steps for w in s.why]
    assert [w.rule for w in view.rules] == list(dict.fromkeys(named))
    cited = {line.split(" \u00a7 ")[0] for w in view.rules for line in w.sources}
    assert [source_id for source_id, _ in view.sources] == sorted(cited)
    markdown = render_bundle_files(plan)["RUNBOOK.md"]
    steps, appendix = markdown.split("\n## Why: the rules and their sources\n", 1)
    assert "Sources:" not in steps
    assert appendix.count("- **NET-JUMBO-HOST-MTU**:") == 1
    assert "ntap-odb \u00a7 Jumbo frames; MTU (2026-01-12)" in appendix
    assert "- **ntap-odb**: " in appendix.split("## Source documents", 1)[1]


def test_the_printed_runbook_shows_commands_in_code_not_backticks(kb: KnowledgeBase) -> None:
    # Issue 29: "printed page: literal backticks". The text is escaped before the spans are made.
    from nasplan.renderers.bundle import render_bundle_files
    from nasplan.renderers.common import code_spans

    data = deep_merge(kb.presets["current-linux-ontap"].platform, {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    html = render_bundle_files(plan)["RUNBOOK.html"]
    body = html.split("<body", 1)[1]
    assert "<code>network port show -port" in body
    assert "Expected:</span> `" not in body
    assert str(code_spans("run `a <b> & c` then `d`")) == (
        "run <code>a &lt;b&gt; &amp; c</code> then <code>d</code>"
    )


@pytest.mark.parametrize(
    ("preset", "patch", "outage"),
    [
        (
            "current-linux-ontap",
            None,
            "change: the instance down from step 5.3 to step 5.5; "
            "backout: the instance down from step 7.2 to step 7.4",
        ),
        (
            "current-rac",
            None,
            "change: every instance down from step 5.3 to step 5.5; "
            "backout: every instance down from step 7.2 to step 7.4",
        ),
        (
            "current-rac",
            {"layout": {"oracle_home": "local"}},
            "change: one instance at a time in step 5.3 (rolling); "
            "backout: one instance at a time in step 7.2 (rolling)",
        ),
    ],
)
def test_the_change_record_states_the_outage_from_the_steps(
    kb: KnowledgeBase, preset: str, patch: dict[str, Any] | None, outage: str
) -> None:
    # Issue 29: a change record with its number, window, outage, backout trigger, communications.
    data = deep_merge(kb.presets[preset].platform, patch or {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    change = dict(build_runbook(plan, BundleMeta()).change)
    assert list(change) == [
        "Change number", "Window", "Database outage", "Back out when", "Communications",
    ]  # fmt: skip
    assert change["Database outage"] == outage
    assert change["Change number"] == "________________"

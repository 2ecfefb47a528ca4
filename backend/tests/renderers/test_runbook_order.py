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
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.common import BundleMeta
from nasplan.renderers.runbook import build_runbook
from nasplan.renderers.runbook_view import StepView
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
    assert stop + 2 == start and "Move the database's files" in steps[stop + 1].title
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
            "change: the instance down from step 5.3 to step 5.6; "
            "backout: the instance down from step 7.2 to step 7.6",
        ),
        (
            "current-rac",
            None,
            "change: every instance down from step 5.3 to step 5.6; "
            "backout: every instance down from step 7.2 to step 7.6",
        ),
        (
            "current-rac",
            {"layout": {"oracle_home": "local"}},
            "change: one instance at a time in step 5.3 (rolling); "
            "change: every instance down from step 5.4 to step 5.6; "
            "backout: every instance down from step 7.2 to step 7.6",
        ),
        (
            "current-rac",
            {"handover": {"change_kind": "new_build"}},
            "none: no step stops a database",
        ),
    ],
)
def test_the_change_record_states_the_outage_from_the_steps(
    kb: KnowledgeBase, preset: str, patch: dict[str, Any] | None, outage: str
) -> None:
    # Issue 29: a change record with its number, window, outage, point of no return, backout
    # trigger and time, communications, and the tie to the approved files.
    data = deep_merge(kb.presets[preset].platform, patch or {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    change = dict(build_runbook(plan, BundleMeta()).change)
    assert list(change) == [
        "Change number", "Window", "Database outage", "Point of no return", "Back out when",
        "Backout takes", "Communications", "Files",
    ]  # fmt: skip
    assert change["Database outage"] == outage
    assert change["Change number"] == "________________"
    assert change["Point of no return"].startswith(
        "none" if "new_build" in str(patch) else "step 5.6: the database opens on the new volumes"
    )


def _steps(kb: KnowledgeBase, preset: str, patch: dict[str, Any] | None = None) -> list[StepView]:
    data = deep_merge(kb.presets[preset].platform, patch or {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    return [s for p in build_runbook(plan, BundleMeta()).phases for s in p.steps]


def _at(steps: list[StepView], words: str) -> int:
    return _index(steps, words)


@pytest.mark.parametrize(
    ("preset", "patch"),
    [
        ("current-linux-ontap", None),
        ("tr3496-lab", None),
        ("current-rac", None),
        ("current-rac", {"layout": {"oracle_home": "local"}}),
        ("current-rac", {"oracle": {"dnfs": False}}),
        ("example-aix", None),
        ("example-hpux", None),
        ("tr3322-lab", None),
        ("current-anf", None),
    ],
)
def test_a_migration_moves_the_files_inside_the_outage_and_backs_out_to_them(
    kb: KnowledgeBase, preset: str, patch: dict[str, Any] | None
) -> None:
    # Issue 29: empty volumes were mounted on the datafile paths and "the instance opens", with
    # no data move and no word on scope; the backout started the database before the host
    # step that needs it down, and ended with it down.
    steps = _steps(kb, preset, patch)
    mounts = _at(steps, "Mount points and NFS mounts")
    gate = _at(steps, "Go/no-go: ready for the window")
    stop = [i for i, s in enumerate(steps) if s.outage == "stop"]
    start = [i for i, s in enumerate(steps) if s.outage == "start"]
    move = _at(steps, "Move the database's files")
    back = _at(steps, "Point the database back at its original files")
    host_back = _at(steps, "Host: unmount")
    assert len(stop) == len(start) == 2
    assert gate < mounts < stop[0] < move < start[0] < stop[1] < back < host_back < start[1]
    assert steps[start[0]].no_return and not steps[start[1]].no_return
    assert "LIST BACKUP OF DATABASE SUMMARY;" in steps[gate].commands
    relinks = [i for i, s in enumerate(steps) if "relink" in s.title or "switch it on" in s.title]
    local_homes = (patch or {}).get("layout", {}).get("oracle_home") == "local"
    for i in relinks:
        # A relink is inside the outage, or rolls node by node before it with local homes.
        assert stop[0] < i < start[0] or (local_homes and i < stop[0])
    if any(s.title.startswith("Oracle: Direct NFS off") for s in steps):
        assert stop[1] < _at(steps, "Oracle: Direct NFS off") < start[1]
    filer_back = [i for i, s in enumerate(steps) if s.number.startswith("7.") and i > start[1]]
    assert filer_back, "the filer and switch values go back after the service is restored"
    assert [c for c in steps[host_back].commands if c.startswith("umount ")]


@pytest.mark.parametrize("patch", [{}, {"layout": {"oracle_home": "local"}}])
def test_a_new_build_stops_nothing_and_creates_the_database_after_the_mounts(
    kb: KnowledgeBase, patch: dict[str, Any]
) -> None:
    steps = _steps(kb, "current-rac", deep_merge(patch, {"handover": {"change_kind": "new_build"}}))
    assert not [s for s in steps if s.outage]
    assert not [s for s in steps if "Keep a copy of the database parameters" in s.title]
    mounts = _at(steps, "Mount points and NFS mounts")
    install = _at(steps, "Install the Oracle software")
    relink = _at(steps, "Direct NFS: switch it on")
    create = _at(steps, "Create the database on the mounts")
    assert mounts < install < relink < create
    gate = steps[_at(steps, "Go/no-go: ready for the window")]
    assert "LIST BACKUP OF DATABASE SUMMARY;" not in gate.commands
    backout = [s for s in steps if s.number.startswith("7.")]
    assert backout[0].title.startswith("Stop the new database, if one was created")
    restarts = ("Start the database", "Point the database")
    assert not any(s.title.startswith(restarts) for s in backout)


def test_the_first_page_states_the_scope_and_a_timeline(kb: KnowledgeBase) -> None:
    from nasplan.renderers.bundle import render_bundle_files

    data = deep_merge(kb.presets["current-rac"].platform, {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    view = build_runbook(plan, BundleMeta())
    assert view.scope[0].startswith("Migration (assumed: the design does not say")
    assert any("OCR and voting files onto /u05/oracrs" in line for line in view.scope)
    assert any("mount over files" in line for line in view.scope)
    assert [row[0] for row in view.timeline] == [f"{p.number}. {p.title}" for p in view.phases]
    assert {row[0]: row[2] for row in view.timeline}["5. Oracle"] == (
        "down from step 5.3 to step 5.6"
    )
    markdown = render_bundle_files(plan)["RUNBOOK.md"]
    first_phase = markdown.index("## 1. Prerequisites")
    assert 0 < markdown.index("**Scope:**") < markdown.index("**Timeline**") < first_phase
    said = deep_merge(data, {"handover": {"change_kind": "migration"}})
    plan = make_plan(kb, Platform.model_validate({**said, "as_of": AS_OF.isoformat()}))
    assert build_runbook(plan, BundleMeta()).scope[0].startswith("Migration: the database")


def test_patch_gates_run_before_the_window_not_in_the_verify_scripts(kb: KnowledgeBase) -> None:
    # Issue 29: a data-integrity fix rated critical was a warning, not a go/no-go.
    from nasplan.renderers.bundle import render_bundle_files

    data = deep_merge(kb.presets["current-anf"].platform, {})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    view = build_runbook(plan, BundleMeta())
    gate = next(s for p in view.phases for s in p.steps if s.title.startswith("Go/no-go: ready"))
    assert "$ORACLE_HOME/OPatch/opatch lsinventory | grep -w 32931941" in gate.commands
    assert {w.rule for w in gate.why} >= {"ANF-DNFS-FIXES", "DNFS-PATCHES-1495104"}
    assert "opatch" not in render_bundle_files(plan)["verify/verify_host.sh"]
    linux = make_plan(
        kb,
        Platform.model_validate(
            {**kb.presets["current-linux-ontap"].platform, "as_of": AS_OF.isoformat()}
        ),
    )
    assert "32931941" not in render_bundle_files(linux)["RUNBOOK.md"]


def test_rac_verification_pings_every_storage_path(kb: KnowledgeBase) -> None:
    # Issue 29: "RAC verification ... pings one path".
    from nasplan.renderers.bundle import render_bundle_files

    paths = [
        {"host_address": f"192.168.{10 + n}.11/24", "filer_address": f"192.168.{10 + n}.21"}
        for n in range(2)
    ]
    data = deep_merge(kb.presets["current-rac"].platform, {"handover": {"paths": paths}})
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    verify = render_bundle_files(plan)["verify/verify_host.sh"]
    assert "ping -M do -s 8972 -c 3 192.168.10.21" in verify
    assert "ping -M do -s 8972 -c 3 192.168.11.21" in verify
    # Without the paths' addresses the script pings the filer by name: it never holds a
    # placeholder.
    plan = make_plan(
        kb,
        Platform.model_validate({**kb.presets["current-rac"].platform, "as_of": AS_OF.isoformat()}),
    )
    verify = render_bundle_files(plan)["verify/verify_host.sh"]
    assert "ping -M do -s 8972 -c 3 svm-ora01" in verify and "<filer-ip" not in verify


@pytest.mark.parametrize(
    ("preset", "title"),
    [
        ("example-linux-knfs-7mode", "vol options nosnap on"),
        ("current-linux-ontap", "volume snapshot-policy none"),
    ],
)
def test_stopping_snapshot_schedules_is_not_a_low_risk(
    kb: KnowledgeBase, preset: str, title: str
) -> None:
    # Issue 29: "`nosnap on` on existing 7-mode volumes at Risk: Low".
    steps = _phase(kb, preset, "filer")
    step = steps[_index(steps, title)]
    assert step.risk.startswith("Medium: a volume that exists already stops taking")


def test_split_datafiles_are_spread_by_the_dba_and_the_mount_step_says_why(
    kb: KnowledgeBase,
) -> None:
    """A DSS database on kernel NFS over two paths (engine/path_spread): the mount step cites
    the rule that chose each mount's path, and the move step names every data mount."""
    paths = [{"filer_address": "192.168.10.21"}, {"filer_address": "192.168.11.21"}]
    patch = {
        "network": {"nic_count": 2},
        "oracle": {"workload": "dss"},
        "handover": {"paths": paths},
    }
    host = _phase(kb, "example-linux-knfs-7mode", "host", patch)
    mount = host[_index(host, "Mount points and NFS mounts")]
    assert "NET-MULTIPATH-SCALING" in [w.rule for w in mount.why]
    oracle = _phase(kb, "example-linux-knfs-7mode", "oracle", patch)
    move = oracle[_index(oracle, "Move the database's files")]
    assert any(
        "datafiles: spread evenly over /u02/oradata1/ORCL, /u02/oradata2/ORCL" in n
        for n in move.notes
    ), move.notes
    # One path: the rule is not on the mount step.
    host_one = _phase(kb, "example-linux-knfs-7mode", "host")
    mount_one = host_one[_index(host_one, "Mount points and NFS mounts")]
    assert "NET-MULTIPATH-SCALING" not in [w.rule for w in mount_one.why]


def test_a_second_path_without_an_interface_name_is_set_by_hand(kb: KnowledgeBase) -> None:
    """Kernel NFS spread over two paths with jumbo frames, the hand-over naming only the filer's
    addresses: the host interface of path 2 is unknown, so its MTU is a step by hand (the
    script and the runbook say so, verify_host.sh asks to check it), not silently skipped."""
    paths: list[dict[str, Any]] = [
        {"filer_address": "192.168.10.21"},
        {"filer_address": "192.168.11.21"},
    ]
    patch = {"network": {"nic_count": 2}, "handover": {"paths": paths}}
    network = _phase(kb, "example-linux-knfs-7mode", "network", patch)
    nic = network[_index(network, "Host NIC")]
    assert any("storage path 2 names no host interface" in n for n in nic.notes), nic.notes
    data = deep_merge(kb.presets["example-linux-knfs-7mode"].platform, patch)
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    files = render_bundle_files(plan)
    assert "manual 'storage path 2 names no host interface" in files["host/network.sh"]
    assert "CHECK (manual) storage path 2 names no host interface" in files["verify/verify_host.sh"]
    # Named in the hand-over: the script sets it, nothing is left by hand.
    paths[0]["host_interface"], paths[1]["host_interface"] = "eth1", "eth2"
    named = _phase(kb, "example-linux-knfs-7mode", "network", patch)
    nic = named[_index(named, "Host NIC")]
    assert not any("names no host interface" in n for n in nic.notes)

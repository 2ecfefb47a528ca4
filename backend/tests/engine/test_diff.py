"""diff_plans: what a reviewer sees as "what changed between two plans"."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import pytest

from nasplan.domain.plan import Check, Expectations, Mount, Plan
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.engine.diff import Change, diff_plans
from nasplan.engine.diff_reasons import reason_words
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from tests.conftest import TODAY

ORDER = ["plan", "platform", "volume", "mount", "setting", "finding", "check", "expectation"]

# Linux, kernel NFS (no dNFS), 25 GbE, jumbo frames, one store-and-forward switch.
LINUX_25G: dict[str, Any] = {
    "host": {
        "os": "linux",
        "os_version": "ol9",
        "arch": "x86_64",
        "memory_gb": 512,
        "hostname": "db01",
        "nic_interface": "ens1f0",
    },
    "network": {
        "nic_gbps": 25,
        "nic_count": 2,
        "jumbo_frames": True,
        "switch": "store_and_forward",
        "switch_hops": 1,
        "router_hops": 0,
        "dedicated_storage_network": True,
    },
    "oracle": {
        "version": "19.21",
        "bits": 64,
        "rac": False,
        "dnfs": False,
        "archivelog": True,
        "workload": "oltp",
    },
    "filer": {"vendor": "netapp", "model": "AFF A400", "os_version": "9.14.1", "interface": "e0e"},
    "layout": {"oracle_home": "local", "filer_host": "svm-ora01", "db_name": "PROD"},
}


def _plan(kb: KnowledgeBase, data: dict[str, Any], patch: dict[str, Any] | None = None) -> Plan:
    return make_plan(kb, Platform.model_validate(deep_merge(data, patch or {})), TODAY)


def _one(changes: list[Change], item: str, key: str) -> Change:
    found = [c for c in changes if c.item == item and c.key == key]
    assert len(found) == 1, (item, key, [(c.item, c.key) for c in changes])
    return found[0]


def _with_platform(plan: Plan, patch: dict[str, Any]) -> Plan:
    data = deep_merge(plan.platform.model_dump(mode="json"), patch)
    return plan.model_copy(update={"platform": Platform.model_validate(data)})


def _with_expectations(plan: Plan, **fields: Any) -> Plan:
    return plan.model_copy(update={"expectations": plan.expectations.model_copy(update=fields)})


def _with_mount(plan: Plan, role: str, **fields: Any) -> Plan:
    mounts = [m.model_copy(update=fields) if m.role == role else m for m in plan.mounts]
    return plan.model_copy(update={"mounts": mounts})


@pytest.fixture(scope="module")
def linux_25g(kb: KnowledgeBase) -> Plan:
    return _plan(kb, LINUX_25G)


@pytest.fixture(scope="module")
def linux_10g(kb: KnowledgeBase) -> Plan:
    return _plan(kb, LINUX_25G, {"network": {"nic_gbps": 10}})


# --- the reported defect ------------------------------------------------------------------


def test_nic_speed_change_is_not_silent(linux_25g: Plan, linux_10g: Plan) -> None:
    changes = diff_plans(linux_25g, linux_10g)
    assert changes, "a 25 -> 10 GbE change must not look like 'no change'"

    nic = _one(changes, "platform", "network.nic_gbps")
    assert (nic.kind, nic.before, nic.after) == ("changed", "25", "10")
    assert nic.reason == "platform answer changed"
    assert nic.rules_before == nic.rules_after == []
    assert [c.key for c in changes if c.item == "platform"] == ["network.nic_gbps"]

    stream = _one(changes, "expectation", "single_stream_mb_s")
    assert (stream.kind, stream.before, stream.after) == ("changed", "1166.2", "744.8")
    assert stream.rules_after == list(linux_10g.expectations.rules)
    link = _one(changes, "expectation", "nic_payload_ceiling_mb_s")
    assert (link.before, link.after) == ("3093.9", "1237.6")
    # The kernel client's one TCP connection holds a pipelined stream below either link.
    assert not [c for c in changes if c.key == "pipelined_stream_mb_s"]


def test_same_plan_has_no_changes(linux_25g: Plan) -> None:
    assert diff_plans(linux_25g, linux_25g) == []
    assert diff_plans(linux_25g, linux_25g.model_copy()) == []


# --- platform answers ---------------------------------------------------------------------


def test_every_platform_leaf_is_compared_and_rendered_as_json_text(linux_25g: Plan) -> None:
    after = _with_platform(
        linux_25g,
        {
            "host": {"hostname": None, "memory_gb": 256},
            "network": {"jumbo_frames": False, "rtt_us": 250.5},
            "oracle": {"rac": True, "rac_nodes": 2},
            "filer": {"interface": "e0a"},
            "layout": {"volumes": "shared"},
            "as_of": "2020-01-02",
        },
    )
    got = {c.key: (c.kind, c.before, c.after) for c in diff_plans(linux_25g, after)}
    platform = {k: v for k, v in got.items() if "." in k or k == "as_of"}
    assert platform == {
        "host.memory_gb": ("changed", "512", "256"),
        "host.hostname": ("changed", "db01", "(none)"),
        "network.jumbo_frames": ("changed", "true", "false"),
        "network.rtt_us": ("changed", "(none)", "250.5"),
        "oracle.rac": ("changed", "false", "true"),
        "oracle.rac_nodes": ("changed", "(none)", "2"),
        "filer.interface": ("changed", "e0e", "e0a"),
        "layout.volumes": ("changed", "separate", "shared"),
        "as_of": ("changed", "(none)", "2020-01-02"),
    }
    platform_keys = [c.key for c in diff_plans(linux_25g, after) if c.item == "platform"]
    # model order: host, network, oracle, filer, layout, as_of; fields in model order
    assert platform_keys == list(platform)


def test_an_absent_answer_and_an_empty_one_are_the_same(linux_25g: Plan) -> None:
    """A hand-over with nothing in its lists says what no hand-over says: no change."""
    assert linux_25g.platform.handover is None
    empty = _with_platform(linux_25g, {"handover": {"client_subnet": "192.168.10.0/24"}})
    assert empty.platform.handover is not None and empty.platform.handover.cluster_nodes == []
    got = {c.key: (c.before, c.after) for c in diff_plans(linux_25g, empty) if c.item == "platform"}
    assert got == {"handover.client_subnet": ("(none)", "192.168.10.0/24")}
    assert [c.key for c in diff_plans(empty, linux_25g) if c.item == "platform"] == [
        "handover.client_subnet"
    ]


def test_list_answers_read_as_words_and_paths_one_by_one(linux_25g: Plan) -> None:
    nodes = _with_platform(
        linux_25g,
        {
            "oracle": {"rac": True, "rac_nodes": 2},
            "host": {"hostname": "db01"},
            "handover": {
                "cluster_nodes": ["db01", "db02"],
                "paths": [{"host_interface": "ens1f0", "host_address": "192.168.10.11/24"}],
            },
        },
    )
    got = {c.key: (c.before, c.after) for c in diff_plans(linux_25g, nodes) if c.item == "platform"}
    assert got["handover.cluster_nodes"] == ("(none)", "db01, db02")
    assert got["handover.paths.1.host_interface"] == ("(none)", "ens1f0")
    assert got["handover.paths.1.host_address"] == ("(none)", "192.168.10.11/24")
    assert not any(key.endswith(("filer_interface", "filer_address")) for key in got)
    assert all(not (after or "").startswith(("[", "{")) for _, after in got.values())


def test_include_platform_false_skips_platform_answers(linux_25g: Plan, linux_10g: Plan) -> None:
    changes = diff_plans(linux_25g, linux_10g, include_platform=False)
    assert changes and all(c.item != "platform" for c in changes)
    full = diff_plans(linux_25g, linux_10g)
    assert changes == [c for c in full if c.item != "platform"]


# --- mounts, token by token ---------------------------------------------------------------


def test_mount_options_token_by_token(linux_25g: Plan) -> None:
    data = next(m for m in linux_25g.mounts if m.role == "data")
    options = [*(o for o in data.options if o != "hard"), "soft", "timeo=5"]
    after = _with_mount(linux_25g, "data", options=options)
    change = _one(
        diff_plans(linux_25g, after), "mount", f"{'+'.join(data.serves)} {data.mount_point}"
    )
    assert change.kind == "changed"
    assert change.before == f"{data.export} {','.join(data.options)}"
    assert change.after == f"{data.export} {','.join(options)}"
    assert change.removed_tokens == ["hard"]
    assert change.added_tokens == ["soft", "timeo=5"]


def test_intr_to_nointr(linux_25g: Plan) -> None:
    data = next(m for m in linux_25g.mounts if m.role == "data")
    options = [o for o in data.options if o not in ("intr", "nointr")]
    before = _with_mount(linux_25g, "data", options=[*options, "intr"])
    after = _with_mount(linux_25g, "data", options=[*options, "nointr"])
    [change] = diff_plans(before, after)
    assert (change.item, change.removed_tokens, change.added_tokens) == (
        "mount",
        ["intr"],
        ["nointr"],
    )


def test_mount_export_change_has_no_tokens(linux_25g: Plan) -> None:
    after = _with_mount(linux_25g, "data", export="svm-ora02:/vol/elsewhere")
    [change] = diff_plans(linux_25g, after)
    assert change.item == "mount" and change.kind == "changed"
    assert change.before != change.after
    assert "svm-ora02:/vol/elsewhere" in (change.after or "")
    assert change.added_tokens == [] and change.removed_tokens == []


def test_added_and_removed_mounts_list_their_tokens(linux_25g: Plan) -> None:
    data = next(m for m in linux_25g.mounts if m.role == "data")
    extra = Mount.model_validate(
        {**data.model_dump(), "mount_point": "/oradata2", "options": ["rw", "hard"]}
    )
    more = linux_25g.model_copy(update={"mounts": [*linux_25g.mounts, extra]})
    [added] = diff_plans(linux_25g, more)
    assert (added.kind, added.added_tokens, added.removed_tokens) == ("added", ["rw", "hard"], [])
    [removed] = diff_plans(more, linux_25g)
    assert (removed.kind, removed.added_tokens, removed.removed_tokens) == (
        "removed",
        [],
        ["rw", "hard"],
    )


@pytest.fixture(scope="module")
def example_2005_and_today(kb: KnowledgeBase) -> tuple[Plan, Plan]:
    """The example platform as advised in June 2005 and today (minra on, then off)."""
    earlier = make_plan(
        kb, Platform.model_validate({**EXAMPLE_PLATFORM, "as_of": "2005-06-01"}), TODAY
    )
    return earlier, make_plan(kb, Platform.model_validate(EXAMPLE_PLATFORM), TODAY)


def test_tokens_only_on_mounts(example_2005_and_today: tuple[Plan, Plan]) -> None:
    changes = diff_plans(*example_2005_and_today)
    minra = next(c for c in changes if c.item == "setting" and "minra" in c.key)
    assert (minra.before, minra.after) == ("on", "off")
    assert "superseded by NTAP-MINRA-OFF" in minra.reason
    for change in changes:
        if change.item != "mount":
            assert change.added_tokens == [] and change.removed_tokens == []


def test_reasons_come_as_data_the_words_are_built_from(
    kb: KnowledgeBase, example_2005_and_today: tuple[Plan, Plan]
) -> None:
    """Issue 28: clients read who replaced whom, and a setting's parts, without parsing."""
    earlier, later = example_2005_and_today
    changes = diff_plans(earlier, later)
    minra = next(c for c in changes if c.item == "setting" and "minra" in c.key)
    superseded = next(s for s in minra.shifts if s.shift == "superseded")
    assert superseded.rule == "NTAP-MINRA-ON-OLTP" and superseded.by == ["NTAP-MINRA-OFF"]
    assert superseded.on == dt.date(2009, 5, 1) and superseded.why
    assert minra.setting is not None
    assert (minra.setting.target, minra.setting.name) == ("filer", "minra")
    assert minra.setting.volumes and minra.setting.volumes[0] in minra.key
    backwards = diff_plans(later, earlier)
    minra_on = next(c for c in backwards if c.item == "setting" and "minra" in c.key)
    on = next(s for s in minra_on.shifts if s.shift == "now_applies")
    assert on.rule == "NTAP-MINRA-ON-OLTP" and on.on == kb.rules[on.rule].effective_from
    for change in [*changes, *backwards]:
        if change.item in ("plan", "platform"):
            assert change.shifts == []
            continue
        assert reason_words(change.shifts) == change.reason
        assert (change.setting is not None) == (change.item == "setting")


# --- checks -------------------------------------------------------------------------------


def test_checks_are_compared(linux_25g: Plan) -> None:
    first = linux_25g.checks[0]
    new = Check(
        what="Link speed", where="switch", command="show int", expect="25G", rules=["X-RULE"]
    )
    changed = first.model_copy(update={"expect": "something else"})
    after = linux_25g.model_copy(update={"checks": [changed, *linux_25g.checks[1:], new]})
    changes = diff_plans(linux_25g, after)
    assert [c.item for c in changes] == ["check", "check"]
    by_kind = {c.kind: c for c in changes}
    assert set(by_kind) == {"changed", "added"}
    assert first.what in by_kind["changed"].key and first.where in by_kind["changed"].key
    assert "something else" in (by_kind["changed"].after or "")
    assert first.expect in (by_kind["changed"].before or "")
    assert first.command in (by_kind["changed"].before or "")
    assert by_kind["changed"].rules_before == first.rules
    assert by_kind["added"].before is None and "show int" in (by_kind["added"].after or "")
    assert by_kind["added"].rules_after == ["X-RULE"]
    [removed] = diff_plans(after, after.model_copy(update={"checks": after.checks[:-1]}))
    assert (removed.item, removed.kind, removed.after) == ("check", "removed", None)


# --- expectations -------------------------------------------------------------------------


def test_expectation_floats_compare_rounded(linux_25g: Plan) -> None:
    base = _with_expectations(linux_25g, single_stream_mb_s=1166.44)
    assert diff_plans(base, _with_expectations(linux_25g, single_stream_mb_s=1166.41)) == []
    [change] = diff_plans(base, _with_expectations(linux_25g, single_stream_mb_s=1166.46))
    assert (change.item, change.kind, change.key) == (
        "expectation",
        "changed",
        "single_stream_mb_s",
    )
    assert (change.before, change.after) == ("1166.4", "1166.5")


def test_expectation_scalars(linux_25g: Plan) -> None:
    after = _with_expectations(
        linux_25g,
        pipelined_stream_mb_s=None,
        serial_client=True,
        rtt_measured=True,
        transfer_bytes=65536,
        bottleneck="the filer",
    )
    got = {c.key: (c.before, c.after) for c in diff_plans(linux_25g, after)}
    e = linux_25g.expectations
    assert got == {
        "pipelined_stream_mb_s": (f"{e.pipelined_stream_mb_s:.1f}", "(none)"),
        "transfer_bytes": (str(e.transfer_bytes), "65536"),
        "bottleneck": (e.bottleneck, "the filer"),
        "serial_client": ("false", "true"),
        "rtt_measured": ("false", "true"),
    }


def test_expectation_lists_compare_as_a_whole(linux_25g: Plan) -> None:
    e = linux_25g.expectations
    after = _with_expectations(
        linux_25g,
        improvements=["a", "b"],
        assumptions=list(e.assumptions),
        latency_budget_us=e.latency_budget_us[:-1],
    )
    changes = diff_plans(linux_25g, after)
    assert [c.key for c in changes] == ["improvements", "latency_budget_us"]
    improvements = changes[0]
    assert improvements.before == "; ".join(e.improvements)
    assert improvements.after == "a; b"
    budget = changes[1]
    assert budget.before and budget.after and budget.before.startswith(budget.after)
    assert budget.before.count("; ") == budget.after.count("; ") + 1


def test_every_expectation_field_is_covered() -> None:
    from nasplan.engine import diff

    covered = set(diff.EXPECTATION_SCALARS) | set(diff.EXPECTATION_LISTS)
    assert covered == set(Expectations.model_fields) - {"rules"}


# --- plan level and order -----------------------------------------------------------------


def test_kb_version_and_as_of(linux_25g: Plan) -> None:
    after = linux_25g.model_copy(
        update={"kb_version": "2099.1.0", "as_of": linux_25g.as_of - dt.timedelta(days=1)}
    )
    changes = diff_plans(linux_25g, after)
    assert [(c.item, c.key) for c in changes] == [("plan", "kb_version"), ("plan", "as_of")]
    assert changes[0].before == linux_25g.kb_version and changes[0].after == "2099.1.0"
    assert changes[1].before == linux_25g.as_of.isoformat()
    assert diff_plans(linux_25g, after, include_plan=False) == []


def test_time_travel_callers_can_drop_the_dates(kb: KnowledgeBase) -> None:
    """What POST /plans/compare should pass: the two plans differ in their dates by design."""
    platform = Platform.model_validate(EXAMPLE_PLATFORM)
    earlier = make_plan(kb, platform.model_copy(update={"as_of": dt.date(2005, 6, 1)}))
    later = make_plan(kb, platform.model_copy(update={"as_of": None}))
    full = diff_plans(earlier, later)
    assert _one(full, "platform", "as_of").before == "2005-06-01"
    assert _one(full, "plan", "as_of").before == "2005-06-01"
    quiet = diff_plans(earlier, later, include_platform=False, include_plan=False)
    assert quiet == [c for c in full if c.item not in ("plan", "platform")]
    assert any(c.item == "setting" for c in quiet)


def test_order_of_items(kb: KnowledgeBase, linux_25g: Plan) -> None:
    other = _plan(
        kb,
        copy.deepcopy(LINUX_25G),
        {"network": {"nic_gbps": 10, "nic_count": 1, "jumbo_frames": False}},
    )
    other = other.model_copy(
        update={"kb_version": "2099.1.0", "checks": [*other.checks[1:]]},
    )
    other = _with_mount(other, "data", options=["rw", "hard"])
    changes = diff_plans(linux_25g, other)
    items = [c.item for c in changes]
    assert items == sorted(items, key=ORDER.index)
    assert {"plan", "platform", "mount", "check", "expectation"} <= set(items)
    for kind in ("volume", "mount", "setting", "finding", "check"):
        keys = [c.key for c in changes if c.item == kind]
        assert keys == sorted(keys)

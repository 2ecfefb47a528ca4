"""What the expert review of the plans found (issue "Expert-grade knowledge"), one test each.

Each test failed on knowledge base 2026.11.0 and passes from 2026.12.0.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from nasplan.domain.plan import Plan
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import TODAY, preset_platform

RAC2 = {"oracle": {"rac": True, "rac_nodes": 2}}


def _plan(
    kb: KnowledgeBase, preset: str, patch: dict[str, Any], as_of: dt.date | None = None
) -> Plan:
    return make_plan(kb, preset_platform(kb, preset, patch, as_of=as_of), TODAY)


def _options(plan: Plan, role: str) -> set[str]:
    return set(next(m for m in plan.mounts if role in m.serves).options)


def _settings(plan: Plan) -> dict[str, str]:
    return {s.key: s.value for s in plan.settings if s.action == "set"}


@pytest.mark.parametrize("bits", [64, 32])
def test_solaris_rac_keeps_forcedirectio_on_datafiles_and_clusterware(
    kb: KnowledgeBase, bits: int
) -> None:
    plan = _plan(
        kb,
        "tr3496-lab",
        {"oracle": {"rac": True, "rac_nodes": 2, "bits": bits, "version": "10.2.0.4"}},
    )
    for role in ("data", "redo", "control", "crs"):
        assert {"forcedirectio", "noac"} <= _options(plan, role), role
    assert "llock" not in _options(plan, "data")
    messages = " ".join(f.message for f in plan.findings)
    assert "stays cached" not in messages


# The first dated source that tells each RAC client to control attribute caching on shared
# datafiles: TR-3322 (May 2004) for Solaris and, as the principle it states for RAC on NFS, for
# the other Unix clients; the 2011 per-OS slides for Linux (actimeo=0).
RAC_FAMILIES: list[tuple[str, dict[str, Any], dt.date, set[str]]] = [
    ("tr3322-lab", {}, dt.date(2004, 5, 1), {"noac"}),
    ("example-aix", {}, dt.date(2004, 5, 1), {"noac"}),
    ("example-hpux", {}, dt.date(2004, 5, 1), {"noac"}),
    ("example-linux-knfs-7mode", {}, dt.date(2011, 1, 1), {"actimeo=0", "noac"}),
]


@pytest.mark.parametrize(("preset", "patch", "first", "controls"), RAC_FAMILIES)
def test_rac_datafiles_bypass_the_attribute_cache_at_every_date(
    kb: KnowledgeBase, preset: str, patch: dict[str, Any], first: dt.date, controls: set[str]
) -> None:
    for year in range(first.year, TODAY.year + 1):
        day = max(first, dt.date(year, 6, 1))
        if day > TODAY:
            break
        plan = _plan(kb, preset, {**patch, **RAC2}, as_of=day)
        found = _options(plan, "data") & controls
        assert found, f"{preset} RAC as of {day}: no attribute-cache control on datafiles"


def test_linux_rac_2012_has_actimeo_and_a_clusterware_volume(kb: KnowledgeBase) -> None:
    plan = _plan(
        kb,
        "example-linux-knfs-7mode",
        {"oracle": {"rac": True, "rac_nodes": 2, "version": "11.2.0.3"}},
        as_of=dt.date(2012, 6, 1),
    )
    assert "actimeo=0" in _options(plan, "data")
    assert any(v.role == "crs" for v in plan.volumes)
    assert {"actimeo=0"} <= _options(plan, "crs")


def test_rule_dates_say_how_sure_they_are(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "example-aix", RAC2)
    explanation = plan.rules["RAC-MNT-NOAC-AIX-HPUX"]
    assert explanation.effective_from == dt.date(2004, 5, 1)
    assert explanation.date_confidence == "inferred"
    assert explanation.date_note


def test_dss_from_10gr2_leaves_multiblock_read_count_unset(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "example-linux-knfs-7mode", {"oracle": {"workload": "dss"}})
    unset = {s.key for s in plan.settings if s.action == "unset"}
    assert "db_file_multiblock_read_count" in unset
    assert "db_file_multiblock_read_count" not in _settings(plan)
    older = _plan(kb, "tr3322-lab", {"oracle": {"workload": "dss"}})
    assert _settings(older).get("db_file_multiblock_read_count") == "32"


def test_tr3496_lab_values_are_facts_not_settings(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "tr3496-lab", {})
    settings = _settings(plan)
    for key in ("db_writer_processes", "nfs:nfs3_max_threads", "rlim_fd_cur", "sq_max_size"):
        assert key not in settings, key
    lab = [f for f in plan.findings if "TR-3496 lab used" in f.message]
    assert lab and all(f.severity == "info" for f in lab)


def test_filesystemio_options_is_setall_under_dnfs_too(kb: KnowledgeBase) -> None:
    # No effect while Direct NFS runs, but Direct NFS falls back to the kernel client silently
    # (DNFS-VERIFY-CHANNELS), and then setall keeps direct and asynchronous I/O (issue 20).
    plan = _plan(kb, "current-linux-ontap", {"oracle": {"dnfs": True}})
    assert _settings(plan).get("filesystemio_options") == "setall"
    knfs = _plan(kb, "current-linux-ontap", {"oracle": {"dnfs": False}})
    assert _settings(knfs).get("filesystemio_options") == "setall"


def test_a_local_home_note_does_not_promise_rac_an_easy_failover(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-rac", {"layout": {"oracle_home": "local"}})
    notes = " ".join(f.message for f in plan.findings)
    assert "fail-over" not in notes and "failover" not in notes


def test_aix_mounts_are_nointr_today(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "example-aix", {})
    assert "nointr" in _options(plan, "data") and "intr" not in _options(plan, "data")
    then = _plan(kb, "example-aix", {}, as_of=dt.date(2012, 6, 1))
    assert "intr" in _options(then, "data")


def test_solaris_8_findings_agree_on_request_sizes(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "tr3322-e4500", {})
    messages = {f.rule: f.message for f in plan.findings}
    assert "8 KB page-size requests" in messages["SOL-PRE9-PAGE-SPLIT"]
    # A ceiling of 32 KB per request, not a claim that Solaris 8 sends 32 KB requests.
    assert "stops at 32 KB" not in messages["SOL-PRE-9U5-SERIALIZED-IO"]
    assert "above 32 KB" in messages["SOL-PRE-9U5-SERIALIZED-IO"]


def test_solaris_11_gets_ipadm_not_ndd(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "fawcett-lab", {"host": {"os_version": "11"}})
    assert not [s for s in plan.settings if s.mechanism == "ndd"]
    assert any("ipadm set-prop -p max_buf=2097152 tcp" in f.message for f in plan.findings)
    solaris10 = _plan(kb, "fawcett-lab", {})
    assert {s.key for s in solaris10.settings if s.mechanism == "ndd"} >= {"tcp_max_buf"}


def test_a_noarchivelog_plan_says_why_it_has_an_archive_volume(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-linux-ontap", {"oracle": {"archivelog": False}})
    assert any(v.role == "archive" for v in plan.volumes)
    (finding,) = [f for f in plan.findings if f.rule == "ORA-NOARCHIVELOG"]
    assert "archive volume" in finding.message


def test_a_7mode_receive_window_below_the_path_bdp_is_flagged(kb: KnowledgeBase) -> None:
    # TR-3322's nfs.tcp.recvwindowsize 65536 was written for GbE; on 10GbE the plan's own
    # bandwidth-delay product is larger, so writes over one connection cannot fill the link.
    plan = _plan(kb, "example-linux-knfs-7mode", {})
    assert plan.expectations is not None
    assert plan.expectations.tcp_window_bytes > 65536
    (finding,) = [f for f in plan.findings if "filer's NFS TCP receive window" in f.message]
    assert finding.severity == "warning" and "65536" in finding.message
    gbe = _plan(kb, "tr3322-lab", {})
    assert not [f for f in gbe.findings if "filer's NFS TCP receive window" in f.message]


def test_the_oranfstab_path_cap_names_its_file_not_an_oracle_parameter(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-linux-ontap", {"oracle": {"nfs_version": "4.1"}})
    (cap,) = [s for s in plan.settings if s.key == "oranfstab_max_paths"]
    assert cap.mechanism == "dnfs" and cap.scope == "ORACLE_HOME/dbs/oranfstab"


def test_round_robin_warning_does_not_name_ontap_on_other_filers(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "fawcett-lab", {})
    (finding,) = [f for f in plan.findings if f.rule == "DNFS-NO-ROUND-ROBIN"]
    assert "ONTAP" not in finding.message and "load balancing" in finding.message


def _qos(plan: Plan) -> list[str]:
    return [f.message for f in plan.findings if f.rule == "ANF-VOLUME-QOS"]


def test_anf_without_sizing_says_the_pool_ceiling_needs_manual_qos(kb: KnowledgeBase) -> None:
    (message,) = _qos(_plan(kb, "current-anf", {}))
    assert "512 MiB/s" in message and "manual QoS" in message


def test_anf_data_volume_limited_by_its_own_quota(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-anf", {"sizing": {"database_gb": 1000}})
    data = next(v for v in plan.volumes if "data" in v.holds)
    assert data.size_gb is not None
    (message,) = _qos(plan)
    expected = 64 * data.size_gb / 1024
    assert f"limited to about {expected:,.0f} MiB/s" in message
    assert "not the 512 MiB/s of the 8 TiB" in message


def test_anf_data_volume_with_a_quota_as_large_as_the_pool_is_not_flagged(
    kb: KnowledgeBase,
) -> None:
    plan = _plan(kb, "current-anf", {"sizing": {"database_gb": 9000}})
    assert _qos(plan) == []

"""Volume sizing: hand-computed cases for each role, and properties that must always hold."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nasplan.domain.plan import Plan
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import preset_platform


def _plan(kb: KnowledgeBase, preset: str, sizing: dict[str, Any], **patch: Any) -> Plan:
    return make_plan(kb, preset_platform(kb, preset, {"sizing": sizing, **patch}))


def _volume(plan: Plan, role: str) -> Any:
    return next(v for v in plan.volumes if v.role == role)


def test_data_volume_grows_over_the_horizon_with_snapshot_reserve(kb: KnowledgeBase) -> None:
    plan = _plan(
        kb,
        "current-linux-ontap",
        {
            "database_gb": 1000,
            "growth_pct_per_year": 10,
            "horizon_years": 2,
            "daily_change_pct": 2,
            "snapshot_retention_days": 10,
        },
    )
    data = _volume(plan, "data")
    # 1000 x 1.1^2 = 1210 GB; 1210 x 2% x 10 days = 242 GB kept -> ceil(242/1452) = 17% reserve;
    # 1210 / 0.83 = 1457.8 -> 1458 GB; autosize 120% -> 1749.6 -> 1750 GB.
    assert data.size_gb == 1458
    assert data.sizing.snapshot_reserve_pct == 17
    assert data.sizing.autosize_max_gb == 1750
    assert "1000 GB x (1 + 10%)^2 = 1,210.0 GB" in data.sizing.arithmetic[0]
    assert "ontap-volume-docs: Configure ONTAP volumes to automatically grow and shrink" in (
        data.sizing.sources
    )


def test_redo_logs_from_the_peak_rate(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-linux-ontap", {"redo_mb_per_s": 2.5})
    redo = plan.capacity.redo_logs if plan.capacity else None
    assert redo is not None
    # 2.5 MB/s x 20 min x 60 s = 3000 MB per log; 2 groups x 1 thread = 5.86 GB; ONTAP's 5%
    # default reserve -> 6.17 -> 7 GB.
    assert (redo.log_file_mb, redo.groups_per_thread, redo.threads) == (3000, 2, 1)
    assert _volume(plan, "redo").size_gb == 7
    assert _volume(plan, "redo").sizing.snapshot_reserve_pct == 5


def test_slow_redo_gets_the_smallest_reasonable_log(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-linux-ontap", {"redo_mb_per_s": 0.05})
    assert plan.capacity and plan.capacity.redo_logs
    assert plan.capacity.redo_logs.log_file_mb == 100  # 60 MB rounds up to the 100 MB floor


def test_rac_has_one_redo_thread_per_node(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-rac", {"redo_mb_per_s": 2.5}, oracle={"rac": True, "rac_nodes": 3})
    assert plan.capacity and plan.capacity.redo_logs
    assert plan.capacity.redo_logs.threads == 3
    # 3 threads x 2 groups x 3000 MB = 17.58 GB / 0.95 = 18.5 -> 19 GB
    assert _volume(plan, "redo").size_gb == 19


def test_archive_retention_at_peak_redo_and_time_to_full(kb: KnowledgeBase) -> None:
    plan = _plan(
        kb,
        "current-linux-ontap",
        {"redo_gb_per_day": 50, "archive_retention_days": 7, "redo_mb_per_s": 2.5},
    )
    archive = _volume(plan, "archive")
    assert archive.size_gb == 369  # 350 GB / 0.95 = 368.4
    watch = plan.capacity.archive if plan.capacity else None
    assert watch is not None and watch.alert_pct == 95
    # 5% of 369 GB = 18.45 GB = 18,892.8 MB at 2.5 MB/s = 7,557 s = 2.1 h
    assert watch.hours_to_full_after_alert == 2.1


def test_cloud_volumes_have_no_reserve_but_a_minimum_and_a_capacity_check(
    kb: KnowledgeBase,
) -> None:
    plan = _plan(kb, "current-anf", {"redo_mb_per_s": 0.05, "database_gb": 100})
    redo = _volume(plan, "redo")
    assert redo.size_gb == 50  # 0.2 GB of logs, raised to Azure's 50 GiB smallest volume
    assert redo.sizing.snapshot_reserve_pct is None and redo.sizing.autosize_max_gb is None
    cloud = plan.capacity.cloud if plan.capacity else None
    assert cloud is not None and cloud.service_level == "premium"
    expected = plan.expectations.planned_scan_mb_s
    assert expected is not None
    assert cloud.needed_tib_for_throughput == round(expected / (64 * 1024 * 1024 / 1e6), 2)


def test_no_inputs_no_sizes(kb: KnowledgeBase) -> None:
    assert make_plan(kb, preset_platform(kb, "current-rac")).capacity is None
    plan = _plan(kb, "current-rac", {})
    assert all(v.size_gb is None and v.sizing is None for v in plan.volumes)
    assert plan.capacity is not None and plan.capacity.redo_logs is None
    assert len(plan.capacity.not_sized) == len(plan.volumes)


def test_volumes_without_cited_figures_say_so(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-rac", {"database_gb": 100, "oracle_homes": 2})
    assert plan.capacity is not None
    reasons = " ".join(plan.capacity.not_sized)
    assert "orahome: needs oracle_homes and oracle_home_gb (the knowledge base has no" in reasons
    assert "crs: needs crs_gb (the knowledge base has no cited size" in reasons


def test_home_and_clusterware_volumes_from_the_figures_given(kb: KnowledgeBase) -> None:
    plan = _plan(kb, "current-rac", {"oracle_homes": 2, "oracle_home_gb": 40, "crs_gb": 10})
    home, crs = _volume(plan, "oracle_home"), _volume(plan, "crs")
    # 2 x 40 = 80 GB / 0.95 (ONTAP's default reserve) = 84.2 -> 85; 10 / 0.95 = 10.5 -> 11
    assert (home.size_gb, crs.size_gb) == (85, 11)
    assert "The size of one Oracle home is the figure given, not a cited one." in (
        home.sizing.assumptions
    )


def test_shared_layout_adds_data_and_redo(kb: KnowledgeBase) -> None:
    plan = _plan(
        kb,
        "current-linux-ontap",
        {"database_gb": 100, "redo_mb_per_s": 2.5},
        layout={"volumes": "shared"},
    )
    data = _volume(plan, "data")
    assert set(data.holds) >= {"data", "redo"}
    # 100 GB + 5.86 GB of logs, 5% reserve: 105.86 / 0.95 = 111.4 -> 112 GB
    assert data.size_gb == 112


@settings(max_examples=40, deadline=None)
@given(
    base=st.floats(1, 50_000),
    extra=st.floats(0.1, 50_000),
    growth=st.floats(0, 50),
    years=st.integers(0, 10),
    change=st.floats(0.1, 20),
    days=st.integers(1, 60),
)
def test_more_data_never_gives_a_smaller_volume(
    kb: KnowledgeBase,
    base: float,
    extra: float,
    growth: float,
    years: int,
    change: float,
    days: int,
) -> None:
    sizes = []
    for gb in (base, base + extra):
        sizing = {
            "database_gb": gb,
            "growth_pct_per_year": growth,
            "horizon_years": years,
            "daily_change_pct": change,
            "snapshot_retention_days": days,
        }
        sizes.append(_volume(_plan(kb, "current-linux-ontap", sizing), "data").size_gb)
    assert sizes[0] <= sizes[1]


@settings(max_examples=25, deadline=None)
@given(rate=st.floats(0.01, 2000), more=st.floats(0.01, 2000))
def test_more_redo_never_gives_smaller_logs(kb: KnowledgeBase, rate: float, more: float) -> None:
    logs = []
    for r in (rate, rate + more):
        plan = _plan(kb, "current-linux-ontap", {"redo_mb_per_s": r})
        assert plan.capacity and plan.capacity.redo_logs
        logs.append((plan.capacity.redo_logs.log_file_mb, _volume(plan, "redo").size_gb))
    assert logs[0][0] <= logs[1][0] and logs[0][1] <= logs[1][1]

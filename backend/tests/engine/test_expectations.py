"""The expectations model against the sources' own figures."""

from __future__ import annotations

import datetime as dt

import pytest

from nasplan.engine.path_model import PathModel, stack_us
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import TODAY, preset_platform


def test_wire_time_of_8k(kb: KnowledgeBase) -> None:
    reply = kb.expectations.frame.nfs_read_reply_8k_bytes.value
    assert reply is not None
    one_gig = PathModel(kb.expectations, 1, 1500).wire_us(reply)
    ten_gig = PathModel(kb.expectations, 10, 1500).wire_us(reply)
    assert one_gig == pytest.approx(80, rel=0.15)  # slides: ~80 us on 1GbE
    assert ten_gig == pytest.approx(8, rel=0.15)  # slides: ~8 us on 10GbE


def test_gbe_payload_ceiling_within_measured_range(kb: KnowledgeBase) -> None:
    ceiling = PathModel(kb.expectations, 1, 1500).ceiling_mb_s()
    low, high = kb.expectations.gbe_payload_ceiling_mb_s.range or (0, 0)
    assert low <= ceiling <= high


def test_stack_share_matches_the_slides(kb: KnowledgeBase) -> None:
    assert stack_us(kb.expectations, jumbo=True) == 120
    assert stack_us(kb.expectations, jumbo=False) == 270


@pytest.mark.parametrize(("rtt_us", "expected"), [(600, 53), (2000, 16), (5000, 6)])
def test_serial_checkpoints(kb: KnowledgeBase, rtt_us: float, expected: float) -> None:
    platform = preset_platform(kb, "tr3322-lab", {"network": {"rtt_us": rtt_us}})
    plan = make_plan(kb, platform, TODAY)
    assert plan.expectations.rtt_measured
    assert plan.expectations.single_stream_mb_s == pytest.approx(expected, rel=0.1)


def test_modelled_rtt_of_a_typical_gbe_path_is_near_600us(kb: KnowledgeBase) -> None:
    # 1GbE, MTU 1500, one store-and-forward switch: Closson's comment estimates ~600 us.
    platform = preset_platform(
        kb, "tr3322-lab", {"network": {"jumbo_frames": False, "switch_hops": 1}}
    )
    plan = make_plan(kb, platform, TODAY)
    assert plan.expectations.rtt_us == pytest.approx(600, rel=0.1)
    assert plan.expectations.single_stream_mb_s == pytest.approx(53, rel=0.1)


def test_single_stream_capped_by_nic(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "tr3322-lab", {"network": {"rtt_us": 10}})
    e = make_plan(kb, platform, TODAY).expectations
    assert e.single_stream_mb_s == e.nic_payload_ceiling_mb_s
    assert "NIC bandwidth" in e.bottleneck


def test_nfs_overhead_against_disk(kb: KnowledgeBase) -> None:
    # Back to back, jumbo frames, 1GbE: the slides' ~200 us, about 3% of a 7 ms read.
    e = make_plan(kb, preset_platform(kb, "tr3322-lab"), TODAY).expectations
    assert e.nfs_overhead_8k_us == pytest.approx(200, rel=0.1)
    # 10GbE jumbo: the slides' 128 us is 1.8% of a 7 ms read.
    platform = preset_platform(kb, "tr3322-lab", {"network": {"nic_gbps": 10}})
    e10 = make_plan(kb, platform, TODAY).expectations
    assert e10.nfs_overhead_8k_us == pytest.approx(128, rel=0.05)
    assert e10.overhead_vs_disk_pct == pytest.approx(1.8, abs=0.1)


def test_routers_dominate_the_budget(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "tr3322-lab", {"network": {"router_hops": 2}})
    e = make_plan(kb, platform, TODAY).expectations
    routers = next(p for p in e.latency_budget_us if p.part == "routers")
    assert routers.us == 800
    assert "routers" in e.bottleneck
    assert any("router" in idea for idea in e.improvements)


def test_bandwidth_delay_product(kb: KnowledgeBase) -> None:
    # Slides: 1 ms one way on 1 Gb/s -> 250 KB; i.e. a 2 ms round trip.
    platform = preset_platform(kb, "tr3322-lab", {"network": {"rtt_us": 2000}})
    e = make_plan(kb, platform, TODAY).expectations
    assert e.tcp_window_bytes == 250_000


def test_solaris8_moves_8k_per_round_trip(kb: KnowledgeBase) -> None:
    e = make_plan(kb, preset_platform(kb, "tr3322-e4500"), TODAY).expectations
    assert e.transfer_bytes == 8192


def test_dnfs_and_linux_are_not_serial(kb: KnowledgeBase) -> None:
    for preset in ("current-linux-ontap", "fawcett-lab"):
        e = make_plan(kb, preset_platform(kb, preset), TODAY).expectations
        assert e.serial_client is False
        assert e.pipelined_stream_mb_s == e.nic_payload_ceiling_mb_s
    # A Linux kernel client pipelines too, over its one TCP connection (10GbE: below the link).
    knfs = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode"), TODAY).expectations
    assert knfs.serial_client is False
    connection = kb.expectations.knfs_connection_mb_s.mb_s
    assert knfs.pipelined_stream_mb_s == pytest.approx(connection, abs=0.1)
    e = make_plan(kb, preset_platform(kb, "tr3322-lab"), TODAY).expectations
    assert e.serial_client is True and e.pipelined_stream_mb_s is None


def test_window_warning_when_planned_window_below_bdp(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "tr3322-lab", {"network": {"rtt_us": 2000}})
    plan = make_plan(kb, platform, TODAY)
    assert any(f.rule == "NET-TCP-WINDOW-BDP" and f.severity == "warning" for f in plan.findings)
    plan = make_plan(kb, preset_platform(kb, "tr3322-lab"), TODAY)
    assert not any(f.rule == "NET-TCP-WINDOW-BDP" for f in plan.findings)


# Fawcett's scan: parallel(item, 32) over one 10GbE link, Solaris 10 u8, Sun 7410.
FAWCETT_DNFS_MB_S = 1140.0  # "1.14GB/sec with dNFS", 6.36 s
FAWCETT_KNFS_MB_S = FAWCETT_DNFS_MB_S * 6.36 / 16.18  # the same scan took 16.18 s on kNFS


def _within(value: float | None, measured: float, tolerance: float = 0.15) -> bool:
    return value is not None and abs(value - measured) <= tolerance * measured


def test_fawcett_scans_are_reproduced_within_15_percent(kb: KnowledgeBase) -> None:
    dnfs = make_plan(kb, preset_platform(kb, "fawcett-lab")).expectations
    knfs = make_plan(kb, preset_platform(kb, "fawcett-lab", {"oracle": {"dnfs": False}}))
    assert dnfs.planned_client == "Direct NFS over one path"
    assert _within(dnfs.planned_scan_mb_s, FAWCETT_DNFS_MB_S)
    assert _within(knfs.expectations.planned_scan_mb_s, FAWCETT_KNFS_MB_S)
    # and the headline is no longer the serial figure, which undershoots by a factor of ten
    assert not _within(dnfs.single_stream_mb_s, FAWCETT_DNFS_MB_S)


def test_pipelining_clients_are_not_described_as_one_request_at_a_time(
    kb: KnowledgeBase,
) -> None:
    for patch in ({"oracle": {"dnfs": True}}, {"oracle": {"dnfs": False}}):
        e = make_plan(kb, preset_platform(kb, "current-linux-ontap", patch)).expectations
        assert "one request at a time" not in e.bottleneck
        assert "in flight" in e.bottleneck and not e.serial_client
    knfs = make_plan(
        kb, preset_platform(kb, "current-linux-ontap", {"oracle": {"dnfs": False}})
    ).expectations
    # One TCP connection to the filer: below the 25GbE link, at what one connection carried.
    connection = kb.expectations.knfs_connection_mb_s.mb_s
    scan = knfs.planned_scan_mb_s
    assert scan is not None and scan == pytest.approx(connection, abs=0.1)
    assert scan < knfs.nic_payload_ceiling_mb_s


def test_dnfs_paths_follow_the_oranfstab(kb: KnowledgeBase) -> None:
    two = make_plan(kb, preset_platform(kb, "current-linux-ontap")).expectations
    one = make_plan(
        kb, preset_platform(kb, "current-linux-ontap", {"oracle": {"nfs_version": "4.1"}})
    ).expectations
    assert two.planned_client == "Direct NFS over 2 paths"
    assert one.planned_client == "Direct NFS over one path"
    assert one.planned_scan_mb_s is not None and two.planned_scan_mb_s is not None
    assert one.planned_scan_mb_s < two.planned_scan_mb_s


def test_the_model_says_its_server_figures_are_from_the_sources_hardware(
    kb: KnowledgeBase,
) -> None:
    e = make_plan(kb, preset_platform(kb, "current-linux-ontap")).expectations
    assert any("2004-2011 hardware" in a for a in e.assumptions)


def test_cloud_nas_service_level_caps_the_planned_scan(kb: KnowledgeBase) -> None:
    premium = make_plan(kb, preset_platform(kb, "current-anf")).expectations
    # Premium: 64 MiB/s per TiB (Microsoft); 8 TiB -> 512 MiB/s = 536.9 MB/s.
    assert premium.service_ceiling_mb_s == 536.9
    assert premium.planned_scan_mb_s == 536.9
    assert premium.bottleneck.startswith("Service level")
    ultra = make_plan(
        kb,
        preset_platform(
            kb, "current-anf", {"filer": {"service_level": "ultra", "capacity_tib": 64}}
        ),
    ).expectations
    # 8,192 MiB/s of service: the 25GbE link is the limit again.
    assert ultra.service_ceiling_mb_s == round(128 * 64 * 1_048_576 / 1e6, 1)
    assert ultra.planned_scan_mb_s == ultra.nic_payload_ceiling_mb_s
    assert not ultra.bottleneck.startswith("Service level")
    onprem = make_plan(kb, preset_platform(kb, "current-linux-ontap")).expectations
    assert onprem.service_ceiling_mb_s is None


@pytest.mark.parametrize("preset", ["current-anf", "current-fsxn", "current-gcnv"])
def test_no_network_building_ideas_on_a_managed_cloud_path(kb: KnowledgeBase, preset: str) -> None:
    # The presets give 25GbE, a store-and-forward hop and no jumbo frames: on premises each of
    # those yields an idea; on the provider's network none can be acted on.
    plan = make_plan(kb, preset_platform(kb, preset), dt.date(2026, 11, 26))
    assert plan.expectations is not None
    ideas = " ".join(plan.expectations.improvements)
    for idea in ("Jumbo frames", "Cut-through", "switches", "layer-2", "10GbE"):
        assert idea not in ideas, (preset, idea)


def test_network_ideas_stay_for_a_network_one_builds(kb: KnowledgeBase) -> None:
    patch = {"network": {"jumbo_frames": False, "switch": "store_and_forward"}}
    plan = make_plan(kb, preset_platform(kb, "current-linux-ontap", patch), dt.date(2026, 11, 26))
    assert plan.expectations is not None
    ideas = " ".join(plan.expectations.improvements)
    assert "Jumbo frames" in ideas and "Cut-through switches" in ideas


def test_a_kernel_client_is_held_to_its_one_connection_and_says_so(kb: KnowledgeBase) -> None:
    """Issue 22: on one 25GbE path a Linux kernel client was planned at the link (3.1 GB/s), so
    kernel NFS -> Direct NFS showed no gain although Microsoft measured up to 2.8 times."""
    platform = {"oracle": {"dnfs": False}, "network": {"nic_count": 1}}
    knfs = make_plan(kb, preset_platform(kb, "current-linux-ontap", platform)).expectations
    dnfs = make_plan(
        kb, preset_platform(kb, "current-linux-ontap", {"network": {"nic_count": 1}})
    ).expectations
    assert knfs.bottleneck.startswith("One TCP connection")
    assert "384 to 448 MB/s" in knfs.bottleneck
    assert knfs.planned_scan_mb_s is not None and dnfs.planned_scan_mb_s is not None
    assert dnfs.planned_scan_mb_s > 2 * knfs.planned_scan_mb_s
    assert any("one TCP connection" in a for a in knfs.assumptions)
    # On GbE the link binds first: the connection is not named as the limit there.
    gbe = make_plan(
        kb,
        preset_platform(
            kb, "current-linux-ontap", {**platform, "network": {"nic_gbps": 1, "nic_count": 1}}
        ),
    ).expectations
    assert not gbe.bottleneck.startswith("One TCP connection")


def test_a_serial_client_s_parallel_scan_follows_the_round_trip(kb: KnowledgeBase) -> None:
    """Issue 22: the serial client's scan was max(single, 0.393 x link) whatever the round trip.
    Now 32 streams with one request each: on GbE they fill the link; over a slow path (5 ms)
    they do not, and the scan falls with the round trip."""
    lab = make_plan(kb, preset_platform(kb, "tr3322-e4500"), TODAY).expectations
    assert lab.planned_scan_mb_s == lab.nic_payload_ceiling_mb_s
    assert lab.bottleneck.startswith("NIC bandwidth: parallel streams fill")
    assert any("measured on Solaris 10 u8 only" in a for a in lab.assumptions)
    far = make_plan(
        kb, preset_platform(kb, "tr3322-lab", {"network": {"rtt_us": 20000}}), TODAY
    ).expectations
    scan = far.planned_scan_mb_s
    assert scan is not None and scan == pytest.approx(32 * far.single_stream_mb_s, rel=0.05)
    assert scan < far.nic_payload_ceiling_mb_s
    assert far.bottleneck.startswith("Round-trip latency")


def test_a_connection_bound_scan_carries_the_measured_range(kb: KnowledgeBase) -> None:
    """Issue 22: figures shown as a range where the model is uncertain. A kernel client held
    to its one connection gets the lowest and highest measurement beside the mean."""
    knfs = make_plan(
        kb, preset_platform(kb, "fawcett-lab", {"oracle": {"dnfs": False}})
    ).expectations
    assert (knfs.planned_scan_low_mb_s, knfs.planned_scan_high_mb_s) == (383.5, 448.0)
    dnfs = make_plan(kb, preset_platform(kb, "fawcett-lab")).expectations
    assert dnfs.planned_scan_low_mb_s is None and dnfs.planned_scan_high_mb_s is None

"""Kernel NFS over several storage paths: each volume through one path's filer address
(NET-MULTIPATH-SCALING, issue 22)."""

from __future__ import annotations

from typing import Any

from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import preset_platform


def _paths(count: int) -> dict[str, Any]:
    return {"paths": [{"filer_address": f"192.168.{10 + n}.21"} for n in range(count)]}


def test_three_paths_give_the_data_files_one_and_share_the_rest(kb: KnowledgeBase) -> None:
    patch = {"network": {"nic_count": 3}, "handover": _paths(3)}
    plan = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode", patch))
    placed = {m.mount_point: (m.path, m.export.split(":")[0]) for m in plan.mounts}
    assert placed == {
        "/u02/oradata/ORCL": (1, "192.168.10.21"),
        "/u03/oralog/ORCL": (2, "192.168.11.21"),
        "/u04/oraarch/ORCL": (3, "192.168.12.21"),
    }
    spread = [f for f in plan.findings if f.rule == "NET-MULTIPATH-SCALING"]
    assert len(spread) == 1 and "spread over 3 storage paths" in spread[0].message
    assert any("spread over 3 storage paths" in a for a in plan.expectations.assumptions)
    # The data files still travel one path: the scan is what one connection carries.
    one = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode"))
    assert plan.expectations.planned_scan_mb_s == one.expectations.planned_scan_mb_s


def test_the_mounts_of_one_volume_stay_together_and_paths_are_reused(kb: KnowledgeBase) -> None:
    """RAC: redo and control files share a volume (and so a path); with two paths, every volume
    but the data files' goes to the second."""
    patch = {"oracle": {"dnfs": False}, "handover": _paths(2)}
    plan = make_plan(kb, preset_platform(kb, "current-rac", patch))
    by_volume: dict[str, set[int | None]] = {}
    for mount in plan.mounts:
        by_volume.setdefault(mount.volume, set()).add(mount.path)
    assert all(len(paths) == 1 for paths in by_volume.values())
    data = next(m for m in plan.mounts if m.role == "data")
    assert data.path == 1
    assert {m.path for m in plan.mounts if m.volume != data.volume} == {2}


def test_without_the_filer_s_addresses_nothing_moves_and_the_plan_says_what_to_give(
    kb: KnowledgeBase,
) -> None:
    plan = make_plan(kb, preset_platform(kb, "tr3322-lab"))
    assert all(m.path is None for m in plan.mounts)
    assert all(m.export.startswith(f"{plan.platform.layout.filer_host}:") for m in plan.mounts)
    message = next(f.message for f in plan.findings if f.rule == "NET-MULTIPATH-SCALING")
    assert "Give the filer's address on each storage path" in message
    # One address is not a spread either.
    one = make_plan(
        kb,
        preset_platform(
            kb, "example-linux-knfs-7mode", {"network": {"nic_count": 2}, "handover": _paths(1)}
        ),
    )
    assert all(m.path is None for m in one.mounts)


def test_direct_nfs_is_not_spread_by_mount(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "current-linux-ontap", {"handover": _paths(2)}))
    assert plan.platform.oracle.dnfs
    assert all(m.path is None for m in plan.mounts)


def test_a_dss_database_has_its_data_files_split_over_a_volume_per_path(
    kb: KnowledgeBase,
) -> None:
    """Closson's scans scaled with the paths because the data files were on every one of them:
    a scan-bound (DSS) database gets one data volume per path."""
    patch = {
        "network": {"nic_count": 3},
        "handover": _paths(3),
        "oracle": {"workload": "dss"},
        "sizing": {"database_gb": 3000},
    }
    plan = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode", patch))
    data = [m for m in plan.mounts if "data" in m.serves]
    assert [(m.mount_point, m.path, m.export.split(":")[0]) for m in data] == [
        ("/u02/oradata1/ORCL", 1, "192.168.10.21"),
        ("/u02/oradata2/ORCL", 2, "192.168.11.21"),
        ("/u02/oradata3/ORCL", 3, "192.168.12.21"),
    ]
    volumes = [v for v in plan.volumes if "data" in v.holds]
    assert [v.name for v in volumes] == ["orcl_data1", "orcl_data2", "orcl_data3"]
    assert all(v.split_over == 3 for v in volumes)
    # Every mount of a data volume has the options the data files' rules give.
    assert len({tuple(m.options) for m in data}) == 1
    # Each data volume holds a third of the database.
    assert all(v.sizing is not None for v in volumes)
    assert all("3,000.0 GB / 3 data volumes" in " ".join(v.sizing.arithmetic) for v in volumes)  # type: ignore[union-attr]
    # The other volumes share the paths after the first.
    others = {m.mount_point: m.path for m in plan.mounts if "data" not in m.serves}
    assert others == {"/u03/oralog/ORCL": 2, "/u04/oraarch/ORCL": 3}
    # A scan reads every data volume at once: three paths' worth, at Closson's linearity.
    one = make_plan(
        kb, preset_platform(kb, "example-linux-knfs-7mode", {"oracle": {"workload": "dss"}})
    )
    assert one.expectations.planned_scan_mb_s is not None
    assert plan.expectations.planned_scan_mb_s is not None
    assert plan.expectations.planned_scan_mb_s > 2.5 * one.expectations.planned_scan_mb_s
    message = next(f.message for f in plan.findings if f.rule == "NET-MULTIPATH-SCALING")
    assert "3 data volumes" in message


def test_an_oltp_database_keeps_its_data_files_in_one_volume(kb: KnowledgeBase) -> None:
    patch = {"network": {"nic_count": 2}, "handover": _paths(2)}
    plan = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode", patch))
    assert [v.name for v in plan.volumes if "data" in v.holds] == ["orcl_data"]
    assert all(v.split_over is None for v in plan.volumes)


def test_direct_nfs_dss_keeps_one_data_volume(kb: KnowledgeBase) -> None:
    """Direct NFS reads one volume over every path itself."""
    patch = {"oracle": {"workload": "dss"}, "handover": _paths(2)}
    plan = make_plan(kb, preset_platform(kb, "current-linux-ontap", patch))
    assert len([v for v in plan.volumes if "data" in v.holds]) == 1


def test_split_datafiles_on_fast_links_are_bound_by_a_connection_per_path(
    kb: KnowledgeBase,
) -> None:
    """10GbE paths carry more than one kernel NFS connection: the scan is one connection's
    worth per path, and its range is the measured range per path, added up."""
    patch = {
        "network": {"nic_count": 2, "nic_gbps": 10},
        "handover": _paths(2),
        "oracle": {"workload": "dss"},
    }
    plan = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode", patch))
    e = plan.expectations
    connection = kb.expectations.knfs_connection_mb_s
    low, high = connection.measured_range
    assert e.planned_scan_mb_s == round(connection.mb_s * 2 * 0.97, 1)
    assert (e.planned_scan_low_mb_s, e.planned_scan_high_mb_s) == (
        round(low * 2 * 0.97, 1),
        round(high * 2 * 0.97, 1),
    )
    assert e.bottleneck.startswith("One TCP connection per path")
    assert plan.summary is not None
    assert "bound by one TCP connection per path" in " ".join(plan.summary.decisions)


def test_random_reads_over_split_datafiles_use_every_path(kb: KnowledgeBase) -> None:
    base = {"network": {"nic_count": 2, "nic_gbps": 10}, "oracle": {"workload": "dss"}}
    one = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode", base))
    two = make_plan(
        kb, preset_platform(kb, "example-linux-knfs-7mode", {**base, "handover": _paths(2)})
    )
    assert one.expectations.random_8k_reads_ceiling is not None
    assert two.expectations.random_8k_reads_ceiling is not None
    ratio = two.expectations.random_8k_reads_ceiling / one.expectations.random_8k_reads_ceiling
    assert abs(ratio - 2 * 0.97) < 0.02, ratio


def test_every_preset_splits_into_distinct_volumes_and_mounts(kb: KnowledgeBase) -> None:
    """Whatever the platform (RAC, Oracle home on the filer, cloud services, 7-mode), a split
    gives distinct volume names and mount points, one data mount per data volume, and the
    volumes after the first are mounted at their root."""
    split = 0
    for name in kb.presets:
        try:
            platform = preset_platform(
                kb,
                name,
                {
                    "network": {"nic_count": 2},
                    "oracle": {"dnfs": False, "workload": "dss"},
                    "handover": _paths(2),
                },
            )
        except ValueError:
            continue  # a preset the patch does not fit (a release without kernel NFS, ...)
        plan = make_plan(kb, platform)
        data = [v for v in plan.volumes if "data" in v.holds]
        if len(data) < 2:
            continue
        split += 1
        assert len({v.name for v in plan.volumes}) == len(plan.volumes), name
        assert len({m.mount_point for m in plan.mounts}) == len(plan.mounts), name
        for volume in data:
            mounts = [m for m in plan.mounts if m.volume == volume.name and "data" in m.serves]
            assert len(mounts) == 1, (name, volume.name)
            if volume is not data[0]:
                assert mounts[0].export.partition(":")[2] == volume.export, name
    assert split >= 5

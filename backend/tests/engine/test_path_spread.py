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

"""Volume sizing: how big each planned volume must be, from ``platform.sizing``.

The arithmetic is nasplan's; the figures it uses (log switch interval, smallest reasonable redo
log, redo log groups, ONTAP's snapshot reserve, autosize and alert defaults, cloud minimums)
come from ``knowledge/model/sizing.yaml`` with their sources. A volume gets a size only when the
inputs for every kind of file it holds are given; otherwise it is listed as not sized, with the
inputs that would size it.

* Data: ``database_gb * (1 + growth_pct_per_year/100) ** horizon_years``.
* Online redo logs: one log file holds the peak redo rate for the switch interval,
  ``ceil(redo_mb_per_s * 60 * minutes / 100) * 100`` MB, at least the smallest reasonable size;
  ``groups_min`` groups per instance thread; one member each (the plan's layout keeps one redo
  volume); control files are not counted.
* Archive: ``redo_gb_per_day * archive_retention_days``.
* Snapshots (when daily_change_pct and snapshot_retention_days are given): the changed data
  kept, ``projected * daily_change_pct/100 * snapshot_retention_days``, held as the snapshot
  reserve; without them ONTAP's default reserve is kept and counted.
* ONTAP volumes: ``size = contents / (1 - reserve/100)``, autosize to the default maximum share.
* Sizes are whole GB (1 GB = 1024 MB), rounded up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from nasplan.domain.plan import Volume
from nasplan.domain.plan_capacity import (
    ArchiveWatch,
    Capacity,
    CloudCapacity,
    RedoLogPlan,
    VolumeSizing,
)
from nasplan.domain.platform import Platform, Sizing
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import Figure, FilerFamilyEntry

ONTAP_FAMILIES = frozenset({"ontap7", "ontap_cluster", "fsxn"})
CLOUD_LEVEL_FAMILIES = frozenset({"anf", "gcnv"})
MIB = 1024 * 1024


def _cite(figure: Figure) -> str:
    return f"{figure.source.id}: {figure.source.locator}"


def _value(figure: Figure) -> float:
    assert figure.value is not None
    return figure.value


@dataclass
class _Part:
    """What one kind of file needs in a volume, in GB, and how that was reached."""

    gb: float
    arithmetic: list[str]
    sources: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)


def redo_log_plan(kb: KnowledgeBase, platform: Platform) -> RedoLogPlan | None:
    sizing = platform.sizing
    if sizing is None or sizing.redo_mb_per_s is None:
        return None
    redo = kb.sizing.redo
    minutes = _value(redo.log_switch_minutes)
    floor_mb = int(_value(redo.log_file_min_mb))
    raw = sizing.redo_mb_per_s * 60 * minutes
    log_mb = max(floor_mb, int(math.ceil(raw / 100) * 100))
    threads = (platform.oracle.rac_nodes or 2) if platform.oracle.rac else 1
    return RedoLogPlan(
        log_file_mb=log_mb,
        groups_per_thread=int(_value(redo.groups_min)),
        threads=threads,
        basis=f"{sizing.redo_mb_per_s:g} MB/s peak x {minutes:g} min between switches = "
        f"{raw:,.0f} MB, rounded up to {log_mb:,} MB (at least {floor_mb} MB)",
    )


def _data(s: Sizing, split_over: int | None) -> _Part | None:
    if s.database_gb is None:
        return None
    growth, years = s.growth_pct_per_year or 0.0, s.horizon_years or 0
    projected = s.database_gb * (1 + growth / 100) ** years
    line = (
        f"datafiles: {s.database_gb:g} GB x (1 + {growth:g}%)^{years} = {projected:,.1f} GB"
        if growth and years
        else f"datafiles: {s.database_gb:g} GB (no growth given)"
    )
    if not split_over or split_over < 2:
        return _Part(projected, [line])
    share = projected / split_over
    return _Part(
        share,
        [
            line,
            f"this volume's share: {projected:,.1f} GB / {split_over} data volumes "
            f"= {share:,.1f} GB",
        ],
    )


def _redo(kb: KnowledgeBase, plan: RedoLogPlan | None) -> _Part | None:
    if plan is None:
        return None
    gb = plan.threads * plan.groups_per_thread * plan.log_file_mb / 1024
    redo = kb.sizing.redo
    return _Part(
        gb,
        [
            f"online redo logs: {plan.threads} thread(s) x {plan.groups_per_thread} groups x "
            f"{plan.log_file_mb:,} MB = {gb:,.1f} GB ({plan.basis})"
        ],
        [_cite(redo.log_switch_minutes), _cite(redo.groups_min)],
        ["One member per group on this volume; control files are not counted."],
    )


def _archive(kb: KnowledgeBase, s: Sizing) -> _Part | None:
    if s.redo_gb_per_day is None or s.archive_retention_days is None:
        return None
    gb = s.redo_gb_per_day * s.archive_retention_days
    return _Part(
        gb,
        [
            f"archived logs: {s.redo_gb_per_day:g} GB/day x {s.archive_retention_days} days = "
            f"{gb:,.1f} GB"
        ],
        [_cite(kb.sizing.full_log_volume)],
        ["Archived logs are as large as the redo they copy."],
    )


_MISSING = {
    "data": "database_gb",
    "redo": "redo_mb_per_s",
    "archive": "redo_gb_per_day and archive_retention_days",
    "oracle_home": "oracle_homes and oracle_home_gb (the knowledge base has no cited size of "
    "an Oracle home for every platform)",
    "crs": "crs_gb (the knowledge base has no cited size for the Clusterware files)",
}


def _homes(s: Sizing) -> _Part | None:
    if s.oracle_homes is None or s.oracle_home_gb is None:
        return None
    gb = s.oracle_homes * s.oracle_home_gb
    return _Part(
        gb,
        [f"Oracle homes: {s.oracle_homes} x {s.oracle_home_gb:g} GB = {gb:,.1f} GB"],
        assumptions=["The size of one Oracle home is the figure given, not a cited one."],
    )


def _crs(s: Sizing) -> _Part | None:
    if s.crs_gb is None:
        return None
    return _Part(
        s.crs_gb,
        [f"Clusterware files: {s.crs_gb:g} GB"],
        assumptions=["The Clusterware files' size is the figure given, not a cited one."],
    )


def _parts(
    kb: KnowledgeBase, volume: Volume, s: Sizing, redo: RedoLogPlan | None
) -> tuple[list[_Part], list[str]]:
    parts: list[_Part] = []
    missing: list[str] = []
    for role in volume.holds:
        if role == "control":
            continue  # small next to the redo logs it sits with
        part: _Part | None = None
        if role == "data":
            part = _data(s, volume.split_over)
        elif role == "redo":
            part = _redo(kb, redo)
        elif role == "archive":
            part = _archive(kb, s)
        elif role == "oracle_home":
            part = _homes(s)
        elif role == "crs":
            part = _crs(s)
        if part is None:
            missing.append(_MISSING.get(role, role))
        else:
            parts.append(part)
    return parts, missing


def _size(
    kb: KnowledgeBase, volume: Volume, parts: list[_Part], s: Sizing, family: str
) -> tuple[int, VolumeSizing]:
    contents = sum(p.gb for p in parts)
    arithmetic = [line for p in parts for line in p.arithmetic]
    sources = [src for p in parts for src in p.sources]
    assumptions = [a for p in parts for a in p.assumptions]
    ontap = kb.sizing.ontap
    reserve: int | None = None
    autosize: int | None = None
    snapshots_given = s.daily_change_pct is not None and s.snapshot_retention_days is not None
    if snapshots_given and "data" in volume.holds:
        assert s.daily_change_pct is not None and s.snapshot_retention_days is not None
        data = next(p.gb for p in parts if p.arithmetic[0].startswith("datafiles"))
        kept = data * s.daily_change_pct / 100 * s.snapshot_retention_days
        reserve = min(90, math.ceil(kept / (contents + kept) * 100)) if kept else 0
        arithmetic.append(
            f"snapshots: {data:,.1f} GB x {s.daily_change_pct:g}%/day x "
            f"{s.snapshot_retention_days} days = {kept:,.1f} GB kept, {reserve}% of the volume"
        )
    elif family in ONTAP_FAMILIES:
        reserve = int(_value(ontap.snapshot_reserve_default_pct))
        sources.append(_cite(ontap.snapshot_reserve_default_pct))
        assumptions.append(
            f"ONTAP's default {reserve}% snapshot reserve is kept"
            + (
                "; give daily_change_pct and snapshot_retention_days to size it."
                if "data" in volume.holds
                else "."
            )
        )
    total = contents / (1 - reserve / 100) if reserve else contents
    if reserve:
        kind = "snapshot reserve" if family in ONTAP_FAMILIES else "snapshot space"
        arithmetic.append(
            f"with the {kind}: {contents:,.1f} GB / (1 - {reserve}%) = {total:,.1f} GB"
        )
    minimum = kb.sizing.cloud_min_volume_gib.get(family)
    if minimum is not None and total < _value(minimum):
        arithmetic.append(f"raised to the service's smallest volume, {_value(minimum):g} GiB")
        sources.append(_cite(minimum))
        total = _value(minimum)
    size = max(1, math.ceil(total))
    if family in ONTAP_FAMILIES:
        share = _value(ontap.autosize_max_pct)
        autosize = math.ceil(size * share / 100)
        sources.append(_cite(ontap.autosize_max_pct))
    return size, VolumeSizing(
        arithmetic=arithmetic,
        assumptions=assumptions,
        sources=list(dict.fromkeys(sources)),
        snapshot_reserve_pct=reserve if family in ONTAP_FAMILIES else None,
        autosize_max_gb=autosize,
    )


def _archive_watch(
    kb: KnowledgeBase, s: Sizing, volumes: list[Volume], family: str
) -> ArchiveWatch | None:
    archive = next((v for v in volumes if v.role == "archive" and v.size_gb), None)
    if archive is None or archive.size_gb is None or family not in ONTAP_FAMILIES:
        return None
    figure = kb.sizing.ontap.nearly_full_pct
    alert = int(_value(figure))
    hours = None
    if s.redo_mb_per_s is not None:
        free_mb = archive.size_gb * (1 - alert / 100) * 1024
        hours = round(free_mb / s.redo_mb_per_s / 3600, 2)
    return ArchiveWatch(
        alert_pct=alert,
        hours_to_full_after_alert=hours,
        note=f"Alert at {alert}% (ONTAP's default nearly-full alert, {_cite(figure)}): "
        + (
            f"at the peak redo rate the rest fills in about {hours:g} h; when the archive "
            "destination is full the database stops (tr-3322), so clear it well before."
            if hours is not None
            else "give redo_mb_per_s to see how long the rest lasts at the peak redo rate."
        ),
    )


def _cloud(
    family: FilerFamilyEntry,
    platform: Platform,
    volumes: list[Volume],
    scan_mb_s: float | None,
) -> CloudCapacity | None:
    filer = platform.filer
    if filer.service_level is None or filer.capacity_tib is None:
        return None
    level = family.service_levels.get(filer.service_level)
    if level is None:
        return None
    per_tib_mb_s = _value(level) * MIB / 1e6
    for_throughput = round(scan_mb_s / per_tib_mb_s, 2) if scan_mb_s else None
    sized = [v.size_gb for v in volumes if v.size_gb]
    for_space = round(sum(sized) / 1024, 2) if sized and len(sized) == len(volumes) else None
    needs = [n for n in (for_throughput, for_space) if n is not None]
    verdict = (
        f"provision at least {max(needs):g} TiB"
        if needs and max(needs) > filer.capacity_tib
        else f"the {filer.capacity_tib:g} TiB provisioned covers it"
    )
    return CloudCapacity(
        service_level=filer.service_level,
        needed_tib_for_throughput=for_throughput,
        needed_tib_for_space=for_space,
        provisioned_tib=filer.capacity_tib,
        note=f"{filer.service_level} gives {_value(level):g} MiB/s per TiB ({_cite(level)}); "
        + (
            f"{scan_mb_s:,.0f} MB/s expected needs {for_throughput:g} TiB; "
            if for_throughput
            else ""
        )
        + (f"the sized volumes need {for_space:g} TiB; " if for_space else "")
        + verdict
        + ".",
    )


def size_volumes(
    kb: KnowledgeBase,
    platform: Platform,
    volumes: list[Volume],
    filer_family: FilerFamilyEntry,
    scan_mb_s: float | None,
) -> tuple[list[Volume], Capacity | None]:
    """The volumes with their sizes, and the capacity results; nothing when sizing is absent."""
    family = filer_family.id
    s = platform.sizing
    if s is None:
        return volumes, None
    redo = redo_log_plan(kb, platform)
    sized: list[Volume] = []
    not_sized: list[str] = []
    for volume in volumes:
        parts, missing = _parts(kb, volume, s, redo)
        if missing or not parts:
            not_sized.append(f"{volume.name}: needs {', '.join(missing) or 'inputs'}")
            sized.append(volume)
            continue
        size, breakdown = _size(kb, volume, parts, s, family)
        sized.append(volume.model_copy(update={"size_gb": size, "sizing": breakdown}))
    return sized, Capacity(
        redo_logs=redo,
        archive=_archive_watch(kb, s, sized, family),
        cloud=_cloud(filer_family, platform, sized, scan_mb_s),
        not_sized=not_sized,
    )

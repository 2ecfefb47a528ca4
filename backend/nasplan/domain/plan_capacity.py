"""The plan's sizing results: how each volume's size was reached, the online redo logs, the
archive alert and the cloud capacity (contract: api-v1 "Plan", ``capacity``)."""

from __future__ import annotations

from pydantic import Field

from nasplan.domain.clean_text import OneLine
from nasplan.domain.plan_base import PlanPart


class VolumeSizing(PlanPart):
    """How a volume's size was reached: the arithmetic, what it assumes, and the sources of
    the figures it uses."""

    arithmetic: list[OneLine]
    assumptions: list[OneLine]
    sources: list[OneLine] = Field(description="`source-id: locator` of each figure used.")
    snapshot_reserve_pct: int | None = Field(
        default=None, description="Share of the volume held for snapshots, % (ONTAP)."
    )
    autosize_max_gb: int | None = Field(
        default=None, description="Most the volume may grow to by itself (ONTAP autosize)."
    )


class RedoLogPlan(PlanPart):
    log_file_mb: int
    groups_per_thread: int
    threads: int
    basis: OneLine


class ArchiveWatch(PlanPart):
    alert_pct: int
    hours_to_full_after_alert: float | None = Field(
        description="At the peak redo rate, from the alert to a full archive volume."
    )
    note: OneLine


class CloudCapacity(PlanPart):
    service_level: str
    needed_tib_for_throughput: float | None
    needed_tib_for_space: float | None
    provisioned_tib: float
    note: OneLine


class Capacity(PlanPart):
    """Sizing results beyond the volumes: online redo logs, the archive alert, cloud capacity."""

    redo_logs: RedoLogPlan | None = None
    archive: ArchiveWatch | None = None
    cloud: CloudCapacity | None = None
    not_sized: list[OneLine] = Field(
        default_factory=list, description="Volumes without a size, and what would size them."
    )

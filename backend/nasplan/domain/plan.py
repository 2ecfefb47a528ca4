"""The plan: what nasplan advises for a platform (contract: api-v1 "Plan").

Every volume, mount, setting, finding and check names the rules that produced it, and
``rules`` carries each of those rules' title, rationale, sources and history so a reader can
answer "why?" without another request.

Here are the plan and the items it lists; its parts live beside it: the frozen base and the
field syntax (``plan_base``), the characters text may hold (``clean_text``), the sizing results
(``plan_capacity``) and the rules' explanations and summary (``plan_explanations``).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from nasplan.domain.clean_text import OneLine
from nasplan.domain.plan_base import (
    ExportName,
    MountOption,
    PathName,
    PlanPart,
    RuleId,
    Scope,
    SettingKey,
    SettingValue,
)
from nasplan.domain.plan_capacity import Capacity, VolumeSizing
from nasplan.domain.plan_explanations import PlanSummary, RuleExplanation, SupersededRule
from nasplan.domain.platform import Platform
from nasplan.domain.text_types import VolumeName
from nasplan.domain.vocabulary import MAX_DNFS_PATHS, Mechanism, Role, Severity, Target
from nasplan.domain.volume_group import VolumeGroupPlan


class Volume(PlanPart):
    role: Role
    name: VolumeName
    holds: list[Role]
    export: PathName = Field(description="Server-side path, e.g. `/vol/prod_data`.")
    rules: list[RuleId]
    size_gb: int | None = Field(
        default=None,
        description="Planned size in GB when platform.sizing gives what the volume's files need.",
    )
    sizing: VolumeSizing | None = None
    split_over: int | None = Field(
        default=None,
        description="Where the datafiles are split evenly over several volumes, one per storage "
        "path (engine/path_spread): how many. Each holds an equal share.",
    )


class Mount(PlanPart):
    role: Role
    serves: list[Role] = Field(description="File roles this mount carries (redo + control).")
    volume: VolumeName
    mount_point: PathName
    export: ExportName = Field(description="`filer:/path` as it goes into the mount table.")
    options: list[MountOption]
    rules: list[RuleId]
    option_rules: dict[MountOption, list[RuleId]] = Field(
        description="Option -> the rules that put it there."
    )
    path: int | None = Field(
        default=None,
        ge=1,
        le=4,
        description="Kernel NFS over several storage paths: the path (1-based, the hand-over's "
        "order) whose filer address the mount uses. None: the filer's name.",
    )


class Setting(PlanPart):
    target: Target
    key: SettingKey
    value: SettingValue
    action: Literal["set", "unset"] = "set"
    mechanism: Mechanism
    applies_to: list[VolumeName] = Field(
        default=[], description="Volume names for per-volume settings."
    )
    requires: Literal["none", "remount", "reboot", "instance_restart", "online"]
    scope: Scope | None = Field(default=None, description="File or interface the setting lives in.")
    rules: list[RuleId]
    at_least: bool = Field(
        default=False,
        description="The value is a minimum: a larger value the host has is kept, not lowered.",
    )


class Finding(PlanPart):
    severity: Severity
    rule: RuleId
    message: OneLine
    related_rules: list[RuleId] = Field(default=[], description="Other rules the finding is about.")


class Check(PlanPart):
    what: OneLine
    where: Literal["host", "filer", "oracle", "switch"]
    command: OneLine
    expect: OneLine
    rules: list[RuleId]
    stage: Literal["before", "after"] = Field(
        default="after",
        description="`after`: verifies the change (verify/ scripts); `before`: a go/no-go gate "
        "before the window (the runbook's first phase).",
    )


LatencyPartName = Literal["wire", "switches", "routers", "server"]


class LatencyPart(PlanPart):
    part: LatencyPartName
    us: float
    note: str


class Expectations(PlanPart):
    single_stream_mb_s: float = Field(
        description="One serial stream of rsize reads on the data mount: rsize / round trip, "
        "capped by one NIC's payload ceiling (MB/s, 10^6 bytes)."
    )
    rtt_us: float = Field(description="Round trip of one rsize read used above.")
    rtt_measured: bool = Field(description="True when the round trip came from network.rtt_us.")
    transfer_bytes: int = Field(description="Bytes per request on the wire (rsize after caps).")
    latency_budget_us: list[LatencyPart]
    nic_payload_ceiling_mb_s: float
    aggregate_ceiling_mb_s: float = Field(description="All storage NICs, with the measured loss.")
    pipelined_stream_mb_s: float | None = Field(
        default=None,
        description="One stream when the client keeps several requests in flight "
        "(Linux 2.6+, dNFS): the NIC ceiling. None for serial clients.",
    )
    serial_client: bool
    planned_client: str = Field(
        default="",
        description="The client the plan uses for database files, as the figures below model "
        "it: Direct NFS over n paths, kernel NFS keeping requests in flight, or a serial "
        "kernel client.",
    )
    service_ceiling_mb_s: float | None = Field(
        default=None,
        description="Cloud NAS: the throughput the service level allows for the provisioned "
        "capacity (MB/s, 10^6 bytes).",
    )
    planned_scan_low_mb_s: float | None = Field(
        default=None,
        description="Where the planned scan is held to what one kernel NFS TCP connection "
        "carried: the lowest of those measurements (MB/s). The planned scan is their mean.",
    )
    planned_scan_high_mb_s: float | None = Field(
        default=None,
        description="Where the planned scan is held to what one kernel NFS TCP connection "
        "carried: the highest of those measurements (MB/s).",
    )
    planned_scan_mb_s: float | None = Field(
        default=None,
        description="What one large parallel scan can reach with the planned client (MB/s): "
        "Direct NFS fills its paths; a kernel client is held to what its one TCP connection to "
        "the filer carried in the measurements (and a serial one to one request in flight per "
        "stream). None where no source measured the client.",
    )
    random_8k_reads_ceiling: float | None = Field(
        default=None,
        description="8 KB random reads a second the planned client's paths carry at most: the "
        "rate they carry (Direct NFS: every path; kernel NFS: its one TCP connection; a cloud "
        "service: its ceiling) over the bytes of one read reply. A ceiling, not a forecast.",
    )
    random_8k_reads_per_read_in_flight: float | None = Field(
        default=None,
        description="8 KB reads a second that one read in flight at a time gets from the network "
        "and the NFS stack (1e6 / the 8 KB overhead); the filer's own time comes on top.",
    )
    random_8k_reads_in_flight_to_fill: int | None = Field(
        default=None,
        description="Reads in flight at once it takes to reach the ceiling at that rate each.",
    )
    client_cpu_note: str | None = Field(
        default=None,
        description="What the sources measured of the host CPU the planned NFS client spends.",
    )
    nfs_overhead_8k_us: float = Field(description="Extra time of one 8 KB read over NFS.")
    overhead_vs_disk_pct: float = Field(description="That overhead against a 7 ms disk read.")
    tcp_window_bytes: int = Field(description="Bandwidth-delay product of one NIC at this RTT.")
    bottleneck: str
    improvements: list[str]
    assumptions: list[str]
    rules: list[RuleId]


class Plan(PlanPart):
    kb_version: str
    as_of: dt.date
    platform: Platform
    volumes: list[Volume]
    mounts: list[Mount]
    settings: list[Setting]
    findings: list[Finding]
    checks: list[Check]
    expectations: Expectations
    rules: dict[RuleId, RuleExplanation] = Field(
        description="Every rule that produced an item, with its rationale and sources."
    )
    superseded: list[SupersededRule] = Field(
        description="Rules that would apply but were replaced by newer advice, and why."
    )
    applied_rules: list[RuleId] = Field(
        description="Every rule in effect for this platform on as_of (after supersession)."
    )
    capacity: Capacity | None = Field(
        default=None, description="Volume sizing results, when platform.sizing is given."
    )
    volume_group: VolumeGroupPlan | None = Field(
        default=None,
        description="Azure NetApp Files: the application volume group for Oracle, or why the "
        "layout does not fit it (ANF-AVG-ORACLE).",
    )
    summary: PlanSummary | None = Field(default=None, description="The plan at a glance.")


def dnfs_path_count(nic_count: int, settings: list[Setting]) -> int:
    """How many Direct NFS paths oranfstab lists: one per storage NIC, at most four, fewer where
    a rule caps them (setting ``oranfstab_max_paths``, e.g. one over NFSv4.1 to ONTAP)."""
    caps = [int(s.value) for s in settings if s.key == "oranfstab_max_paths"]
    return min(nic_count, MAX_DNFS_PATHS, *caps)


def kernel_nfs_path_count(mounts: list[Mount]) -> int:
    """How many storage paths kernel NFS mounts are spread over (engine/path_spread): the
    highest path a mount uses, one when none records a path."""
    return max((m.path or 1 for m in mounts), default=1)

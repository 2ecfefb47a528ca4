"""Schema of ``knowledge/catalog/*.yaml``, ``knowledge/facts.yaml`` and the expectations inputs."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, RootModel, StringConstraints, model_validator

from nasplan.domain.platform import Arch, FilerVendor, OsName
from nasplan.domain.vocabulary import Role
from nasplan.knowledge.conditions import FilerFamily
from nasplan.knowledge.expectation_points import CalibrationPoint, ConnectionCeiling
from nasplan.knowledge.schema import SourceRef


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OsRelease(_Doc):
    id: str
    label: str
    key: str = Field(description="Comparable version key, e.g. 9u5 -> 9.5.")
    distro: str | None = None


class OsEntry(_Doc):
    label: str
    arches: list[Arch]
    mount_table: Literal["vfstab", "fstab", "filesystems"]
    default_interface: str
    rsize_max: int
    releases: list[OsRelease] = Field(min_length=1)

    def release(self, release_id: str) -> OsRelease | None:
        return next((r for r in self.releases if r.id == release_id), None)


class OsCatalog(RootModel[dict[OsName, OsEntry]]):
    """catalog/os.yaml: one entry for every OS the platform schema names, and no other."""

    @model_validator(mode="after")
    def _every_os(self) -> OsCatalog:
        missing = [name for name in get_args(OsName) if name not in self.root]
        if missing:
            raise ValueError(
                f"no entry for {', '.join(missing)}: every OS a platform can name needs one"
            )
        return self


class OracleRelease(_Doc):
    id: str
    label: str
    range: str


class OracleCatalog(_Doc):
    releases: list[OracleRelease]
    examples: list[str]


class FilerFamilyEntry(_Doc):
    id: FilerFamily
    label: str
    releases: str
    known: list[str]
    max_xfer: int | None
    max_xfer_source: SourceRef | None = None
    export_prefix: str
    # What joins the database name and the volume's suffix in an export path, where the
    # service refuses the underscore of the volume name (with the source that says so).
    export_separator: str = "_"
    export_separator_source: SourceRef | None = None
    # A managed cloud service: the network between the VMs and the service is the provider's
    # (no switches, hops or MTU for the tenant to change; CLOUD-NETWORK-PROVIDER-PATH).
    managed_network: bool = False
    # Cloud NAS: throughput per TiB of provisioned capacity by service level (MiB/s), and the
    # most one volume may be given (MiB/s).
    service_levels: dict[str, Figure] = {}
    volume_max_mib_s: Figure | None = None
    # Amazon FSx for NetApp ONTAP: the throughput capacities an HA pair can be given (MBps).
    throughput_capacities: Figure | None = None


class VendorEntry(_Doc):
    label: str
    release_required: bool
    release_pattern: str | None = None
    families: list[FilerFamilyEntry] = Field(min_length=1)
    models: list[str]

    def release_matches_pattern(self, release: str) -> bool:
        return (
            self.release_pattern is None or re.fullmatch(self.release_pattern, release) is not None
        )


class FilerCatalog(_Doc):
    vendors: dict[FilerVendor, VendorEntry]


class NicSpeed(_Doc):
    gbps: int
    label: str


class SwitchKindEntry(_Doc):
    id: str
    label: str


class NetworkCatalog(_Doc):
    nic_speeds: list[NicSpeed]
    switch_kinds: list[SwitchKindEntry]


class SplitConvention(_Doc):
    """Names of the volumes a role's files are split over, {n} counting from 1."""

    volume_suffix: str
    mount_point: str


class RoleConvention(_Doc):
    volume_suffix: str
    mount_point: str
    subdir: str
    label: str
    split: SplitConvention | None = None


class LayoutCatalog(_Doc):
    roles: dict[Role, RoleConvention]


class OptionImplication(_Doc):
    """Options an option brings with it on an OS, as the OS documents (Linux ``noac`` is
    ``actimeo=0`` with ``sync``): a line that has the option has these too."""

    os: OsName
    options: list[str] = Field(min_length=1)
    source: SourceRef


class MountOptionEntry(_Doc):
    token: str
    key: str
    os: list[OsName]
    order: int
    valued: bool = False
    aliases: list[str] = []
    equals: str | None = None
    excludes: list[str] = []
    implies: list[OptionImplication] = []


class MountOptionCatalog(_Doc):
    options: list[MountOptionEntry]


class OsDefault(_Doc):
    """What an OS does with a setting left out (``knowledge/catalog/os_defaults.yaml``)."""

    os: OsName
    mechanism: str = Field(description="mount_option, or the setting mechanism (sysctl, ...).")
    key: str = Field(description="The mount option's key, or the setting's key.")
    value: str | None = Field(
        default=None, description="The option as a plan writes it, or the setting's value."
    )
    negotiated: bool = Field(
        default=False,
        description="A size left out is the largest that client and server both support.",
    )
    releases: list[str] = Field(
        default_factory=list, description="The OS releases it holds for; empty for every one."
    )
    ignored: bool = Field(
        default=False,
        description="The client takes every value of the key and acts on none: whatever is "
        "written behaves as the default.",
    )
    note: str | None = None
    source: SourceRef

    @model_validator(mode="after")
    def _value_or_negotiated(self) -> OsDefault:
        if (self.value is None) == (not self.negotiated):
            raise ValueError("give either a value or negotiated: true")
        if self.ignored and not self.note:
            raise ValueError("an ignored option needs a note saying since when and why")
        return self


class OsCeiling(_Doc):
    """Settings an OS refuses above the current value of another (Solaris 11 ipadm send_buf and
    recv_buf up to max_buf): a paste that sets them higher leaves them unchanged."""

    os: OsName
    mechanism: str = Field(description="The setting mechanism (ndd covers ipadm properties).")
    keys: list[str] = Field(min_length=1, description="The settings held under the ceiling.")
    ceiling: str = Field(description="The setting whose current value is the ceiling.")
    ceiling_default: int = Field(gt=0, description="The ceiling when nothing has set it.")
    rule: str = Field(description="The rule whose advice the order of the settings serves.")
    source: SourceRef


class OsDefaultCatalog(_Doc):
    defaults: list[OsDefault]
    ceilings: list[OsCeiling] = []


class Preset(_Doc):
    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    kind: Literal["lab", "current", "example"]
    label: str
    source: SourceRef | None = None
    assumed: list[str] = []
    platform: dict[str, Any]


class PresetCatalog(_Doc):
    presets: list[Preset]


class Fact(_Doc):
    id: Annotated[str, StringConstraints(pattern=r"^FACT(-[A-Z0-9]+)+$")]
    statement: str = Field(min_length=20, max_length=800)
    sources: list[SourceRef] = Field(min_length=1)
    date: dt.date
    rules: list[str] = []


class FactCatalog(_Doc):
    facts: list[Fact]


class GainTrigger(_Doc):
    """When a what-if variant makes the change a measured gain is about.

    ``platform_field``: the platform answer at ``field`` (dotted) goes from ``before`` to
    ``after``, or, with ``increase``, grows. ``data_rsize``: the data mount's rsize goes from at
    most ``before_at_most`` to at least ``after_at_least``. ``setting_value``: the plan's
    setting ``key`` becomes ``value`` where it was not.
    """

    kind: Literal["platform_field", "data_rsize", "setting_value"]
    field: str | None = None
    before: bool | int | str | None = None
    after: bool | int | str | None = None
    increase: bool = False
    before_at_most: int | None = None
    after_at_least: int | None = None
    key: str | None = None
    value: str | None = None


class MeasuredGain(_Doc):
    """A gain a source measured for one kind of change, with the conditions it was measured
    under: evidence to weigh, not nasplan's model."""

    id: Annotated[str, StringConstraints(pattern=r"^GAIN(-[A-Z0-9]+)+$")]
    change: str = Field(min_length=5, max_length=120)
    figure: str = Field(min_length=5, max_length=300)
    measured_under: str = Field(min_length=10, max_length=300)
    source: SourceRef
    fact: str | None = None
    trigger: GainTrigger


class GainCatalog(_Doc):
    gains: list[MeasuredGain]


class Figure(_Doc):
    value: float | None = None
    range: tuple[float, float] | None = None
    note: str | None = None
    source: SourceRef


class Checkpoint(_Doc):
    rtt_us: float
    mb_s: float


class CheckpointSet(_Doc):
    note: str
    source: SourceRef
    points: list[Checkpoint]


class FrameFigures(_Doc):
    ethernet_overhead_bytes: Figure
    ip_tcp_header_bytes: Figure
    nfs_read_reply_8k_bytes: Figure
    jumbo_mtu: Figure
    standard_mtu: Figure


class OverheadFigures(_Doc):
    jumbo: Figure
    standard: Figure
    poor_topology: Figure
    reference_wire_8k_1gbe: Figure


class SwitchFigures(_Doc):
    store_and_forward: dict[int, Figure]
    cut_through: dict[int, Figure]


class RequestSizeFigures(_Doc):
    note: str
    solaris_before_9: Figure
    solaris_9_directio: Figure
    solaris_9u5: Figure


class RedoSizing(_Doc):
    log_switch_minutes: Figure
    log_file_min_mb: Figure
    groups_min: Figure


class OntapSpace(_Doc):
    snapshot_reserve_default_pct: Figure
    autosize_max_pct: Figure
    nearly_full_pct: Figure


class SizingInputs(_Doc):
    redo: RedoSizing
    ontap: OntapSpace
    full_log_volume: Figure
    cloud_min_volume_gib: dict[str, Figure] = {}

    def sources(self) -> list[SourceRef]:
        return sources_in(self)


def sources_in(root: object) -> list[SourceRef]:
    """Every source reference anywhere inside a model."""
    found: list[SourceRef] = []

    def walk(node: object) -> None:
        if isinstance(node, SourceRef):
            found.append(node)
        elif isinstance(node, BaseModel):
            for name in type(node).model_fields:
                walk(getattr(node, name))
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list | tuple):
            for value in node:
                walk(value)

    walk(root)
    return found


class ExpectationInputs(_Doc):
    frame: FrameFigures
    nfs_overhead_8k_us: OverheadFigures
    disk_read_8k_us: Figure
    switch_hop_us: SwitchFigures
    router_hop_us: Figure
    gbe_payload_ceiling_mb_s: Figure
    multipath_linearity: Figure
    single_stream_checkpoints: CheckpointSet
    os_request_size: RequestSizeFigures
    knfs_connection_mb_s: ConnectionCeiling
    parallel_scan_streams: Figure
    calibration: list[CalibrationPoint] = Field(min_length=1)
    era_note: str

    def sources(self) -> list[SourceRef]:
        return sources_in(self)

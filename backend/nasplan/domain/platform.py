"""The user's description of a platform: the request body of a plan (contract: api-v1 "Platform").

Only syntax is checked here. Whether a release exists in the catalog is checked by
``nasplan.knowledge.catalog_check`` (the catalog lives in ``knowledge/``, not in code); whether a
combination makes sense is decided by rules, which answer with ``error`` findings.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    ValidationInfo,
    field_validator,
    model_validator,
)

from nasplan.domain.text_types import (
    DbName,
    FsxSvmId,
    HostName,
    InterfaceName,
    IPv4InterfaceText,
    IPv4NetworkText,
    IPv4Text,
    ModelName,
    OracleVersion,
    ReleaseToken,
    StorageName,
)


def _not_bool(value: object) -> object:
    # JSON true is not the number 1, although Python's Literal[1] would take it as such.
    if isinstance(value, bool):
        raise ValueError("expected a number, not true or false")
    return value


NotBool = BeforeValidator(_not_bool)

OsName = Literal["solaris", "linux", "aix", "hpux"]
Arch = Literal["sparc", "x86_64", "power", "ia64"]
NicGbps = Annotated[Literal[1, 10, 25, 40, 100], NotBool]
OracleBits = Annotated[Literal[32, 64], NotBool]
SwitchKind = Literal["store_and_forward", "cut_through", "hub"]
Workload = Literal["oltp", "dss", "mixed"]
FilerVendor = Literal[
    "netapp", "sun", "oracle_zfssa", "azure_anf", "gcp_gcnv", "aws_fsxn", "generic"
]
ServiceLevel = Literal["standard", "premium", "ultra", "extreme"]
# The service levels each cloud NAS offers (throughput per TiB: knowledge/catalog/filers.yaml).
SERVICE_LEVELS: dict[str, tuple[str, ...]] = {
    "azure_anf": ("standard", "premium", "ultra"),
    "gcp_gcnv": ("standard", "premium", "extreme"),
}
# Amazon FSx for NetApp ONTAP: the throughput capacities one HA pair can be given, MBps
# (first and second generation; knowledge/catalog/filers.yaml cites them).
FSX_THROUGHPUTS = (128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144)
FsxThroughput = Annotated[
    Literal[128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144], NotBool
]
OracleHomePlacement = Literal["nas", "local"]
NfsVersion = Literal["3", "4.1"]
VolumeLayout = Literal["separate", "shared"]

# Every date a request gives lies between the oldest advice the knowledge base holds and today:
# an earlier or a later day is a typing error, and planning for it would tell nothing.
EARLIEST_DATE = dt.date(1990, 1, 1)
DATE_RANGE = f"{EARLIEST_DATE} to today"


def _out_of_range(info: ValidationInfo, *, early: bool) -> ValueError:
    name = info.field_name or "the date"
    if early:
        return ValueError(f"{name} must be {EARLIEST_DATE} or later")
    return ValueError(f"{name} cannot be in the future")


def _date_in_range(value: dt.date, info: ValidationInfo) -> dt.date:
    if value < EARLIEST_DATE:
        raise _out_of_range(info, early=True)
    if value > dt.date.today():
        raise _out_of_range(info, early=False)
    return value


_EARLIEST_MOMENT = dt.datetime.combine(EARLIEST_DATE, dt.time(), dt.UTC)


def _moment_in_range(value: dt.datetime, info: ValidationInfo) -> dt.datetime:
    # Its day in UTC (a time without a zone is UTC, as the designs store them). Compared, not
    # converted: astimezone() overflows on 9999-12-31T23:00-01:00.
    moment = value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    tomorrow = dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1)
    if moment < _EARLIEST_MOMENT:
        raise _out_of_range(info, early=True)
    if moment >= dt.datetime.combine(tomorrow, dt.time(), dt.UTC):
        raise _out_of_range(info, early=False)
    return value


# Read from their ISO text also in strict models (JSON has no date type).
BoundedDate = Annotated[dt.date, Strict(False), AfterValidator(_date_in_range)]
BoundedDateTime = Annotated[dt.datetime, Strict(False), AfterValidator(_moment_in_range)]


# The rules between fields that the validators below enforce, stated again in JSON Schema (for
# clients and for schemathesis) wherever JSON Schema can state them; the rest are in the
# models' descriptions. tests/api/test_openapi_honesty.py checks both say the same. They are
# written as if/then/else, not anyOf: openapi-typescript ignores if/then/else, where it would
# turn each anyOf branch into a union member of the front end's types.
_NULL: dict[str, Any] = {"type": "null"}


def _nulls(*names: str) -> dict[str, Any]:
    """Properties that are absent or null."""
    return {"properties": dict.fromkeys(names, _NULL)}


def _given(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """Property ``name`` is present and fits ``schema``."""
    return {"properties": {name: schema}, "required": [name]}


class _Strict(BaseModel):
    # strict: no "48" for 48 and no true for 1; dates alone are still read from their text.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Host(_Strict):
    os: OsName = Field(description="Host operating system.", examples=["solaris"])
    os_version: ReleaseToken = Field(
        description="Release id from the catalog (`GET /api/v1/catalog`), e.g. `9u5`, `rhel8`.",
        examples=["9u5"],
    )
    arch: Arch = Field(description="CPU architecture.", examples=["sparc"])
    memory_gb: int | None = Field(
        default=None,
        ge=1,
        le=65536,
        description="Physical memory of one host, GB.",
        json_schema_extra={"x-what": "memory (GB)"},
    )
    hostname: HostName | None = Field(
        default=None,
        description="Database server host name (used in generated files). RFC 1123 syntax.",
        examples=["dbhost01"],
    )
    nic_interface: InterfaceName | None = Field(
        default=None,
        description="Host interface that carries NFS traffic (e.g. `ce0`, `eth1`, `en1`).",
    )


class Network(_Strict):
    nic_gbps: NicGbps = Field(description="Speed of one storage NIC, Gb/s.", examples=[1])
    nic_count: int = Field(
        default=1,
        ge=1,
        le=16,
        description="Storage NICs per host.",
        json_schema_extra={"x-what": "the number of NICs"},
    )
    jumbo_frames: bool = Field(default=False, description="MTU 9000 on the whole storage path.")
    switch: SwitchKind = Field(
        default="store_and_forward", description="Kind of switch on the path."
    )
    switch_hops: int = Field(
        default=1,
        ge=0,
        le=16,
        description="Switches between host and filer (0: back to back).",
        json_schema_extra={"x-what": "the number of switches"},
    )
    router_hops: int = Field(
        default=0,
        ge=0,
        le=16,
        description="IP routers between host and filer.",
        json_schema_extra={"x-what": "the number of routers"},
    )
    dedicated_storage_network: bool = Field(
        default=True, description="NFS traffic on its own physical network or VLAN."
    )
    rtt_us: float | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="Measured round trip of one rsize read, microseconds. Overrides the model.",
        json_schema_extra={"x-what": "the round trip in microseconds"},
    )


class Oracle(_Strict):
    model_config = ConfigDict(
        json_schema_extra={"if": _given("rac", {"const": True}), "else": _nulls("rac_nodes")}
    )

    version: OracleVersion = Field(
        description="Dotted release, `8.1.7` … `23.x`.", examples=["9.2.0.4"]
    )
    bits: OracleBits = Field(default=64, description="32- or 64-bit Oracle binaries.")
    rac: bool = Field(default=False, description="Real Application Clusters.")
    rac_nodes: int | None = Field(
        default=None,
        ge=2,
        le=64,
        description="Nodes in the cluster.",
        json_schema_extra={"x-what": "cluster nodes"},
    )
    dnfs: bool = Field(default=False, description="Oracle Direct NFS client.")
    nfs_version: NfsVersion = Field(default="3", description="NFS protocol version.")
    archivelog: bool = Field(default=True, description="Database runs in ARCHIVELOG mode.")
    workload: Workload = Field(default="oltp", description="Dominant workload.")
    instances: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Database instances sharing this host's memory.",
        json_schema_extra={"x-what": "instances on the host"},
    )

    @model_validator(mode="after")
    def _rac_nodes_need_rac(self) -> Oracle:
        if self.rac_nodes is not None and not self.rac:
            raise ValueError("rac_nodes is only meaningful when rac is true")
        return self


def _filer_rules() -> dict[str, Any]:
    def vendor(*names: str) -> dict[str, Any]:
        return _given("vendor", {"enum": list(names)})

    cloud = [
        {
            "if": vendor(name),
            "then": {
                "properties": {
                    "service_level": {"enum": list(levels)},
                    "capacity_tib": {"type": "number"},
                },
                "required": ["service_level", "capacity_tib"],
            },
        }
        for name, levels in SERVICE_LEVELS.items()
    ]
    return {
        "allOf": [
            {"if": vendor("netapp"), "then": _given("os_version", {"type": "string"})},
            {
                "if": vendor("aws_fsxn"),
                "then": _given("throughput_mb_s", {"type": "integer"}),
                "else": _nulls("throughput_mb_s"),
            },
            *cloud,
            {"if": vendor(*SERVICE_LEVELS), "else": _nulls("service_level", "capacity_tib")},
        ]
    }


class Filer(_Strict):
    """The filer. By vendor: netapp needs os_version; aws_fsxn needs throughput_mb_s; azure_anf
    and gcp_gcnv need service_level (one of theirs) and capacity_tib; the three are for those
    vendors only. Releases must be ones the catalog covers (`GET /api/v1/catalog`)."""

    model_config = ConfigDict(json_schema_extra=_filer_rules())

    vendor: FilerVendor = Field(description="Storage vendor family.", examples=["netapp"])
    model: ModelName | None = Field(default=None, description="Model, e.g. `FAS940`, `7410`.")
    os_version: ReleaseToken | None = Field(
        default=None,
        description="Storage software release: Data ONTAP `7.0`, ONTAP `9.14.1`, `2009.Q3`, `8.8`.",
    )
    interface: InterfaceName | None = Field(
        default=None, description="Filer interface serving NFS (e.g. `e0a`)."
    )
    service_level: ServiceLevel | None = Field(
        default=None,
        description="Cloud NAS only: the capacity pool's service level (Azure NetApp Files: "
        "standard, premium, ultra; Google Cloud NetApp Volumes: standard, premium, extreme).",
    )
    capacity_tib: float | None = Field(
        default=None,
        gt=0,
        le=2048,
        description="Cloud NAS only: provisioned capacity of the database volumes, TiB; with the "
        "service level it sets the throughput the service allows.",
        json_schema_extra={"x-what": "the provisioned capacity in TiB"},
    )
    throughput_mb_s: FsxThroughput | None = Field(
        default=None,
        description="Amazon FSx for NetApp ONTAP only: the file system's provisioned throughput "
        "capacity per HA pair, MBps (128 to 6144).",
    )

    @model_validator(mode="after")
    def _netapp_needs_release(self) -> Filer:
        if self.vendor == "netapp" and self.os_version is None:
            raise ValueError("os_version is required for netapp (Data ONTAP release)")
        if (self.vendor == "aws_fsxn") != (self.throughput_mb_s is not None):
            raise ValueError(
                "throughput_mb_s is required for aws_fsxn and only for it "
                f"(one of {', '.join(map(str, FSX_THROUGHPUTS))})"
            )
        levels = SERVICE_LEVELS.get(self.vendor)
        if levels is None:
            if self.service_level is not None or self.capacity_tib is not None:
                raise ValueError("service_level and capacity_tib are for cloud NAS vendors only")
        elif self.service_level not in levels:
            raise ValueError(f"service_level is required for {self.vendor}: {', '.join(levels)}")
        elif self.capacity_tib is None:
            raise ValueError(f"capacity_tib is required for {self.vendor}")
        return self


class Layout(_Strict):
    oracle_home: OracleHomePlacement = Field(
        default="local", description="Where ORACLE_HOME lives."
    )
    filer_host: HostName = Field(
        description="Filer host name or IPv4 address.", examples=["filer01"]
    )
    db_name: DbName = Field(
        description="Oracle DB_NAME (letters, digits, _; 1-8).", examples=["PROD"]
    )
    volumes: VolumeLayout = Field(
        default="separate",
        description="`separate`: data, redo+control and archive volumes; "
        "`shared`: data, redo and control in one volume (archive apart).",
    )


class StoragePath(_Strict):
    """One network path between the database host and the filer."""

    host_interface: InterfaceName | None = Field(
        default=None, description="Host interface on this path, e.g. `eth1`."
    )
    host_address: IPv4InterfaceText | None = Field(
        default=None,
        description="Host address on this path with its prefix length, e.g. `192.168.10.11/24`; "
        "not the network's network or broadcast address, not 0.0.0.0, loopback or multicast.",
    )
    filer_interface: InterfaceName | None = Field(
        default=None, description="Filer interface or LIF port on this path, e.g. `e0a`."
    )
    filer_address: IPv4Text | None = Field(
        default=None,
        description="Filer (LIF) address on this path, e.g. `192.168.10.21`; not 0.0.0.0, "
        "loopback or multicast.",
    )


MAX_STORAGE_PATHS = 4


ChangeKind = Literal["migration", "new_build"]


class Handover(_Strict):
    """What the teams need to run the bundle without coming back with questions. Every field is
    optional: what is left out stays a marked `<placeholder>` in the files and is listed on the
    runbook's first page."""

    change_kind: ChangeKind | None = Field(
        default=None,
        description="What the change does to the database: `migration` (it runs today on "
        "other storage and moves onto these volumes in the window) or `new_build` (it does not "
        "exist yet and is created on them after the change). Not given: the runbook plans a "
        "migration and says so on its first page.",
    )
    svm: StorageName | None = Field(
        default=None,
        description="NetApp ONTAP (also FSx for ONTAP): the SVM (vserver) or vFiler that serves "
        "the volumes.",
    )
    aggregate: StorageName | None = Field(
        default=None, description="NetApp: the aggregate the volumes are created in."
    )
    capacity_pool: StorageName | None = Field(
        default=None,
        description="Cloud NAS: the capacity pool (Azure NetApp Files) or storage pool (Google "
        "Cloud NetApp Volumes) the volumes are created in.",
    )
    broadcast_domain: StorageName | None = Field(
        default=None, description="Clustered ONTAP: broadcast domain of the NFS data ports."
    )
    fsx_svm_id: FsxSvmId | None = Field(
        default=None,
        description="Amazon FSx for NetApp ONTAP: the id of the storage virtual machine that "
        "serves the volumes, `svm-` and 17 hexadecimal digits (aws fsx "
        "describe-storage-virtual-machines lists it); the volume requests name it.",
        json_schema_extra={"x-what": "the SVM id"},
    )
    paths: list[StoragePath] = Field(
        default_factory=list,
        max_length=MAX_STORAGE_PATHS,
        description="Storage paths, first to last (at most 4 and at most `network.nic_count`).",
    )
    cluster_nodes: list[HostName] = Field(
        default_factory=list,
        max_length=64,
        json_schema_extra={"uniqueItems": True},
        description="RAC: the host names of every node, this host included; each once "
        "(letter case aside).",
    )
    nfs4_id_domain: HostName | None = Field(
        default=None,
        description="NFSv4.1: the ID domain set on the SVM and in /etc/idmapd.conf, e.g. "
        "`example.com`.",
    )
    client_subnet: IPv4NetworkText | None = Field(
        default=None,
        description="Network of the database hosts' storage addresses, for export policies, "
        "e.g. `192.168.10.0/24`: the network address, no host bits set.",
    )
    oracle_uid: int | None = Field(
        default=None,
        ge=1,
        le=2_147_483_646,
        description="User id of the Oracle software owner.",
        json_schema_extra={"x-what": "the user id"},
    )
    oracle_gid: int | None = Field(
        default=None,
        ge=1,
        le=2_147_483_646,
        description="Group id of the Oracle owner's primary group (e.g. oinstall).",
        json_schema_extra={"x-what": "the group id"},
    )

    @field_validator("cluster_nodes")
    @classmethod
    def _distinct_nodes(cls, nodes: list[str]) -> list[str]:
        seen: set[str] = set()
        for name in nodes:
            if name.lower() in seen:
                raise ValueError(f"{name} is listed twice")
            seen.add(name.lower())
        return nodes


class Sizing(_Strict):
    """Optional capacity inputs. Each volume gets a size only when the inputs for its files are
    given; nothing is guessed."""

    database_gb: float | None = Field(
        default=None,
        gt=0,
        le=10_000_000,
        description="Datafiles today, GB.",
        json_schema_extra={"x-what": "the datafiles' size in GB"},
    )
    growth_pct_per_year: float | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="Yearly growth of the datafiles, %.",
        json_schema_extra={"x-what": "the yearly growth in %"},
    )
    horizon_years: int | None = Field(
        default=None,
        ge=0,
        le=30,
        description="Years the volumes must last before resizing.",
        json_schema_extra={"x-what": "the horizon in years"},
    )
    redo_mb_per_s: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Peak redo rate, MB/s.",
        json_schema_extra={"x-what": "the peak redo rate in MB/s"},
    )
    redo_gb_per_day: float | None = Field(
        default=None,
        gt=0,
        le=10_000_000,
        description="Redo written per day, GB.",
        json_schema_extra={"x-what": "the redo per day in GB"},
    )
    archive_retention_days: int | None = Field(
        default=None,
        ge=1,
        le=3650,
        description="Days archived logs stay on the archive volume.",
        json_schema_extra={"x-what": "the archive retention in days"},
    )
    snapshot_retention_days: int | None = Field(
        default=None,
        ge=1,
        le=3650,
        description="Days the filer keeps snapshots of the data.",
        json_schema_extra={"x-what": "the snapshot retention in days"},
    )
    daily_change_pct: float | None = Field(
        default=None,
        gt=0,
        le=100,
        description="Share of the data changed per day, %.",
        json_schema_extra={"x-what": "the daily change in %"},
    )
    oracle_homes: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Oracle homes on the ORACLE_HOME volume.",
        json_schema_extra={"x-what": "the number of Oracle homes"},
    )
    oracle_home_gb: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Space one Oracle home takes with its patches, GB (your figure: the knowledge "
        "base has no cited one for every platform).",
        json_schema_extra={"x-what": "one Oracle home's size in GB"},
    )
    crs_gb: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Space for the Clusterware files (OCR, voting files), GB (your figure).",
        json_schema_extra={"x-what": "the Clusterware files' size in GB"},
    )


def _platform_rules() -> dict[str, Any]:
    def handover(schema: dict[str, Any]) -> dict[str, Any]:
        return _given("handover", {"type": "object", **schema})

    def vendor(*names: str) -> dict[str, Any]:
        return _given("filer", _given("vendor", {"enum": list(names)}))

    # nic_count is 1 when absent, so more than one path needs it given.
    paths = [
        {
            "if": handover(_given("paths", {"minItems": n})),
            "then": _given("network", _given("nic_count", {"minimum": n})),
        }
        for n in range(2, MAX_STORAGE_PATHS + 1)
    ]
    ontap_names = [
        _given(name, {"type": "string"}) for name in ("svm", "aggregate", "broadcast_domain")
    ]
    return {
        "allOf": [
            *paths,
            {
                "if": handover(_given("cluster_nodes", {"minItems": 1})),
                "then": _given("oracle", _given("rac", {"const": True})),
            },
            {"if": handover({"anyOf": ontap_names}), "then": vendor("netapp", "aws_fsxn")},
            {
                "if": handover(_given("capacity_pool", {"type": "string"})),
                "then": vendor(*SERVICE_LEVELS),
            },
            {
                "if": handover(_given("fsx_svm_id", {"type": "string"})),
                "then": vendor("aws_fsxn"),
            },
        ]
    }


class Platform(_Strict):
    """A platform. Besides each field's own rules: at most `network.nic_count`
    `handover.paths`; `handover.cluster_nodes` only with `oracle.rac`, all `oracle.rac_nodes`
    of them (2 when not given) and `host.hostname` among them; `handover.svm`, `aggregate`
    and `broadcast_domain` for ONTAP filers only (netapp, aws_fsxn), `handover.capacity_pool`
    for cloud NAS only (azure_anf, gcp_gcnv). `host.os_version`, `oracle.version` and
    `filer.os_version` must be releases the catalog covers (`GET /api/v1/catalog`)."""

    model_config = ConfigDict(json_schema_extra=_platform_rules())

    host: Host
    network: Network
    oracle: Oracle
    filer: Filer
    layout: Layout
    handover: Handover | None = Field(
        default=None,
        description="Optional answers the generated files need (names, addresses, ids).",
    )
    sizing: Sizing | None = Field(
        default=None, description="Optional capacity inputs: the plan then sizes the volumes."
    )
    as_of: BoundedDate | None = Field(
        default=None,
        description=f"Evaluate the knowledge base as it stood on this date ({DATE_RANGE}).",
    )

    @model_validator(mode="after")
    def _handover_fits(self) -> Platform:
        h = self.handover
        if h is None:
            return self
        if len(h.paths) > self.network.nic_count:
            raise ValueError(
                f"handover.paths: {len(h.paths)} paths given but network.nic_count is "
                f"{self.network.nic_count}"
            )
        if h.cluster_nodes:
            if not self.oracle.rac:
                raise ValueError("handover.cluster_nodes: only for RAC (oracle.rac true)")
            expected = self.oracle.rac_nodes or 2
            if len(h.cluster_nodes) != expected:
                raise ValueError(
                    f"handover.cluster_nodes: give all {expected} node names, this host included"
                )
            hostname = self.host.hostname
            if hostname and hostname.lower() not in {n.lower() for n in h.cluster_nodes}:
                raise ValueError(
                    f"handover.cluster_nodes: host.hostname {hostname} must be one of the nodes"
                )
        ontap = self.filer.vendor in ("netapp", "aws_fsxn")
        if not ontap and (h.svm or h.aggregate or h.broadcast_domain):
            raise ValueError(
                "handover.svm, aggregate and broadcast_domain are for NetApp ONTAP filers "
                "(netapp, aws_fsxn)"
            )
        if h.capacity_pool and self.filer.vendor not in SERVICE_LEVELS:
            raise ValueError("handover.capacity_pool is for cloud NAS vendors only")
        if h.fsx_svm_id and self.filer.vendor != "aws_fsxn":
            raise ValueError("handover.fsx_svm_id is for Amazon FSx for NetApp ONTAP only")
        return self


EXAMPLE_PLATFORM: dict[str, Any] = {
    "host": {"os": "solaris", "os_version": "9u5", "arch": "sparc", "memory_gb": 48},
    "network": {
        "nic_gbps": 1,
        "nic_count": 2,
        "jumbo_frames": True,
        "switch": "store_and_forward",
        "router_hops": 0,
        "dedicated_storage_network": True,
        "rtt_us": None,
    },
    "oracle": {
        "version": "9.2.0.4",
        "bits": 64,
        "rac": False,
        "rac_nodes": None,
        "dnfs": False,
        "archivelog": True,
        "workload": "oltp",
    },
    "filer": {"vendor": "netapp", "model": "FAS940", "os_version": "7.0"},
    "layout": {"oracle_home": "nas", "filer_host": "filer01", "db_name": "PROD"},
}

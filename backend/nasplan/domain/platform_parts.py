"""The platform's required sections: the database host, its storage network, Oracle, the filer
and the volume layout. Each checks its own fields; the rules across sections are on
``nasplan.domain.platform.Platform``."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, model_validator

from nasplan.domain.platform_base import (
    FSX_THROUGHPUTS,
    SERVICE_LEVELS,
    Arch,
    FilerVendor,
    FsxThroughput,
    NfsVersion,
    NicGbps,
    OracleBits,
    OracleHomePlacement,
    OsName,
    ServiceLevel,
    StrictModel,
    SwitchKind,
    VolumeLayout,
    Workload,
    given,
    nulls,
)
from nasplan.domain.text_types import (
    DbName,
    HostName,
    InterfaceName,
    ModelName,
    OracleVersion,
    ReleaseToken,
)


class Host(StrictModel):
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


class Network(StrictModel):
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


class Oracle(StrictModel):
    model_config = ConfigDict(
        json_schema_extra={"if": given("rac", {"const": True}), "else": nulls("rac_nodes")}
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
        return given("vendor", {"enum": list(names)})

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
            {"if": vendor("netapp"), "then": given("os_version", {"type": "string"})},
            {
                "if": vendor("aws_fsxn"),
                "then": given("throughput_mb_s", {"type": "integer"}),
                "else": nulls("throughput_mb_s"),
            },
            *cloud,
            {"if": vendor(*SERVICE_LEVELS), "else": nulls("service_level", "capacity_tib")},
        ]
    }


class Filer(StrictModel):
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


class Layout(StrictModel):
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

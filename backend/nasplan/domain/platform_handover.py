"""The handover answers of a platform: the names, addresses and ids the generated files need
(storage paths, SVM, pools, cluster nodes, owner ids)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from nasplan.domain.platform_base import StrictModel
from nasplan.domain.text_types import (
    FsxSvmId,
    HostName,
    InterfaceName,
    IPv4InterfaceText,
    IPv4NetworkText,
    IPv4Text,
    StorageName,
)


class StoragePath(StrictModel):
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


class Handover(StrictModel):
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

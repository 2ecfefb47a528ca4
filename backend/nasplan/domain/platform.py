"""The user's description of a platform: the request body of a plan (contract: api-v1 "Platform").

Only syntax is checked here. Whether a release exists in the catalog is checked by
``nasplan.knowledge.catalog_check`` (the catalog lives in ``knowledge/``, not in code); whether a
combination makes sense is decided by rules, which answer with ``error`` findings.

The model is built from parts, each in its own module: the field choices and the strict base
(``platform_base``), the required sections host, network, Oracle, filer and layout
(``platform_parts``), the handover answers (``platform_handover``), the capacity inputs
(``platform_sizing``) and the date bounds (``dates``). Every name that was defined here is still
importable from here.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, model_validator

from nasplan.domain.dates import DATE_RANGE, EARLIEST_DATE, BoundedDate, BoundedDateTime
from nasplan.domain.platform_base import (
    FSX_THROUGHPUTS,
    SERVICE_LEVELS,
    Arch,
    FilerVendor,
    FsxThroughput,
    NfsVersion,
    NicGbps,
    NotBool,
    OracleBits,
    OracleHomePlacement,
    OsName,
    ServiceLevel,
    StrictModel,
    SwitchKind,
    VolumeLayout,
    Workload,
    given,
)
from nasplan.domain.platform_handover import (
    MAX_STORAGE_PATHS,
    ChangeKind,
    Handover,
    StoragePath,
)
from nasplan.domain.platform_parts import Filer, Host, Layout, Network, Oracle
from nasplan.domain.platform_sizing import Sizing

__all__ = [
    "DATE_RANGE",
    "EARLIEST_DATE",
    "EXAMPLE_PLATFORM",
    "FSX_THROUGHPUTS",
    "MAX_STORAGE_PATHS",
    "SERVICE_LEVELS",
    "Arch",
    "BoundedDate",
    "BoundedDateTime",
    "ChangeKind",
    "Filer",
    "FilerVendor",
    "FsxThroughput",
    "Handover",
    "Host",
    "Layout",
    "Network",
    "NfsVersion",
    "NicGbps",
    "NotBool",
    "Oracle",
    "OracleBits",
    "OracleHomePlacement",
    "OsName",
    "Platform",
    "ServiceLevel",
    "Sizing",
    "StoragePath",
    "SwitchKind",
    "VolumeLayout",
    "Workload",
]


def _platform_rules() -> dict[str, Any]:
    def handover(schema: dict[str, Any]) -> dict[str, Any]:
        return given("handover", {"type": "object", **schema})

    def vendor(*names: str) -> dict[str, Any]:
        return given("filer", given("vendor", {"enum": list(names)}))

    # nic_count is 1 when absent, so more than one path needs it given.
    paths = [
        {
            "if": handover(given("paths", {"minItems": n})),
            "then": given("network", given("nic_count", {"minimum": n})),
        }
        for n in range(2, MAX_STORAGE_PATHS + 1)
    ]
    ontap_names = [
        given(name, {"type": "string"}) for name in ("svm", "aggregate", "broadcast_domain")
    ]
    return {
        "allOf": [
            *paths,
            {
                "if": handover(given("cluster_nodes", {"minItems": 1})),
                "then": given("oracle", given("rac", {"const": True})),
            },
            {"if": handover({"anyOf": ontap_names}), "then": vendor("netapp", "aws_fsxn")},
            {
                "if": handover(given("capacity_pool", {"type": "string"})),
                "then": vendor(*SERVICE_LEVELS),
            },
            {
                "if": handover(given("fsx_svm_id", {"type": "string"})),
                "then": vendor("aws_fsxn"),
            },
        ]
    }


class Platform(StrictModel):
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

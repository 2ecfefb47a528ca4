"""Google Cloud NetApp Volumes: the storage pool and one volume per planned volume, as
Terraform (``google``) and as ``gcloud netapp`` command lines.

The pool takes the platform's service level and capacity; each volume its planned capacity, its
share name (the export the hosts mount), the plan's NFS version and one export rule naming every
storage network with read-write and root access (filer_common.EXPORT_NOTE says why root). The
service's ids take letters, digits and hyphens only (google-cloud-netapp's CreateVolumeRequest),
so a volume's id is its name with hyphens.
"""

from __future__ import annotations

from typing import Any

from nasplan.renderers.cloud_common import (
    TERRAFORM_DIR,
    TERRAFORM_STEPS,
    CloudVolume,
    TerraformFile,
    cli_text,
    client_list,
    cloud_volumes,
    command_line,
    literal,
    nfs_version,
    size_placeholder,
    size_variable,
)
from nasplan.renderers.common import Facts, header_lines
from nasplan.renderers.handover import capacity_pool, export_clients

GOOGLE = {"source": "hashicorp/google", "version": "~> 7.45"}
POOL = "oracle"
# Names nasplan does not ask for: the cloud team's (handover.answer_for says so).
REGION = "<gcp-region>"
NETWORK = "<vpc-network>"
GIB_PER_TIB = 1024


def volume_id(volume: CloudVolume) -> str:
    return volume.name.lower().replace("_", "-")


def pool_capacity_gib(f: Facts) -> int:
    """The platform's provisioned capacity, in the GiB the pool is given in."""
    return round((f.plan.platform.filer.capacity_tib or 1) * GIB_PER_TIB)


def service_level(f: Facts) -> str:
    return (f.plan.platform.filer.service_level or "premium").upper()


def protocol(f: Facts) -> str:
    return "NFSV4" if nfs_version(f) == "4.1" else "NFSV3"


def export_rule(f: Facts, clients: list[str]) -> dict[str, Any]:
    v4 = nfs_version(f) == "4.1"
    return {
        "allowed_clients": ",".join(clients),
        "access_type": "READ_WRITE",
        "has_root_access": "true",
        "nfsv3": not v4,
        "nfsv4": v4,
    }


def _capacity(tf: TerraformFile, volume: CloudVolume) -> Any:
    size = size_variable(tf, volume)
    return str(size) if isinstance(size, int) else size


def gcnv_terraform(f: Facts) -> dict[str, str]:
    volumes = cloud_volumes(f)
    tf = TerraformFile(
        header=[
            *header_lines(
                f,
                "Terraform (google): the Google Cloud NetApp Volumes pool and volumes.",
                [r for v in f.plan.volumes for r in v.rules],
            ),
            *TERRAFORM_STEPS,
        ],
        providers={"google": GOOGLE},
    )
    clients = client_list(tf, f)
    tf.resource(
        "google_netapp_storage_pool",
        POOL,
        {
            "name": tf.value(capacity_pool(f)),
            "location": tf.value(REGION),
            "service_level": service_level(f),
            "capacity_gib": str(pool_capacity_gib(f)),
            "network": tf.value(NETWORK),
        },
    )
    for volume in volumes:
        tf.resource(
            "google_netapp_volume",
            volume.name.lower(),
            {
                "name": volume_id(volume),
                "location": tf.value(REGION),
                "capacity_gib": _capacity(tf, volume),
                "share_name": literal(volume.path),
                "storage_pool": f"${{google_netapp_storage_pool.{POOL}.name}}",
                "protocols": [protocol(f)],
                "export_policy": {"rules": [export_rule(f, clients)]},
            },
        )
    return {f"{TERRAFORM_DIR}/gcnv.tf.json": tf.render()}


def _gcloud_rule(f: Facts, clients: list[str]) -> str:
    """One --export-policy value; the clients list has commas, so the value takes another
    delimiter (gcloud's ^;^ form)."""
    rule = export_rule(f, clients)
    keys = {
        "allowed-clients": rule["allowed_clients"],
        "access-type": rule["access_type"],
        "has-root-access": rule["has_root_access"],
        "nfsv3": str(rule["nfsv3"]).lower(),
        "nfsv4": str(rule["nfsv4"]).lower(),
    }
    return "^;^" + ";".join(f"{key}={value}" for key, value in keys.items())


def gcnv_cli(f: Facts) -> dict[str, str]:
    pool = capacity_pool(f)
    location = ("--location", REGION)
    lines = [
        command_line(
            ["gcloud", "netapp", "storage-pools", "create"],
            [
                ("", pool),
                location,
                ("--service-level", service_level(f).lower()),
                ("--capacity", f"{pool_capacity_gib(f)}GiB"),
                ("--network", f"name={NETWORK}"),
            ],
        )
    ]
    clients = export_clients(f)
    for volume in cloud_volumes(f):
        size = volume.size_gib or size_placeholder(volume)
        lines.append(
            command_line(
                ["gcloud", "netapp", "volumes", "create"],
                [
                    ("", volume_id(volume)),
                    location,
                    ("--capacity", f"{size}GiB"),
                    ("--storage-pool", pool),
                    ("--protocols", protocol(f)),
                    ("--share-name", volume.path),
                    ("--export-policy", _gcloud_rule(f, clients)),
                ],
            )
        )
    text = cli_text(
        f,
        "gcloud (gcloud netapp): the storage pool and volumes, as Terraform's "
        "terraform/gcnv.tf.json.",
        [r for v in f.plan.volumes for r in v.rules],
        [
            "Use these lines or the Terraform file, not both. Replace each value in angle",
            "brackets first (the runbook's first page lists them).",
        ],
        lines,
    )
    return {"filer/gcloud_netapp.txt": text}

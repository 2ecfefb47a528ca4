"""Azure NetApp Files: the capacity pool and one volume per planned volume, as Terraform
(``azurerm``) and as ``az netappfiles`` command lines.

The pool takes the platform's service level and capacity; its QoS type is manual where the plan
found that an automatic pool would hold the datafile volume below the service's throughput
(ANF-VOLUME-QOS), and then each volume's throughput is an input, with the pool's total and the
one-volume limit in its description. Each volume gets its planned quota, its path (the export
the hosts mount), the plan's NFS version and one export rule per storage network with
read-write and root access (filer_common.EXPORT_NOTE says why root).
"""

from __future__ import annotations

import json
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
    tib_ceiling,
    volume_group,
)
from nasplan.renderers.common import Facts, header_lines
from nasplan.renderers.handover import capacity_pool, export_clients

AZURERM = {"source": "hashicorp/azurerm", "version": "~> 4.81"}
QOS_RULE = "ANF-VOLUME-QOS"
# Values the az lines need that no platform field gives: the cloud team's names.
AZ_PLACES = {
    "resource_group": "<azure-resource-group>",
    "location": "<azure-region>",
    "account": "<netapp-account>",
    "subnet": "<delegated-subnet-id>",
}

POOL = "oracle"


def manual_qos(f: Facts) -> bool:
    """Manual QoS where the plan warns that an automatic pool would hold the datafile volume
    below the service's throughput, or where the volumes may be made as an application volume
    group, which needs it (ms-anf-avg-oracle-considerations)."""
    return any(x.rule == QOS_RULE for x in f.plan.findings) or volume_group(f) is not None


def service_level(f: Facts) -> str:
    level = f.plan.platform.filer.service_level or "premium"
    return level.capitalize()


def protocol(f: Facts) -> str:
    return "NFSv4.1" if nfs_version(f) == "4.1" else "NFSv3"


def _throughput_variable(tf: TerraformFile, f: Facts, volume: CloudVolume) -> str:
    lead = f"Throughput assigned to volume {volume.name} on the manual QoS pool, MiB/s"
    if "data" in volume.holds:
        why = " ".join(x.message for x in f.plan.findings if x.rule == QOS_RULE)
        text = f"{lead} ({QOS_RULE}): {why}"
    else:
        text = f"{lead}: what the datafile volume does not need of the pool's ({QOS_RULE})"
    return tf.number(throughput_placeholder(volume), text.rstrip("."))


def throughput_placeholder(volume: CloudVolume) -> str:
    return f"<throughput-{volume.name.replace('_', '-')}>"


def _volume(tf: TerraformFile, f: Facts, volume: CloudVolume, clients: list[str]) -> dict[str, Any]:
    version = protocol(f)
    body: dict[str, Any] = {
        "name": literal(volume.name),
        **_where(tf),
        "pool_name": f"${{azurerm_netapp_pool.{POOL}.name}}",
        "volume_path": literal(volume.path),
        "service_level": service_level(f),
        "subnet_id": tf.value(AZ_PLACES["subnet"]),
        "storage_quota_in_gb": size_variable(tf, volume),
        "protocols": [version],
        "export_policy_rule": [
            {
                "rule_index": index,
                "allowed_clients": [client],
                "protocol": [version],
                "unix_read_write": True,
                "root_access_enabled": True,
            }
            for index, client in enumerate(clients, start=1)
        ],
    }
    if manual_qos(f):
        body["throughput_in_mibps"] = _throughput_variable(tf, f, volume)
    return body


def _rules_used(f: Facts) -> list[str]:
    return [*([QOS_RULE] if manual_qos(f) else []), *(r for v in f.plan.volumes for r in v.rules)]


def _where(tf: TerraformFile) -> dict[str, str]:
    return {
        "resource_group_name": tf.value(AZ_PLACES["resource_group"]),
        "location": tf.value(AZ_PLACES["location"]),
        "account_name": tf.value(AZ_PLACES["account"]),
    }


def anf_terraform(f: Facts) -> dict[str, str]:
    filer = f.plan.platform.filer
    volumes = cloud_volumes(f)
    used = _rules_used(f)
    tf = TerraformFile(
        header=[
            *header_lines(f, "Terraform (azurerm): the Azure NetApp Files pool and volumes.", used),
            *TERRAFORM_STEPS,
        ],
        providers={"azurerm": AZURERM},
        provider_config={"azurerm": {"features": {}}},
    )
    clients = client_list(tf, f)
    tf.resource(
        "azurerm_netapp_pool",
        POOL,
        {
            "name": tf.value(capacity_pool(f)),
            **_where(tf),
            "service_level": service_level(f),
            "size_in_tb": tib_ceiling(filer.capacity_tib or 1),
            "qos_type": "Manual" if manual_qos(f) else "Auto",
        },
    )
    for volume in volumes:
        tf.resource("azurerm_netapp_volume", volume.name.lower(), _volume(tf, f, volume, clients))
    tf.outputs = {
        f"{v.name.lower()}_mount_ip": {
            "description": f"Address the hosts mount {v.path} from.",
            "value": f"${{azurerm_netapp_volume.{v.name.lower()}.mount_ip_addresses}}",
        }
        for v in volumes
    }
    return {f"{TERRAFORM_DIR}/anf.tf.json": tf.render()}


def export_rules(f: Facts) -> list[dict[str, Any]]:
    """One rule per storage network, read-write with root, in the service's field names as az
    takes them (the REST body spells the same fields in camelCase)."""
    v41 = protocol(f) == "NFSv4.1"
    return [
        {
            "rule_index": index,
            "allowed_clients": client,
            "unix_read_only": False,
            "unix_read_write": True,
            "nfsv3": not v41,
            "nfsv41": v41,
            "has_root_access": True,
        }
        for index, client in enumerate(export_clients(f), start=1)
    ]


def anf_cli(f: Facts) -> dict[str, str]:
    filer = f.plan.platform.filer
    pool = capacity_pool(f)
    where = [
        ("--resource-group", AZ_PLACES["resource_group"]),
        ("--account-name", AZ_PLACES["account"]),
    ]
    lines = [
        command_line(
            ["az", "netappfiles", "pool", "create"],
            [
                *where,
                ("--pool-name", pool),
                ("--location", AZ_PLACES["location"]),
                ("--service-level", service_level(f)),
                ("--size", tib_ceiling(filer.capacity_tib or 1)),
                ("--qos-type", "Manual" if manual_qos(f) else "Auto"),
            ],
        )
    ]
    for volume in cloud_volumes(f):
        flags: list[tuple[str, object]] = [
            *where,
            ("--pool-name", pool),
            ("--volume-name", volume.name),
            ("--location", AZ_PLACES["location"]),
            ("--service-level", service_level(f)),
            ("--usage-threshold", volume.size_gib or size_placeholder(volume)),
            ("--file-path", volume.path),
            ("--subnet-id", AZ_PLACES["subnet"]),
            ("--protocol-types", protocol(f)),
            ("--export-policy-rules", json.dumps(export_rules(f), separators=(",", ":"))),
        ]
        if manual_qos(f):
            flags.append(("--throughput-mibps", throughput_placeholder(volume)))
        lines.append(command_line(["az", "netappfiles", "volume", "create"], flags))
    used = _rules_used(f)
    text = cli_text(
        f,
        "Azure CLI (az netappfiles): the pool and volumes, as Terraform's terraform/anf.tf.json.",
        used,
        [
            "Use these lines or the Terraform file, not both. Replace each value in angle",
            "brackets first (the runbook's first page lists them); --usage-threshold is in GiB.",
            *(
                [
                    "Manual QoS pool: give each volume its share of the pool's throughput",
                    f"({QOS_RULE}); the datafile volume needs most of it.",
                ]
                if manual_qos(f)
                else []
            ),
        ],
        lines,
    )
    return {"filer/az_netappfiles.txt": text}

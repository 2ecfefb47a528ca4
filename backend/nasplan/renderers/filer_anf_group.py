"""Azure NetApp Files: the plan's volumes as one application volume group for Oracle, where the
plan found that its layout fits one (plan.volume_group, ANF-AVG-ORACLE).

filer/anf_volume_group.json is the REST request body (PUT .../volumeGroups/NAME) and
filer/anf_volume_group.txt the ``az rest`` line that sends it. Every volume keeps the plan's
name and path, so the hosts' mounts are the same whichever way the volumes are made; each gets
its spec, quota, throughput on the manual QoS pool the group requires, the plan's NFS version
and the same export rules as the volume-by-volume files. Terraform is not offered for the group:
azurerm_netapp_volume_group_oracle takes an application identifier of at most 3 characters,
where the service takes the SID's 3 to 12 (ms-anf-avg-oracle-api).
"""

from __future__ import annotations

import json
from typing import Any

from nasplan.renderers.cloud_common import (
    GIB,
    cli_text,
    cloud_volumes,
    command_line,
    size_placeholder,
    volume_group,
)
from nasplan.renderers.common import Facts
from nasplan.renderers.filer_anf import (
    AZ_PLACES,
    export_rules,
    protocol,
    service_level,
    throughput_placeholder,
)

GROUP_RULE = "ANF-AVG-ORACLE"
BODY = "filer/anf_volume_group.json"
COMMAND = "filer/anf_volume_group.txt"
# The earliest API version that has application volume groups for Oracle (ms-anf-avg-oracle-api).
API_VERSION = "2023-05-01"
ZONE = "<azure-zone>"
POOL_ID = "<capacity-pool-id>"
SUBSCRIPTION = "<subscription-id>"


def group_name(f: Facts) -> str:
    # Microsoft's suggested form is <SID>-<Name> (ms-anf-avg-oracle-api).
    return f"{f.db}-oracle"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _rules(f: Facts) -> list[dict[str, Any]]:
    """The export rules of the volume-by-volume files, as the REST body spells them."""
    return [{_camel(k): v for k, v in rule.items()} for rule in export_rules(f)]


def group_body(f: Facts) -> dict[str, Any]:
    group = volume_group(f)
    if group is None:
        raise ValueError("the plan offers no volume group")
    spec = {m.volume: m.spec for m in group.members}
    volumes = []
    for volume in cloud_volumes(f):
        volumes.append(
            {
                "name": volume.name,
                "zones": [ZONE],
                "properties": {
                    "creationToken": volume.path,
                    "serviceLevel": service_level(f),
                    "usageThreshold": volume.size_gib * GIB
                    if volume.size_gib
                    else size_placeholder(volume),
                    "throughputMibps": throughput_placeholder(volume),
                    "subnetId": AZ_PLACES["subnet"],
                    "capacityPoolResourceId": POOL_ID,
                    "protocolTypes": [protocol(f)],
                    "volumeSpecName": spec[volume.name],
                    "exportPolicy": {"rules": _rules(f)},
                },
            }
        )
    return {
        "location": AZ_PLACES["location"],
        "properties": {
            "groupMetaData": {
                "groupDescription": f"Oracle {f.db} (nasplan)",
                "applicationType": "ORACLE",
                "applicationIdentifier": group.application_identifier,
            },
            "volumes": volumes,
        },
    }


def render_anf_group(f: Facts) -> dict[str, str]:
    group = volume_group(f)
    if group is None:
        return {}
    url = (
        f"https://management.azure.com/subscriptions/{SUBSCRIPTION}/resourceGroups/"
        f"{AZ_PLACES['resource_group']}/providers/Microsoft.NetApp/netAppAccounts/"
        f"{AZ_PLACES['account']}/volumeGroups/{group_name(f)}?api-version={API_VERSION}"
    )
    line = command_line(
        ["az", "rest"], [("--method", "put"), ("--url", url), ("--body", f"@{BODY}")]
    )
    text = cli_text(
        f,
        f"Azure NetApp Files: the volumes as an application volume group for Oracle {f.db}.",
        [GROUP_RULE, *(r for v in f.plan.volumes for r in v.rules)],
        [
            "An alternative to terraform/anf.tf.json and filer/az_netappfiles.txt: use one of",
            f"the three. It sends {BODY} (replace its values in angle brackets first). The",
            "group needs a manual QoS capacity pool (its resource id in capacityPoolResourceId)",
            "and, in a region with availability zones, the database VM's zone; in a region",
            "without zones remove the zones lines. If one volume fails, none is created.",
        ],
        [line],
    )
    return {BODY: json.dumps(group_body(f), indent=2) + "\n", COMMAND: text}

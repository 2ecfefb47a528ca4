"""Amazon FSx for NetApp ONTAP: one volume per planned volume through the AWS API, as Terraform
(``aws``) and as ``aws fsx create-volume --cli-input-json`` request files.

What the FSx API takes carries over from the plan: the name, junction path (the export the hosts
mount), size, UNIX security style and the snapshot policy where the plan sets one. What it has
no field for (the export policies and their rules, the NFS server's options) stays with the
ONTAP commands in filer/commands.txt, which the storage administrator runs as fsxadmin.
"""

from __future__ import annotations

import json
from typing import Any

from nasplan.renderers.cloud_common import (
    GIB,
    TERRAFORM_DIR,
    TERRAFORM_STEPS,
    CloudVolume,
    TerraformFile,
    cloud_volumes,
    literal,
    size_placeholder,
    size_variable,
)
from nasplan.renderers.common import Facts, header_lines

AWS = {"source": "hashicorp/aws", "version": "~> 5.100"}
REQUEST_DIR = "filer/fsx"
SVM_ID = "<fsx-svm-id>"


def request_file(volume: CloudVolume) -> str:
    return f"{REQUEST_DIR}/create_volume_{volume.name.lower()}.json"


def svm_id(f: Facts) -> str:
    return f.handover.fsx_svm_id or SVM_ID


def create_volume_request(f: Facts, volume: CloudVolume) -> dict[str, Any]:
    """The CreateVolume request, as `aws fsx create-volume --cli-input-json` reads it."""
    ontap: dict[str, Any] = {
        "JunctionPath": f"/{volume.path}",
        "SecurityStyle": "UNIX",
        "SizeInBytes": volume.size_gib * GIB if volume.size_gib else size_placeholder(volume),
        "StorageVirtualMachineId": svm_id(f),
        "OntapVolumeType": "RW",
    }
    if volume.snapshot_policy is not None:
        ontap["SnapshotPolicy"] = volume.snapshot_policy
    return {"VolumeType": "ONTAP", "Name": volume.name, "OntapConfiguration": ontap}


def fsx_requests(f: Facts) -> dict[str, str]:
    return {
        request_file(v): json.dumps(create_volume_request(f, v), indent=2) + "\n"
        for v in cloud_volumes(f)
    }


def fsx_terraform(f: Facts) -> dict[str, str]:
    volumes = cloud_volumes(f)
    rules = [r for v in f.plan.volumes for r in v.rules]
    if any(v.snapshot_policy for v in volumes):
        rules += [r for s in f.settings("ontap_snapshot_policy") for r in s.rules]
    tf = TerraformFile(
        header=[
            *header_lines(f, "Terraform (aws): the FSx for ONTAP volumes.", rules),
            *TERRAFORM_STEPS,
            "Export policies and NFS options: filer/commands.txt (the FSx API has no field "
            "for them).",
        ],
        providers={"aws": AWS},
    )
    svm = tf.value(svm_id(f))
    for volume in volumes:
        body: dict[str, Any] = {
            "name": literal(volume.name),
            "junction_path": literal(f"/{volume.path}"),
            "size_in_bytes": str(size_variable(tf, volume, scale=GIB)),
            "storage_virtual_machine_id": svm,
            "security_style": "UNIX",
            "ontap_volume_type": "RW",
        }
        if volume.snapshot_policy is not None:
            body["snapshot_policy"] = literal(volume.snapshot_policy)
        tf.resource("aws_fsx_ontap_volume", volume.name.lower(), body)
    return {f"{TERRAFORM_DIR}/fsx.tf.json": tf.render()}

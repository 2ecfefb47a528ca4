"""The storage phase of a cloud NAS bundle as the runbook gives it: Terraform first (init,
validate, plan as the dry run, apply), the service's own request files or command lines as the
alternative, and on FSx for ONTAP the export policies attached with the ONTAP CLI afterwards
(the FSx API has no field for them)."""

from __future__ import annotations

from nasplan.renderers.cloud_common import TERRAFORM_DIR, cloud_volumes, volume_group
from nasplan.renderers.common import FAMILY_LABELS, Facts
from nasplan.renderers.filer_common import STORAGE, policy_name
from nasplan.renderers.filer_fsx import request_file
from nasplan.renderers.handover import svm
from nasplan.renderers.steps import Step

TERRAFORM_FILES = {"anf": "anf.tf.json", "gcnv": "gcnv.tf.json", "fsxn": "fsx.tf.json"}
POOL_RESOURCES = {"anf": "azurerm_netapp_pool", "gcnv": "google_netapp_storage_pool"}
PLAN_FILE = "nasplan.tfplan"
NEVER_DESTROY = (
    "Never run terraform destroy on these volumes: it deletes them with the database's files."
)


def terraform_file(f: Facts) -> str | None:
    name = TERRAFORM_FILES.get(f.family)
    return f"{TERRAFORM_DIR}/{name}" if name else None


def terraform_commands() -> list[str]:
    return [
        f"terraform -chdir={TERRAFORM_DIR} init",
        f"terraform -chdir={TERRAFORM_DIR} validate",
        f"terraform -chdir={TERRAFORM_DIR} plan -out={PLAN_FILE}",
        f"terraform -chdir={TERRAFORM_DIR} apply {PLAN_FILE}",
    ]


def _volume_rules(f: Facts) -> list[str]:
    return list(dict.fromkeys(r for v in f.plan.volumes for r in v.rules))


def cloud_share_steps(f: Facts) -> list[Step]:
    """Azure NetApp Files and Google Cloud NetApp Volumes: the pool and volumes by Terraform."""
    path = terraform_file(f)
    label = FAMILY_LABELS[f.family]
    count = len(f.plan.volumes)
    return [
        Step(
            phase="filer",
            who=STORAGE,
            title=f"Pool and volumes on {label} with Terraform",
            commands=terraform_commands(),
            file=path,
            rules=_volume_rules(f),
            expect=f"`terraform plan` lists the pool and {count} volumes to add and nothing to "
            "change or destroy; after apply, `showmount -e` from the host (NFSv3) or a test "
            "mount lists every export path.",
            requires="online",
            risk="Low: creates new resources only. " + NEVER_DESTROY,
            notes=[
                f"The dry run is terraform plan: it asks for each input {path} declares without "
                "a value (the runbook's first page lists them) and changes nothing.",
                f"A pool that exists already: bring it under Terraform first, terraform import "
                f"{POOL_RESOURCES[f.family]}.oracle POOL_ID (its resource id), or the plan "
                "tries to create it again.",
                "By hand instead: filer/shares.txt lists every share with its size and export.",
                *(
                    [
                        "Or as one application volume group for Oracle: filer/anf_volume_group.txt "
                        "sends filer/anf_volume_group.json (ANF-AVG-ORACLE).",
                    ]
                    if volume_group(f) is not None
                    else []
                ),
            ],
        )
    ]


def fsx_volume_steps(f: Facts) -> list[Step]:
    """FSx for ONTAP: volumes through the AWS API, then their export policies over the ONTAP
    CLI."""
    vserver = svm(f)
    volumes = cloud_volumes(f)
    alternative = [
        f"aws fsx create-volume --cli-input-json file://{request_file(v)}" for v in volumes
    ]
    return [
        Step(
            phase="filer",
            who=STORAGE,
            title="Volumes through the FSx API (Terraform, or aws fsx create-volume)",
            commands=terraform_commands(),
            file=terraform_file(f),
            rules=_volume_rules(f),
            expect=f"`terraform plan` lists {len(volumes)} volumes to add and nothing to "
            "change or destroy; after apply, `volume show -vserver "
            f"{vserver} -fields junction-path` lists each volume at its path.",
            requires="online",
            risk="Low: creates new volumes only. " + NEVER_DESTROY,
            language="text",
            notes=[
                "Or with the AWS CLI, one request file per volume (replace the values in angle "
                "brackets first): " + "; ".join(alternative) + ".",
                "The FSx API has no field for export policies: the next step attaches them.",
            ],
        ),
        Step(
            phase="filer",
            who=STORAGE,
            title="Attach the export policies to the new volumes",
            commands=[
                f"volume modify -vserver {vserver} -volume {v.name} "
                f"-policy {policy_name(f, v.role)}"
                for v in f.plan.volumes
            ],
            rules=_volume_rules(f),
            expect=f"`volume show -vserver {vserver} -fields junction-path,policy` lists each "
            "volume at its path with its policy.",
            requires="online",
        ),
    ]

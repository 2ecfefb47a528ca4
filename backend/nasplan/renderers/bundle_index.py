"""The bundle's files, declared once: for each file (or folder of files) its phase, the team
that works from it and what it is for.

README.md prints the index in this order, and a file takes the first entry that covers it, so
an exact name comes before the folder that holds it. The runbook names the storage
administrator's working files (phases 1 to 3) in an order of its own, kept here too.

It imports nothing of nasplan's, so that the bundle, the runbook and the review block can all
read it; tests/renderers/test_bundle_index.py checks that every file of every bundle has an
entry.
"""

from __future__ import annotations

from dataclasses import dataclass

MANIFEST = "MANIFEST.sha256"
RUNBOOKS = ("RUNBOOK.html", "RUNBOOK.md")
RUNBOOK_SUMS = "RUNBOOK.sha256"
CHECK_SCRIPT = "verify/check_bundle.sh"

STORAGE_ADMIN = "storage administrator"
UNIX_ADMIN = "Unix administrator"


@dataclass(frozen=True)
class BundleFile:
    """One line of the index: a file, or every file under a folder (``path`` ends in "/")."""

    path: str
    phase: str
    team: str
    what: str
    # Where the runbook names it among the storage administrator's working files (from 1),
    # or None when it is not one of them.
    storage_order: int | None = None

    def covers(self, path: str) -> bool:
        return path == self.path or (self.path.endswith("/") and path.startswith(self.path))


BUNDLE_FILES: tuple[BundleFile, ...] = (
    BundleFile(
        "RUNBOOK.md",
        "all",
        "everyone",
        "the runbook: every step in order, with why, expected "
        "result, what it needs and its risk (RUNBOOK.html prints it)",
    ),
    BundleFile("RUNBOOK.html", "all", "everyone", "the same runbook as a printable page"),
    BundleFile(
        MANIFEST,
        "all",
        "everyone",
        "SHA-256 of every other file but README.md and the runbooks (which say who approved "
        "the bundle): check with sh verify/check_bundle.sh",
    ),
    BundleFile(
        RUNBOOK_SUMS,
        "all",
        "everyone",
        "SHA-256 of each runbook without its review lines (verify/check_bundle.sh checks it)",
    ),
    BundleFile(
        CHECK_SCRIPT,
        "all",
        "everyone",
        "checks every file against MANIFEST.sha256 and prints the digest an approval records",
    ),
    BundleFile(
        "plan.json", "all", "tools", "the plan itself, with every rule's rationale and sources"
    ),
    BundleFile(
        "filer/commands.txt",
        "1-3",
        STORAGE_ADMIN,
        "record the current values, then "
        "interface, volumes, exports and options, as filer console commands",
        storage_order=1,
    ),
    BundleFile(
        "filer/shares.txt",
        "3",
        STORAGE_ADMIN,
        "the shares the plan needs (no cited commands for this filer)",
        storage_order=8,
    ),
    BundleFile(
        "filer/fsx/",
        "3",
        STORAGE_ADMIN,
        "one aws fsx create-volume --cli-input-json request per volume (FSx for ONTAP)",
        storage_order=4,
    ),
    BundleFile(
        "filer/anf_volume_group.txt",
        "3",
        STORAGE_ADMIN,
        "the volumes as one application volume group for Oracle (az rest)",
        storage_order=7,
    ),
    BundleFile(
        "filer/anf_volume_group.json",
        "3",
        STORAGE_ADMIN,
        "the request body the az rest line sends",
    ),
    BundleFile(
        "filer/az_netappfiles.txt",
        "3",
        STORAGE_ADMIN,
        "the pool and volumes as az netappfiles lines (instead of Terraform)",
        storage_order=5,
    ),
    BundleFile(
        "filer/gcloud_netapp.txt",
        "3",
        STORAGE_ADMIN,
        "the pool and volumes as gcloud netapp lines (instead of Terraform)",
        storage_order=6,
    ),
    BundleFile(
        "terraform/",
        "3",
        STORAGE_ADMIN,
        "the cloud volumes as Terraform (JSON syntax): terraform init, validate, plan, apply",
        storage_order=3,
    ),
    BundleFile(
        "host/network.sh",
        "2",
        UNIX_ADMIN,
        "NIC driver settings and the storage interface MTU",
    ),
    BundleFile("host/tuning.sh", "4", UNIX_ADMIN, "kernel and TCP settings, persistent"),
    BundleFile(
        "host/mounts.sh",
        "4",
        UNIX_ADMIN,
        "mount points and mount table entries, then mounts",
    ),
    BundleFile(
        "host/",
        "2, 4",
        UNIX_ADMIN,
        "the lines those scripts add, in the file's own format, for review or manual use",
    ),
    BundleFile("ansible/inventory.ini", "4", UNIX_ADMIN, "the database host(s) for the playbook"),
    BundleFile(
        "ansible/filer_rollback.yml",
        "7",
        STORAGE_ADMIN,
        "the filer rollback as a netapp.ontap playbook (the values recorded in phase 1)",
    ),
    BundleFile(
        "ansible/filer.yml",
        "3",
        STORAGE_ADMIN,
        "the filer phase as a netapp.ontap playbook (clustered ONTAP)",
        storage_order=2,
    ),
    BundleFile(
        "ansible/vars/ansible_oracle_dnfs.yml",
        "4",
        UNIX_ADMIN,
        "the Direct NFS mounts as ansible-oracle's orahost_storage role reads them (oradnfs)",
    ),
    BundleFile("ansible/", "4", UNIX_ADMIN, "the same host phase as an Ansible playbook (Linux)"),
    BundleFile("oracle/capture_before.sql", "1", "DBA", "a copy of the current parameters"),
    BundleFile("oracle/alter_system.sql", "5", "DBA", "the parameters as ALTER SYSTEM statements"),
    BundleFile("oracle/redo_logs.sql", "5", "DBA", "the planned online redo log sizes (sizing)"),
    BundleFile("oracle/init.ora.add", "5", "DBA", "the same parameters in init.ora form"),
    BundleFile("oracle/oranfstab", "5", "DBA", "Direct NFS paths and exports"),
    BundleFile("oracle/install_oranfstab.sh", "5", "DBA", "installs oranfstab"),
    BundleFile("oracle/enable_dnfs.sh", "5", "DBA", "switches Direct NFS on (relink)"),
    BundleFile(
        "verify/collect.sh",
        "6",
        UNIX_ADMIN,
        "read-only collection for an audit of the host as built (upload it on the audit page)",
    ),
    BundleFile("verify/verify_host.sh", "6", UNIX_ADMIN, "read-only host checks: PASS/FAIL"),
    BundleFile("verify/verify_oracle.sql", "6", "DBA", "read-only database checks: PASS/FAIL"),
    BundleFile("verify/filer_checks.txt", "6", STORAGE_ADMIN, "what to look at on the filer"),
    BundleFile(
        "verify/filer_collect.txt",
        "6",
        STORAGE_ADMIN,
        "read-only filer commands whose output the audit reads (paste it on the audit page)",
    ),
    BundleFile("rollback/oracle_rollback.sql", "7", "DBA", "parameters back"),
    BundleFile("rollback/oracle_rollback.sh", "7", "DBA", "Direct NFS off, oranfstab back"),
    BundleFile(
        "rollback/host_rollback.sh",
        "7",
        UNIX_ADMIN,
        "removes nasplan's lines, restores saved values",
    ),
    BundleFile("rollback/filer_rollback.txt", "7", STORAGE_ADMIN, "filer values back"),
)

# The storage administrator's working files, in the order the runbook names them.
STORAGE_WORK: tuple[BundleFile, ...] = tuple(
    sorted(
        (entry for entry in BUNDLE_FILES if entry.storage_order is not None),
        key=lambda entry: entry.storage_order or 0,
    )
)


def entry_for(path: str) -> BundleFile | None:
    """The first entry that covers a file of the bundle, or None (README.md, the index itself)."""
    for entry in BUNDLE_FILES:
        if entry.covers(path):
            return entry
    return None


def describe(path: str) -> tuple[str, str, str]:
    """Phase, team and what a file is for, as README.md's index prints them ("" when unknown)."""
    entry = entry_for(path)
    if entry is None:
        return "", "", ""
    return entry.phase, entry.team, entry.what


def storage_work_paths(files: dict[str, str]) -> list[str]:
    """The storage administrator's working files (a folder by its name) this bundle has, in the
    runbook's order."""
    return [entry.path for entry in STORAGE_WORK if any(entry.covers(path) for path in files)]

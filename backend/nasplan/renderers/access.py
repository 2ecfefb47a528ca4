"""Who can mount what: one row per export the bundle creates or relies on, with the clients it
admits and the access they get, as the runbook's access table shows it. The rows are derived
from the same facts the filer commands use (``export_clients``, the export-policy settings), so
the table and the commands cannot disagree."""

from __future__ import annotations

from dataclasses import dataclass

from nasplan.renderers.common import Facts
from nasplan.renderers.filer_common import ONTAP_CLI_FAMILIES, SVM_ROOT
from nasplan.renderers.handover import export_clients, nodes


@dataclass(frozen=True)
class AccessRow:
    export: str
    holds: str
    clients: str
    access: str


def access_rows(f: Facts) -> list[AccessRow]:
    clients = ", ".join(export_clients(f))
    root_rules = [s for s in f.settings("ontap_export_policy") if s.scope == SVM_ROOT]
    binaries = {
        volume
        for s in f.settings("ontap_export_policy")
        if s.scope != SVM_ROOT
        for volume in s.applies_to
    }
    rows: list[AccessRow] = []
    if root_rules and f.family in ONTAP_CLI_FAMILIES:
        rows.append(
            AccessRow(
                export="/ (SVM root volume)",
                holds="the junction every mount passes through",
                clients=clients,
                access="read-only (" + ", ".join(f"{s.key} {s.value}" for s in root_rules) + ")",
            )
        )
    for volume in f.plan.volumes:
        access = "read-write, root kept (superuser sys)"
        if f.family == "ontap7":
            access = "read-write, root kept (rw= and root=)"
        elif f.family not in ONTAP_CLI_FAMILIES:
            access = "read-write, root kept (no root squashing)"
        if volume.name in binaries:
            access += ", setuid allowed"
        rows.append(
            AccessRow(
                export=volume.export,
                holds=", ".join(volume.holds),
                clients=clients,
                access=access,
            )
        )
    return rows


def access_notes(f: Facts) -> list[str]:
    """Who is behind the client networks, and what the table does not grant."""
    hosts = nodes(f)
    notes = [
        "Clients are the hosts' storage networks, never host names: "
        + ", ".join(hosts)
        + (" must each have" if len(hosts) > 1 else " must have")
        + " an address in one of them on every path it mounts over.",
        "No other client is admitted: a backup or clone host needs its own rule, added by the "
        "storage administrator and recorded with the change.",
    ]
    if any("<storage-subnet-" in c for c in export_clients(f)):
        notes.append(
            "A network still shown as <storage-subnet-N> must be answered before phase 3: the "
            "first page lists the question for each."
        )
    return notes

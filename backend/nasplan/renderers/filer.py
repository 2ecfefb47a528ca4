"""filer/: commands for the storage administrator, in the filer's own CLI and release family.

Filer commands are typed (or pasted) at the filer's console by a person, so they are text files
of commands with `#` comments, not scripts. Values the platform does not give (the SVM name,
an aggregate, sizes, other RAC nodes) come from the platform's hand-over answers; any left
unanswered is a placeholder written <like-this>.
"""

from __future__ import annotations

from nasplan.renderers.common import FAMILY_LABELS, Facts, cite, header
from nasplan.renderers.filer_cloud_steps import NEVER_DESTROY, cloud_share_steps
from nasplan.renderers.filer_common import (
    CLOUD_FAMILIES,
    ONTAP_CLI_FAMILIES,
    STORAGE,
    volume_size,
)
from nasplan.renderers.filer_ontap import cluster_rollback, cluster_steps
from nasplan.renderers.filer_ontap7 import ontap7_rollback, ontap7_steps
from nasplan.renderers.handover import export_clients
from nasplan.renderers.steps import Step


# ------------------------------------------------------------------ other servers
def _share_steps(f: Facts) -> list[Step]:
    label = FAMILY_LABELS[f.family]
    tuned = [s for s in f.plan.settings if s.target == "filer"]
    lines = [
        f"{v.name}: export {v.export}, holds {', '.join(v.holds)}, size {volume_size(v)}"
        for v in f.plan.volumes
    ]
    where = (
        "the service's portal, CLI or API"
        if f.family in CLOUD_FAMILIES
        else "the appliance's own interface"
    )
    notes = [
        f"nasplan has no cited {label} commands: create these shares in {where}, exported "
        "over NFS to " + ", ".join(export_clients(f)) + " with read-write access "
        "(and root access while the Oracle directories are given to their owner).",
    ]
    filer = f.plan.platform.filer
    if filer.service_level is not None:
        notes.append(
            f"Service level {filer.service_level} with {filer.capacity_tib:g} TiB provisioned: "
            "that pair sets the throughput the volumes get (see the plan's expectations)."
        )
    if tuned:
        notes += [
            f"Set {s.key}={s.value} on {', '.join(s.applies_to) or 'the server'} "
            f"({', '.join(s.rules)})."
            for s in tuned
        ]
    else:
        notes.append(
            "The plan has no share settings for this filer: no tuning is cited, so the shares "
            "keep the service's or appliance's defaults."
        )
    return [
        Step(
            phase="filer",
            who=STORAGE,
            title=f"Shares on the {label}",
            commands=lines,
            rules=list(dict.fromkeys(r for v in f.plan.volumes for r in v.rules)),
            expect=f"`showmount -e {f.filer_host}` from the host lists every export path.",
            requires="online",
            manual=True,
            notes=notes,
            language="text",
        )
    ]


def filer_steps(f: Facts) -> list[Step]:
    if f.family == "ontap7":
        return ontap7_steps(f)
    if f.family in ONTAP_CLI_FAMILIES:
        return cluster_steps(f)
    if f.family in CLOUD_FAMILIES:
        return cloud_share_steps(f)
    return _share_steps(f)


def filer_rollback_steps(f: Facts) -> list[Step]:
    if f.family == "ontap7":
        return ontap7_rollback(f)
    if f.family in ONTAP_CLI_FAMILIES:
        return cluster_rollback(f)
    return [
        Step(
            phase="rollback",
            who=STORAGE,
            title="Shares: withdraw the NFS access given to the host(s)",
            rules=[],
            expect="The host no longer sees the exports.",
            requires="remount",
            manual=True,
            notes=["Stop the database and unmount first; nasplan never removes shares or data."]
            + ([NEVER_DESTROY] if f.family in CLOUD_FAMILIES else []),
        )
    ]


def commands_text(f: Facts, steps: list[Step], title: str) -> str:
    rules = [r for s in steps for r in s.rules]
    parts = [header(f, title, rules)]
    family = FAMILY_LABELS[f.family]
    place = "portal" if f.family in CLOUD_FAMILIES else "console"
    parts.append(
        f"#\n# Storage administrator, at the {family} {place} of {f.filer_host}. Type or paste\n"
        "# the command lines in order; lines starting with # are notes. A value in angle\n"
        "# brackets is one the design does not give yet: replace it first (the runbook's\n"
        "# first page lists each one and the question that fills it in)."
    )
    for number, step in enumerate(steps, start=1):
        block = [f"\n# ---- {number}. {step.title}"]
        for rule_id in step.rules:
            block.append(f"# {cite(f.plan, rule_id)}")
        if step.requires not in ("none", "online"):
            block.append(f"# Needs: {step.requires.replace('_', ' ')}.")
        for note in step.notes:
            block.append(f"# Note: {note}")
        prefix = "# " if step.language == "text" else ""
        block += [f"{prefix}{command}" for command in step.commands]
        if step.expect:
            block.append(f"# Expect: {step.expect}")
        parts.append("\n".join(block))
    return "\n".join(parts) + "\n"


def filer_file(f: Facts) -> str:
    """Console commands where nasplan has cited ones (ONTAP), else a list of shares to make."""
    if f.family == "ontap7" or f.family in ONTAP_CLI_FAMILIES:
        return "filer/commands.txt"
    return "filer/shares.txt"


def render_filer(f: Facts) -> dict[str, str]:
    # A cloud service's shares are listed for a person; the runbook's steps run Terraform.
    steps = _share_steps(f) if f.family in CLOUD_FAMILIES else filer_steps(f)
    ordered = (
        [s for s in steps if s.phase == "prereq"]
        + [s for s in steps if s.phase == "network"]
        + [s for s in steps if s.phase == "filer"]
    )
    name = filer_file(f)
    return {
        name: commands_text(f, ordered, f"{FAMILY_LABELS[f.family]} commands for {f.filer_host}.")
    }

"""filer/: commands for the storage administrator, in the filer's own CLI and release family.

Filer commands are typed (or pasted) at the filer's console by a person, so they are text files
of commands with `#` comments, not scripts. Values the platform does not give (the SVM name,
an aggregate, sizes, other RAC nodes) come from the platform's hand-over answers; any left
unanswered is a placeholder written <like-this>.
"""

from __future__ import annotations

from collections import defaultdict

from nasplan.domain.plan import Volume
from nasplan.renderers.common import FAMILY_LABELS, Facts, cite, header, version_tuple
from nasplan.renderers.handover import (
    RECORDED_VALUE,
    aggregate,
    broadcast_domain,
    export_clients,
    filer_interface,
    setting_value,
    svm,
)
from nasplan.renderers.steps import Step

STORAGE = "storage administrator"
# Export-policy settings with this scope belong to the SVM root volume's policy.
SVM_ROOT = "SVM root volume"
EXPORT_NOTE = (
    "The exports name the database hosts' storage network on each path they mount over (never a "
    "host name: it resolves to the host's public address, not the storage one) and give it "
    "read-write and root access: root on the host must create the Oracle directories and hand "
    "them to the Oracle owner after mounting. The knowledge base holds no rule on these export "
    "options; review them against your security policy."
)


# ------------------------------------------------------------------ Data ONTAP 7-mode
def _ontap7_steps(f: Facts) -> list[Step]:
    plan = f.plan
    steps: list[Step] = []
    vols = [v.name for v in plan.volumes]
    record = ["options nfs", *(f"vol options {v}" for v in vols), "exportfs"]
    mtu = f.settings("ontap7_interface")
    if mtu:
        record += [f"ifconfig {filer_interface(f)}", "rdfile /etc/rc"]
    steps.append(
        Step(
            phase="prereq",
            who=STORAGE,
            title="Record the filer's current values (for rollback)",
            commands=record,
            expect="Save the output with the change ticket: rollback/filer_rollback.txt puts "
            "these values back.",
            requires="none",
        )
    )
    release = version_tuple(plan.platform.filer.os_version or "0")
    create = (
        [f"vol create {v.name} {aggregate(f)} {volume_size(v)}" for v in plan.volumes]
        if release >= (7,)
        else []
    )
    steps.append(
        Step(
            phase="filer",
            who=STORAGE,
            title="Volumes (skip any that exist)",
            commands=create,
            rules=list(dict.fromkeys(r for v in plan.volumes for r in v.rules)),
            expect="`vol status` lists every volume online.",
            requires="online",
            risk="Low: creates new volumes only.",
            notes=[]
            if create
            else [
                "Data ONTAP before 7.0 has traditional volumes only; nasplan has no cited "
                "command for creating them: create " + ", ".join(vols) + " as your release "
                "documents."
            ],
            manual=not create,
        )
    )
    access = ":".join(export_clients(f))
    steps.append(
        Step(
            phase="filer",
            who=STORAGE,
            title="Export the volumes to the database hosts' storage network",
            commands=[f"exportfs -p rw={access},root={access} {v.export}" for v in plan.volumes],
            rules=list(dict.fromkeys(r for v in plan.volumes for r in v.rules)),
            expect="`exportfs` lists each path with rw= and root= for the storage network; -p "
            "also writes them to /etc/exports.",
            requires="online",
            notes=[EXPORT_NOTE],
        )
    )
    for s in f.settings("ontap7_option"):
        steps.append(
            Step(
                phase="filer",
                who=STORAGE,
                title=f"options {s.key} {s.value}",
                commands=[f"options {s.key} {s.value}"],
                rules=s.rules,
                expect=f"`options {s.key}` shows {s.value}.",
                requires=s.requires,
            )
        )
    for s in f.settings("ontap7_vol_option"):
        steps.append(
            Step(
                phase="filer",
                who=STORAGE,
                title=f"vol options {s.key} {s.value} on {', '.join(s.applies_to)}",
                commands=[f"vol options {v} {s.key} {s.value}" for v in s.applies_to],
                rules=s.rules,
                expect=f"`vol options {(s.applies_to or vols)[0]}` shows {s.key}={s.value}.",
                requires=s.requires,
            )
        )
    for s in mtu:
        interface = filer_interface(f)
        steps.append(
            Step(
                phase="network",
                who=STORAGE,
                title=f"MTU {s.value} on the filer interface {interface}",
                commands=[f"ifconfig {interface} mtusize {s.value}"],
                rules=s.rules,
                expect=f"`ifconfig {interface}` shows mtusize {s.value}.",
                requires=s.requires,
                risk="High: until every hop passes jumbo frames, NFS I/O over this interface "
                "can stall.",
                notes=[
                    f"Make it persistent: add mtusize {s.value} to the ifconfig line for "
                    f"{interface} in the filer's /etc/rc (show it with rdfile /etc/rc), or the "
                    "setting is lost at the next boot."
                ],
            )
        )
    return steps


def _ontap7_rollback(f: Facts) -> list[Step]:
    steps: list[Step] = []
    commands: list[str] = []
    for s in f.settings("ontap7_vol_option"):
        commands += [f"vol options {v} {s.key} {RECORDED_VALUE}" for v in s.applies_to]
    for s in f.settings("ontap7_option"):
        commands.append(f"options {s.key} {RECORDED_VALUE}")
    if f.settings("ontap7_interface"):
        commands.append(f"ifconfig {filer_interface(f)} mtusize {RECORDED_VALUE}")
    commands += [f"exportfs -z {v.export}" for v in f.plan.volumes]
    steps.append(
        Step(
            phase="rollback",
            who=STORAGE,
            title="Filer: put back the recorded values and withdraw the exports",
            commands=commands,
            rules=list(
                dict.fromkeys(r for s in f.plan.settings if s.target == "filer" for r in s.rules)
            ),
            expect="`options nfs` and `vol options` on each volume show the values recorded in "
            "phase 1.",
            requires="remount",
            notes=[
                f"Replace each {RECORDED_VALUE} with the value in the output saved in phase 1.",
                "exportfs -z withdraws an export and removes it from /etc/exports: stop the "
                "database and unmount first. Volumes and data are never removed by nasplan.",
                "If mtusize was added to /etc/rc, remove it there too.",
            ],
        )
    )
    return steps


def volume_size(v: Volume) -> str:
    """The planned size in the filers' own notation, or a placeholder until sizing gives it."""
    return f"{v.size_gb}g" if v.size_gb else "<size>"


def _reserve(v: Volume) -> str:
    reserve = v.sizing.snapshot_reserve_pct if v.sizing else None
    return f" -percent-snapshot-space {reserve}" if reserve is not None else ""


# ------------------------------------------------------------------ clustered ONTAP
def _policy(f: Facts, role: str) -> str:
    return f"{f.db_lower}_binaries" if role == "oracle_home" else f"{f.db_lower}_oracle"


def _root_steps(f: Facts) -> list[Step]:
    """Read-only rules for the hosts' storage networks in the SVM root volume's policy: every
    mount passes through the root junction."""
    root = [s for s in f.settings("ontap_export_policy") if s.scope == SVM_ROOT]
    if not root:
        return []
    vserver = svm(f)
    options = " ".join(f"-{s.key} {s.value}" for s in root)
    return [
        Step(
            phase="filer",
            who=STORAGE,
            title="Let the storage networks through the SVM root volume (read only)",
            commands=[
                f"vserver export-policy rule create -vserver {vserver} -policyname default "
                f"-clientmatch {client} -protocol nfs {options}"
                for client in export_clients(f)
            ],
            rules=list(dict.fromkeys(r for s in root for r in s.rules)),
            expect=f"`vserver export-policy rule show -vserver {vserver} -policyname default` "
            "lists a read-only rule for each storage network.",
            requires="online",
            notes=[
                "The root volume uses the policy default unless someone changed it: "
                f"`vserver show -vserver {vserver} -fields rootvolume` names the root volume and "
                f"`volume show -vserver {vserver} -volume ROOT -fields policy` (ROOT: that name) "
                "shows its policy; put these rules in that policy if it is another one. Skip a "
                "network that an existing rule already lets read."
            ],
        )
    ]


def _cluster_steps(f: Facts) -> list[Step]:
    plan = f.plan
    vserver = svm(f)
    steps: list[Step] = []
    port = filer_interface(f)
    mtu = f.settings("ontap_port")
    record = [
        "set -privilege advanced",
        f"vserver nfs show -vserver {vserver} -fields "
        + ",".join(
            dict.fromkeys(s.key for s in f.settings("ontap_nfs_server")) or ["tcp-max-xfer-size"]
        ),
        "set -privilege admin",
        f"vserver export-policy rule show -vserver {vserver}",
        f"volume show -vserver {vserver} -volume {f.db_lower}_* -fields policy,snapshot-policy",
    ]
    if mtu:
        record += [
            f"network port show -port {port} -fields mtu,broadcast-domain",
            _domain_ports(f),
        ]
    steps.append(
        Step(
            phase="prereq",
            who=STORAGE,
            title="Record the cluster's current values (for rollback)",
            commands=record,
            expect="Save the output with the change ticket: rollback/filer_rollback.txt puts "
            "these values back.",
            requires="none",
        )
    )
    binaries: dict[str, dict[str, str]] = defaultdict(dict)
    binary_rules: list[str] = []
    for s in f.settings("ontap_export_policy"):
        if s.scope == SVM_ROOT:
            continue
        for volume in s.applies_to:
            binaries[volume][s.key] = s.value
        binary_rules += s.rules
    steps += _root_steps(f)
    policies: dict[str, list[str]] = {}
    for v in plan.volumes:
        policies.setdefault(_policy(f, v.role), []).append(v.name)
    commands: list[str] = []
    for name in policies:
        commands.append(f"vserver export-policy create -vserver {vserver} -policyname {name}")
        extra = {"superuser": "sys"}
        for volume in policies[name]:
            extra.update(binaries.get(volume, {}))
        options = " ".join(f"-{k} {v}" for k, v in extra.items())
        for client in export_clients(f):
            commands.append(
                f"vserver export-policy rule create -vserver {vserver} -policyname {name} "
                f"-clientmatch {client} -protocol nfs -rorule sys -rwrule sys {options}"
            )
    steps.append(
        Step(
            phase="filer",
            who=STORAGE,
            title="Export policies for the database hosts' storage network",
            commands=commands,
            rules=list(dict.fromkeys(binary_rules)),
            expect=f"`vserver export-policy rule show -vserver {vserver}` lists one rule per "
            "storage network in each policy.",
            requires="remount" if binaries else "online",
            notes=[EXPORT_NOTE]
            + (
                [
                    f"The {f.db_lower}_binaries policy (ORACLE_HOME) grants superuser for sys "
                    "authentication and allows setuid, as ONTAP9-EXPORT-BINARIES asks."
                ]
                if binaries
                else []
            ),
        )
    )
    steps.append(
        Step(
            phase="filer",
            who=STORAGE,
            title="Volumes with their junction paths (skip any that exist)",
            commands=[
                f"volume create -vserver {vserver} -volume {v.name} -aggregate {aggregate(f)} "
                f"-size {volume_size(v)} -junction-path {v.export} -security-style unix "
                f"-policy {_policy(f, v.role)}{_reserve(v)}"
                for v in plan.volumes
            ]
            + [
                f"volume autosize -vserver {vserver} -volume {v.name} -mode grow "
                f"-maximum-size {v.sizing.autosize_max_gb}g"
                for v in plan.volumes
                if v.sizing and v.sizing.autosize_max_gb
            ],
            rules=list(dict.fromkeys(r for v in plan.volumes for r in v.rules)),
            expect=f"`volume show -vserver {vserver} -fields junction-path,policy` lists each "
            "volume at its path with its policy.",
            requires="online",
            risk="Low: creates new volumes only.",
            notes=[
                "For a volume that exists already, attach its policy instead: "
                + "; ".join(
                    f"volume modify -vserver {vserver} -volume {v.name} "
                    f"-policy {_policy(f, v.role)}"
                    for v in plan.volumes
                )
                + "."
            ],
        )
    )
    for s in f.settings("ontap_nfs_server"):
        value = setting_value(f, s.value)
        steps.append(
            Step(
                phase="filer",
                who=STORAGE,
                title=f"NFS server: {s.key} {value} (advanced privilege)",
                commands=[
                    "set -privilege advanced",
                    f"vserver nfs modify -vserver {vserver} -{s.key} {value}",
                    "set -privilege admin",
                ],
                rules=s.rules,
                expect=f"`vserver nfs show -vserver {vserver} -fields {s.key}` (advanced) shows "
                f"{value}.",
                requires=s.requires,
                notes=["Do this before the hosts mount with the larger rsize and wsize."]
                if s.key == "tcp-max-xfer-size"
                else [],
            )
        )
    for s in f.settings("ontap_volume", "ontap_snapshot_policy"):
        key = "snapshot-policy" if s.mechanism == "ontap_snapshot_policy" else s.key
        steps.append(
            Step(
                phase="filer",
                who=STORAGE,
                title=f"volume {key} {s.value} on {', '.join(s.applies_to)}",
                commands=[
                    f"volume modify -vserver {vserver} -volume {v} -{key} {s.value}"
                    for v in s.applies_to
                ],
                rules=s.rules,
                expect=f"`volume show -fields {key}` shows {s.value}.",
                requires=s.requires,
            )
        )
    for s in mtu:
        steps.append(
            Step(
                phase="network",
                who=STORAGE,
                title=f"MTU {s.value} on the data port {port}",
                commands=[
                    _domain_ports(f),
                    f"network port broadcast-domain modify -broadcast-domain {broadcast_domain(f)} "
                    f"-mtu {s.value}",
                ],
                rules=s.rules,
                expect=f"`network port show -port {port} -fields mtu` shows {s.value} on every "
                "node.",
                requires=s.requires,
                risk="High: until every hop passes jumbo frames, NFS I/O over these ports can "
                "stall.",
                notes=[
                    "The first command lists every port this change reaches: the domain's MTU "
                    "is set on all of its ports (ONTAP command reference, network port "
                    "broadcast-domain modify, -mtu), and so on every LIF they carry, whatever "
                    "its SVM or protocol. Agree the change with the owners of any port that does "
                    "not serve this database before going on.",
                    f"Ports in a broadcast domain take the domain's MTU; for a port outside one: "
                    f"network port modify -node NODE -port {port} -mtu {s.value} on each node "
                    "(NODE: the node's name).",
                ],
            )
        )
    return steps


def _domain_ports(f: Facts) -> str:
    return (
        f"network port broadcast-domain show -broadcast-domain {broadcast_domain(f)} "
        "-fields ports,mtu"
    )


def _cluster_rollback(f: Facts) -> list[Step]:
    vserver = svm(f)
    commands: list[str] = []
    for s in f.settings("ontap_nfs_server"):
        commands += [
            "set -privilege advanced",
            f"vserver nfs modify -vserver {vserver} -{s.key} {RECORDED_VALUE}",
            "set -privilege admin",
        ]
    if f.settings("ontap_port"):
        commands.append(
            f"network port broadcast-domain modify -broadcast-domain {broadcast_domain(f)} "
            f"-mtu {RECORDED_VALUE}"
        )
    for v in f.plan.volumes:
        commands.append(
            f"volume modify -vserver {vserver} -volume {v.name} -policy {RECORDED_VALUE}"
        )
    for s in f.settings("ontap_snapshot_policy"):
        commands += [
            f"volume modify -vserver {vserver} -volume {v} -snapshot-policy {RECORDED_VALUE}"
            for v in s.applies_to
        ]
    for name in dict.fromkeys(_policy(f, v.role) for v in f.plan.volumes):
        commands.append(f"vserver export-policy delete -vserver {vserver} -policyname {name}")
    return [
        Step(
            phase="rollback",
            who=STORAGE,
            title="Cluster: put back the recorded values and export policies",
            commands=commands,
            rules=list(
                dict.fromkeys(r for s in f.plan.settings if s.target == "filer" for r in s.rules)
            ),
            expect="The values match the output saved in phase 1.",
            requires="remount",
            notes=[
                f"Replace each {RECORDED_VALUE} with the value in the output saved in phase 1.",
                "A volume missing from that output was created by this change: give it -policy "
                "default and leave its snapshot policy (nasplan never deletes volumes).",
                "The read-only rules added to the SVM root volume's policy stay: other exports of "
                "the SVM may need them. To remove one: vserver export-policy rule show -vserver "
                f"{vserver} -policyname default, then vserver export-policy rule delete -vserver "
                f"{vserver} -policyname default -ruleindex N (N: its index).",
                "Never lower tcp-max-xfer-size below the rsize or wsize of a client that is "
                "still mounted: unmount the hosts first (ONTAP9-TCP-MAX-XFER).",
                "Volumes and data are never removed by nasplan.",
            ],
        )
    ]


# Amazon FSx for NetApp ONTAP takes the ONTAP CLI (as fsxadmin over SSH) like a cluster.
ONTAP_CLI_FAMILIES = frozenset({"ontap_cluster", "fsxn"})
# Cloud NAS services: no console commands, a portal or API instead.
CLOUD_FAMILIES = frozenset({"anf", "gcnv"})


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
        return _ontap7_steps(f)
    if f.family in ONTAP_CLI_FAMILIES:
        return _cluster_steps(f)
    return _share_steps(f)


def filer_rollback_steps(f: Facts) -> list[Step]:
    if f.family == "ontap7":
        return _ontap7_rollback(f)
    if f.family in ONTAP_CLI_FAMILIES:
        return _cluster_rollback(f)
    return [
        Step(
            phase="rollback",
            who=STORAGE,
            title="Shares: withdraw the NFS access given to the host(s)",
            rules=[],
            expect="The host no longer sees the exports.",
            requires="remount",
            manual=True,
            notes=["Stop the database and unmount first; nasplan never removes shares or data."],
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
    steps = filer_steps(f)
    ordered = (
        [s for s in steps if s.phase == "prereq"]
        + [s for s in steps if s.phase == "network"]
        + [s for s in steps if s.phase == "filer"]
    )
    name = filer_file(f)
    return {
        name: commands_text(f, ordered, f"{FAMILY_LABELS[f.family]} commands for {f.filer_host}.")
    }

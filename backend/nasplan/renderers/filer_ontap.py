"""filer/ for clustered ONTAP (and FSx for ONTAP): CLI commands and their rollback."""

from __future__ import annotations

from collections import defaultdict

from nasplan.renderers.common import Facts
from nasplan.renderers.filer_ansible_common import filer_playbook_applies
from nasplan.renderers.filer_cloud_steps import fsx_volume_steps
from nasplan.renderers.filer_common import (
    EXPORT_NOTE,
    SNAPSHOT_RISK,
    STORAGE,
    SVM_ROOT,
    policy_name,
    reserve_option,
    volume_size,
)
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


def cluster_steps(f: Facts) -> list[Step]:
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
        policies.setdefault(policy_name(f, v.role), []).append(v.name)
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
    if f.family == "fsxn":
        steps += fsx_volume_steps(f)
    else:
        steps.append(_volume_step(f))
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
                risk=SNAPSHOT_RISK if s.mechanism == "ontap_snapshot_policy" else "",
            )
        )
    first = next((step for step in steps if step.phase == "filer"), None)
    if first is not None and filer_playbook_applies(f):
        first.notes.append(
            "The same filer phase as a netapp.ontap playbook: ansible/filer.yml (dry run "
            "ansible-playbook -i INVENTORY ansible/filer.yml --check --diff, then without "
            "--check). Use it or these commands, not both."
            + (
                " On FSx for ONTAP run it once the FSx API has made the volumes (the Terraform "
                "step below): it attaches their export policies."
                if f.family == "fsxn"
                else ""
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


def _volume_step(f: Facts) -> Step:
    plan = f.plan
    vserver = svm(f)
    return Step(
        phase="filer",
        who=STORAGE,
        title="Volumes with their junction paths (skip any that exist)",
        commands=[
            f"volume create -vserver {vserver} -volume {v.name} -aggregate {aggregate(f)} "
            f"-size {volume_size(v)} -junction-path {v.export} -security-style unix "
            f"-policy {policy_name(f, v.role)}{reserve_option(v)}"
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
                f"-policy {policy_name(f, v.role)}"
                for v in plan.volumes
            )
            + "."
        ],
    )


def _domain_ports(f: Facts) -> str:
    return (
        f"network port broadcast-domain show -broadcast-domain {broadcast_domain(f)} "
        "-fields ports,mtu"
    )


def cluster_rollback(f: Facts) -> list[Step]:
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
    for name in dict.fromkeys(policy_name(f, v.role) for v in f.plan.volumes):
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
                *(
                    [
                        "The same backout as a netapp.ontap playbook: "
                        "ansible/filer_rollback.yml, with the recorded values filled in (it "
                        f"refuses to run while a {RECORDED_VALUE} is left)."
                    ]
                    if filer_playbook_applies(f)
                    else []
                ),
            ],
        )
    ]

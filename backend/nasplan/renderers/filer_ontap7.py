"""filer/ for Data ONTAP 7-mode: console commands and their rollback."""

from __future__ import annotations

from nasplan.domain.plan import Setting
from nasplan.renderers.common import Facts, version_tuple
from nasplan.renderers.filer_common import (
    EXPORT_NOTE,
    SNAPSHOT_RISK,
    SNAPSHOT_SCHEDULE_KEYS,
    STORAGE,
    volume_size,
)
from nasplan.renderers.handover import (
    RECORDED_VALUE,
    aggregate,
    export_clients,
    filer_interfaces,
)
from nasplan.renderers.steps import Step


def ontap7_steps(f: Facts) -> list[Step]:
    plan = f.plan
    steps: list[Step] = []
    vols = [v.name for v in plan.volumes]
    record = ["options nfs", *(f"vol options {v}" for v in vols), "exportfs", "rdfile /etc/exports"]
    mtu = f.settings("ontap7_interface")
    if mtu:
        record += [*(f"ifconfig {i}" for i in filer_interfaces(f)), "rdfile /etc/rc"]
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
                risk=SNAPSHOT_RISK if s.key in SNAPSHOT_SCHEDULE_KEYS else "",
            )
        )
    for s in mtu:
        steps += [_mtu_step(s, interface) for interface in filer_interfaces(f)]
    return steps


def _mtu_step(s: Setting, interface: str) -> Step:
    return Step(
        phase="network",
        who=STORAGE,
        title=f"MTU {s.value} on the filer interface {interface}",
        commands=[f"ifconfig {interface} mtusize {s.value}"],
        rules=s.rules,
        expect=f"`ifconfig {interface}` shows mtusize {s.value}.",
        requires=s.requires,
        risk="High: until every hop passes jumbo frames, NFS I/O over this interface can stall.",
        notes=[
            f"Make it persistent: add mtusize {s.value} to the ifconfig line for {interface} "
            "in the filer's /etc/rc (show it with rdfile /etc/rc), or the setting is lost at the "
            "next boot."
        ],
    )


def ontap7_rollback(f: Facts) -> list[Step]:
    steps: list[Step] = []
    commands: list[str] = []
    for s in f.settings("ontap7_vol_option"):
        commands += [f"vol options {v} {s.key} {RECORDED_VALUE}" for v in s.applies_to]
    for s in f.settings("ontap7_option"):
        commands.append(f"options {s.key} {RECORDED_VALUE}")
    if f.settings("ontap7_interface"):
        commands += [f"ifconfig {i} mtusize {RECORDED_VALUE}" for i in filer_interfaces(f)]
    commands += [f"exportfs -p {RECORDED_VALUE} {v.export}" for v in f.plan.volumes]
    steps.append(
        Step(
            phase="rollback",
            who=STORAGE,
            title="Filer: put back the recorded values and exports",
            commands=commands,
            rules=list(
                dict.fromkeys(r for s in f.plan.settings if s.target == "filer" for r in s.rules)
            ),
            expect="`options nfs` and `vol options` on each volume show the values recorded in "
            "phase 1.",
            requires="remount",
            notes=[
                f"Replace each {RECORDED_VALUE} with the value in the output saved in phase 1.",
                "For an export, RECORDED_VALUE is its options as the saved exportfs output "
                "shows them (rw=...,root=...). A path that output does not list was exported "
                "by this change: withdraw it instead with exportfs -z PATH, which also removes "
                "it from /etc/exports. The hosts have unmounted by now (the host step comes "
                "first). Volumes and data are never removed by nasplan.",
                "If mtusize was added to /etc/rc, remove it there too.",
            ],
        )
    )
    return steps

"""The runbook's backout, by what the change did to the database.

For a migration it puts the parameters back, stops the database, switches Direct NFS off,
points the database back at its original files, unmounts and reverts the host, and starts the
database there (service restored) before the filer and switch values go back. For a new build
nothing was in service: it stops the new database if one was created, and removes what the
change added.
"""

from __future__ import annotations

from nasplan.renderers.common import Facts, rules_of
from nasplan.renderers.filer import filer_rollback_steps
from nasplan.renderers.oracle import before_pfile, dnfs_enabled, oranfstab_planned
from nasplan.renderers.outage import outage_steps, shared_home
from nasplan.renderers.runbook_change import (
    CLUSTERWARE_DOC,
    DBA,
    FILES_SQL,
    mount_point_of,
    restart_rules,
)
from nasplan.renderers.steps import Step, strongest

UNIX = "Unix administrator"
NETWORK = "network administrator"


def rollback_steps(f: Facts) -> list[Step]:
    steps = _new_build_backout(f) if f.change_kind == "new_build" else _migration_backout(f)
    steps += filer_rollback_steps(f)
    for s in f.plan.settings:
        if s.mechanism == "switch_port":
            steps.append(
                Step(
                    phase="rollback",
                    who=NETWORK,
                    title=f"Switches: {s.key} back to the recorded value",
                    rules=s.rules,
                    expect="Only after the host and filer interfaces are back to their MTU.",
                    requires=s.requires,
                    manual=True,
                )
            )
    return steps


def _unlink_step(f: Facts) -> list[Step]:
    if not (oranfstab_planned(f) or dnfs_enabled(f)):
        return []
    return [
        Step(
            phase="rollback",
            who=DBA,
            title="Oracle: Direct NFS off and oranfstab back as they were",
            commands=["rollback/oracle_rollback.sh --apply"],
            file="rollback/oracle_rollback.sh",
            rules=rules_of(s for s in f.plan.settings if s.target == "oracle"),
            expect="The script reports the home relinked for kernel NFS.",
            requires="instance_restart",
            notes=["Run it on every node: each has its own Oracle home."]
            if f.rac and not shared_home(f)
            else [],
        )
    ]


def _host_rollback_step(f: Facts) -> Step:
    points = sorted((m.mount_point for m in f.plan.mounts), reverse=True)
    crs = mount_point_of(f, "crs")
    return Step(
        phase="rollback",
        who=UNIX,
        title="Host: unmount, then mount entries, kernel, TCP and NIC settings back",
        commands=[
            *(f"umount {p}" for p in points),
            "rollback/host_rollback.sh",
            "rollback/host_rollback.sh --apply",
        ],
        file="rollback/host_rollback.sh",
        rules=rules_of([*f.plan.mounts, *(s for s in f.plan.settings if s.target == "host")]),
        notes=[
            "The database is down here: nothing may hold a file open on these mounts (the "
            "script never unmounts; umount answers busy while something does)."
            + (" Run this on every node." if f.rac else ""),
            *(
                [
                    f"If the OCR and voting files were moved onto {crs[0]}, Clusterware holds "
                    "them: move them back with its own tools before unmounting "
                    f"({CLUSTERWARE_DOC})."
                ]
                if crs
                else []
            ),
        ],
        expect="The dry run lists what it will undo; afterwards the nasplan lines are gone "
        "and the saved values are back.",
        requires=strongest(
            [s.requires for s in f.plan.settings if s.target == "host"] + ["remount"]
        ),
    )


def _home_back_note(f: Facts) -> list[str]:
    """The host step unmounts the home volume before the database starts again: the database
    must start from the home it ran from before the change, not from the filer."""
    home = mount_point_of(f, "oracle_home")
    if not home:
        return []
    registration = " and its registration in Clusterware" if f.rac else ""
    return [
        f"If the database ran from the Oracle home on {home[0]} after the move, set it back "
        f"to the Oracle home it ran from before (its environment{registration}) now: the host "
        f"step below unmounts {home[0]}, and the database starts again from the original home."
    ]


def _migration_backout(f: Facts) -> list[Step]:
    steps = [
        Step(
            phase="rollback",
            who=DBA,
            title="Oracle: parameters back as they were (server parameter file)",
            commands=["sqlplus / as sysdba @rollback/oracle_rollback.sql"],
            file="rollback/oracle_rollback.sql",
            rules=rules_of(s for s in f.plan.settings if s.target == "oracle"),
            notes=[
                "Needs a running instance: if the database is already down, STARTUP NOMOUNT first.",
                "If the outage of phase 5 never began, the database still runs on its own "
                "files: run this step only if the parameters were changed, leave the database "
                "up, and go on with the host step (its unmounts touch nothing the database "
                "uses); the parameters apply at its next restart.",
            ],
            expect="Each statement answers System altered; the values apply from the start below.",
            requires="instance_restart",
            language="sql",
        )
    ]
    back = Step(
        phase="rollback",
        who=DBA,
        title="Point the database back at its original files (not scripted)",
        notes=[
            "The reverse of the move: control_files as in the copy of phase 1 "
            f"({before_pfile(f)}), each datafile and redo log renamed back, with the database "
            "mounted and not open.",
            "Changes made after the database opened on the new volumes are not in the original "
            "files: carry them back first, or accept their loss with the change owner.",
            *_home_back_note(f),
        ],
        commands=[FILES_SQL],
        expect="With the database mounted, the query above lists only the original paths.",
        requires="instance_restart",
        risk="High: the database's own files change again.",
        manual=True,
        language="sql",
    )
    outage = outage_steps(
        f,
        "rollback",
        [*_unlink_step(f), back, _host_rollback_step(f)],
        restart_rules(f),
        "The instance opens on its original files: the service is back.",
        whole=True,
    )
    return steps + outage


def _new_build_backout(f: Facts) -> list[Step]:
    return [
        Step(
            phase="rollback",
            who=DBA,
            title="Stop the new database, if one was created (nothing was in service)",
            notes=[
                "A new build has no earlier service to restore: the backout stops what the "
                "change started and takes back what it added. Dropping a database created "
                "on the volumes is the DBA's decision and is not scripted."
            ],
            expect="No instance runs from the mounts: the mounts can be unmounted.",
            requires="none",
            risk="Low: nothing was in service on these volumes.",
            manual=True,
        ),
        *_unlink_step(f),
        _host_rollback_step(f),
    ]

"""The Oracle phase and the backout, by what the change does to the database.

- **migration** (also when the design does not say): the database runs today on other
  storage. Its parameters go into the server parameter file while it runs; the outage stops
  it, the DBA copies its files onto the mounts and points it at them (nasplan does not script
  the move), Direct NFS is switched on, and the database starts on the new volumes: the point
  of no return. Every instance opens the files that move, so RAC stops as a whole; with a
  local home per node the Direct NFS relink rolls node by node before the outage instead.
- **new_build**: no database runs yet. The software goes on, Direct NFS is switched on in its
  home, and the database is created with the plan's parameters; nothing is stopped.

The backout follows the same split. For a migration it puts the parameters back, stops the
database, switches Direct NFS off, points the database back at its original files, unmounts
and reverts the host, and starts the database there (service restored) before the filer and
switch values go back. For a new build nothing was in service: it stops the new database if
one was created, and removes what the change added.
"""

from __future__ import annotations

from nasplan.domain.plan import Setting
from nasplan.renderers.common import Facts, rules_of
from nasplan.renderers.filer import filer_rollback_steps
from nasplan.renderers.oracle import before_pfile, dnfs_enabled, init_params, oranfstab_planned
from nasplan.renderers.outage import outage_steps, shared_home
from nasplan.renderers.runbook_steps import setting_notes
from nasplan.renderers.steps import Step, strongest

UNIX = "Unix administrator"
NETWORK = "network administrator"
DBA = "DBA"

# Oracle's documents for the steps nasplan names but does not script.
RENAME_DOC = (
    "Oracle Database Administrator's Guide 11g Release 1 (B28310), Renaming and Relocating "
    "Datafiles"
)
CLUSTERWARE_DOC = (
    "Oracle Clusterware Administration and Deployment Guide, Managing Oracle Cluster Registry "
    "and Voting Files"
)
_FILES_SQL = (
    "SELECT name FROM v$datafile UNION ALL SELECT member FROM v$logfile "
    "UNION ALL SELECT name FROM v$controlfile;"
)


def mount_point_of(f: Facts, *roles: str) -> list[str]:
    return [m.mount_point for m in f.plan.mounts if set(roles) & set(m.serves)]


def _where_files_go(f: Facts) -> list[str]:
    lines = []
    for label, roles in (
        ("datafiles", ("data",)),
        ("online redo logs", ("redo",)),
        ("control files", ("control",)),
        ("archived redo logs", ("archive",)),
    ):
        points = mount_point_of(f, *roles)
        if points:
            lines.append(f"{label}: {', '.join(points)}")
    return lines


def scope_lines(f: Facts) -> list[str]:
    """What the change does and what it leaves to the teams, for the first page."""
    home = mount_point_of(f, "oracle_home")
    crs = mount_point_of(f, "crs")
    if f.change_kind == "new_build":
        lines = [
            f"New build: no database {f.db} runs yet. The change prepares the network, the "
            "filer volumes and exports, the host and its mounts; the database is created on "
            "them afterwards (phase 5).",
            "Out of scope, named as steps of their own and not scripted: installing the Oracle "
            "software"
            + (f" (on the home volume at {home[0]})" if home else "")
            + " and creating the database with the parameters of oracle/init.ora.add.",
        ]
        if crs:
            lines.append(
                f"Grid Infrastructure is installed with its OCR and voting files on {crs[0]}."
            )
        return lines
    assumed = (
        ""
        if f.handover.change_kind
        else " (assumed: the design does not say; answer handover.change_kind)"
    )
    lines = [
        f"Migration{assumed}: the database {f.db} runs today on other storage and moves onto "
        "the volumes this change creates, inside the outage of phase 5.",
        "Out of scope, named as a step of its own and not scripted: moving the files (the "
        "DBA's own method, rehearsed beforehand; the step says where each kind of file goes).",
        "Every mount point must be an empty directory when phase 4 runs: host/mounts.sh stops "
        "rather than mount over files, so the new paths must not be the ones the database "
        "uses today.",
    ]
    if home:
        lines.append(
            f"The Oracle home volume mounts at {home[0]}: putting the software on it (a new "
            "installation or a copy of the current home) is outside this change, and the "
            "current home must not be in that directory when phase 4 runs."
        )
    if crs:
        lines.append(
            f"Moving the OCR and voting files onto {crs[0]} is outside this change: "
            f"Clusterware's own tools do it ({CLUSTERWARE_DOC})."
        )
    return lines


def _params_step(f: Facts, params: list[Setting]) -> Step:
    return Step(
        phase="oracle",
        who=DBA,
        title="Initialization parameters",
        commands=["sqlplus / as sysdba @oracle/alter_system.sql"],
        file="oracle/alter_system.sql",
        rules=rules_of(params),
        notes=[
            *setting_notes(f, ("init_ora",), "oracle"),
            "oracle/init.ora.add has the same values for a text parameter file.",
        ],
        expect="Each statement answers System altered.",
        requires=strongest([s.requires for s in params]),
        language="sql",
    )


def _oranfstab_step(f: Facts) -> Step:
    return Step(
        phase="oracle",
        who=DBA,
        title="Direct NFS: oranfstab",
        commands=["oracle/install_oranfstab.sh --apply"],
        file="oracle/install_oranfstab.sh",
        rules=rules_of(
            s for s in f.plan.settings if s.mechanism == "dnfs" and s.key == "oranfstab"
        ),
        expect="The script reports the file installed (or ok on a second run).",
        requires="instance_restart",
    )


def _relink_step(f: Facts, down: str) -> Step:
    return Step(
        phase="oracle",
        who=DBA,
        title="Direct NFS: switch it on in the Oracle home",
        commands=["oracle/enable_dnfs.sh --apply"],
        file="oracle/enable_dnfs.sh",
        rules=rules_of(s for s in f.plan.settings if s.mechanism == "dnfs" and s.key == "dnfs"),
        expect="make ends without errors.",
        requires="instance_restart",
        notes=[down],
    )


def _move_step(f: Facts) -> Step:
    return Step(
        phase="oracle",
        who=DBA,
        title="Move the database's files onto the NFS mounts (not scripted)",
        commands=[_FILES_SQL],
        rules=rules_of(m for m in f.plan.mounts if {"data", "redo", "control"} & set(m.serves)),
        notes=[
            "Where each kind of file goes: " + "; ".join(_where_files_go(f)) + ".",
            "Copy the files rather than move them: the originals, untouched, are what the "
            "backout returns to.",
            "Then point the database at the copies, with the database mounted and not open: "
            "control_files in the parameter file, each datafile and redo log renamed with "
            f"ALTER DATABASE RENAME FILE ({RENAME_DOC}), or image copies taken beforehand with "
            "RMAN switched in.",
            "Rehearse the move on a copy beforehand and write its duration in the timeline: "
            "it is most of the outage.",
        ],
        expect="With the database mounted, the query above lists only paths under the mount "
        "points.",
        requires="instance_restart",
        risk="High: the database's own files move; keep the originals until the database has "
        "run on the copies and the change is signed off.",
        manual=True,
        language="sql",
    )


def _restart_rules(f: Facts) -> list[str]:
    return rules_of(
        s for s in f.plan.settings if s.target == "oracle" and s.requires == "instance_restart"
    )


def _expect_open(f: Facts) -> str:
    return (
        "The instance opens; the alert log names the Direct NFS servers."
        if dnfs_enabled(f)
        else "The instance opens."
    )


def oracle_steps(f: Facts) -> list[Step]:
    if f.change_kind == "new_build":
        return _new_build_steps(f)
    steps: list[Step] = []
    params = init_params(f)
    if params:
        steps.append(_params_step(f, params))
    if oranfstab_planned(f):
        steps.append(_oranfstab_step(f))
    relink = (
        [
            _relink_step(
                f,
                "Every instance that uses this Oracle home is down here"
                + (" (the home is shared by every node)." if shared_home(f) else "."),
            )
        ]
        if dnfs_enabled(f)
        else []
    )
    if f.rac and not shared_home(f) and relink:
        # Each node's own home relinks while the others serve; the move then needs them all down.
        steps += outage_steps(f, "oracle", relink, [], "The instance opens.")
        relink = []
    outage = outage_steps(
        f, "oracle", [_move_step(f), *relink], _restart_rules(f), _expect_open(f), whole=True
    )
    for step in outage:
        if step.outage == "start":
            step.no_return = True
            step.risk = (
                "High: the point of no return. The database opens on the new volumes and "
                "takes changes the original files do not have; decide the go here."
            )
    return steps + outage


def _new_build_steps(f: Facts) -> list[Step]:
    home = mount_point_of(f, "oracle_home")
    crs = mount_point_of(f, "crs")
    steps = [
        Step(
            phase="oracle",
            who=DBA,
            title="Install the Oracle software (not scripted)",
            notes=[
                *(
                    [f"Grid Infrastructure first, with its OCR and voting files on {crs[0]}."]
                    if crs
                    else []
                ),
                f"The database software goes into the home volume mounted at {home[0]}."
                if home
                else "The database software goes into the Oracle home on local disk.",
            ],
            expect="The installer ends without errors and the Oracle home is in its inventory.",
            requires="none",
            risk="Low: nothing is in service on these volumes yet.",
            manual=True,
        )
    ]
    if oranfstab_planned(f):
        steps.append(_oranfstab_step(f))
    if dnfs_enabled(f):
        steps.append(_relink_step(f, "No instance runs from this home yet."))
    steps.append(
        Step(
            phase="oracle",
            who=DBA,
            title="Create the database on the mounts (not scripted)",
            commands=[_FILES_SQL],
            rules=rules_of(init_params(f)),
            notes=[
                "With the parameters of oracle/init.ora.add (in the creation assistant's "
                "template or the parameter file of CREATE DATABASE).",
                "Where each kind of file goes: " + "; ".join(_where_files_go(f)) + ".",
            ],
            expect="The database opens and the query above lists only paths under the mount "
            "points. " + ("The alert log names the Direct NFS servers." if dnfs_enabled(f) else ""),
            requires="none",
            risk="Low: nothing is in service on these volumes yet.",
            manual=True,
            language="sql",
        )
    )
    return steps


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
        ],
        commands=[_FILES_SQL],
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
        _restart_rules(f),
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

"""The Oracle phase of the runbook, by what the change does to the database.

- **migration** (also when the design does not say): the database runs today on other
  storage. Its parameters go into the server parameter file while it runs; the outage stops
  it, the DBA copies its files onto the mounts and points it at them (nasplan does not script
  the move), Direct NFS is switched on, and the database starts on the new volumes: the point
  of no return. Every instance opens the files that move, so RAC stops as a whole; with a
  local home per node the Direct NFS relink rolls node by node before the outage instead.
- **new_build**: no database runs yet. The software goes on, Direct NFS is switched on in its
  home, and the database is created with the plan's parameters; nothing is stopped.
"""

from __future__ import annotations

from nasplan.domain.plan import Setting
from nasplan.renderers.common import Facts, rules_of
from nasplan.renderers.oracle import dnfs_enabled, init_params, oranfstab_planned
from nasplan.renderers.outage import outage_steps, shared_home
from nasplan.renderers.runbook_change import (
    DBA,
    FILES_SQL,
    mount_point_of,
    restart_rules,
    where_files_go,
)
from nasplan.renderers.runbook_steps import setting_notes
from nasplan.renderers.steps import Step, strongest

# Oracle's document for the step nasplan names but does not script.
RENAME_DOC = (
    "Oracle Database Administrator's Guide 11g Release 1 (B28310), Renaming and Relocating "
    "Datafiles"
)


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
        commands=[FILES_SQL],
        rules=rules_of(m for m in f.plan.mounts if {"data", "redo", "control"} & set(m.serves)),
        notes=[
            "Where each kind of file goes: " + "; ".join(where_files_go(f)) + ".",
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
        f, "oracle", [_move_step(f), *relink], restart_rules(f), _expect_open(f), whole=True
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
            commands=[FILES_SQL],
            rules=rules_of(init_params(f)),
            notes=[
                "With the parameters of oracle/init.ora.add (in the creation assistant's "
                "template or the parameter file of CREATE DATABASE).",
                "Where each kind of file goes: " + "; ".join(where_files_go(f)) + ".",
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

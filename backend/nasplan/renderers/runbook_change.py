"""The change by its kind, and what its Oracle phase and backout share.

- **migration** (also when the design does not say): the database runs today on other
  storage and moves onto the volumes the change creates, inside the outage of phase 5.
- **new_build**: no database runs yet; it is created on the volumes afterwards.

scope_lines says which, and what the change leaves to the teams, on the runbook's first page.
The Oracle phase (runbook_oracle) and the backout (runbook_backout) read the rest: where each
kind of database file goes, the query that lists them, and the rules that need a restart.
"""

from __future__ import annotations

from nasplan.renderers.common import Facts, rules_of

DBA = "DBA"

# Oracle's document for moving the OCR and voting files, which nasplan names but does not script.
CLUSTERWARE_DOC = (
    "Oracle Clusterware Administration and Deployment Guide, Managing Oracle Cluster Registry "
    "and Voting Files"
)
# Lists the database's files: where they are before a move and after it, or after a creation.
FILES_SQL = (
    "SELECT name FROM v$datafile UNION ALL SELECT member FROM v$logfile "
    "UNION ALL SELECT name FROM v$controlfile;"
)


def mount_point_of(f: Facts, *roles: str) -> list[str]:
    return [m.mount_point for m in f.plan.mounts if set(roles) & set(m.serves)]


def where_files_go(f: Facts) -> list[str]:
    """Each kind of database file and the mount points it goes on."""
    lines = []
    for label, roles in (
        ("datafiles", ("data",)),
        ("online redo logs", ("redo",)),
        ("control files", ("control",)),
        ("archived redo logs", ("archive",)),
    ):
        points = mount_point_of(f, *roles)
        if len(points) > 1 and roles == ("data",):
            # engine/path_spread: one data volume per storage path.
            lines.append(f"{label}: spread evenly over {', '.join(points)} (one per path)")
        elif points:
            lines.append(f"{label}: {', '.join(points)}")
    return lines


def restart_rules(f: Facts) -> list[str]:
    """The rules of the Oracle settings that apply when the database restarts."""
    return rules_of(
        s for s in f.plan.settings if s.target == "oracle" and s.requires == "instance_restart"
    )


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

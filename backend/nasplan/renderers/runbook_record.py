"""The runbook's change record and timeline, read from its phases: the blanks the change
owner fills in, where the database is down, the point of no return, and per phase who works
in it and what the database does meanwhile."""

from __future__ import annotations

from nasplan.renderers.runbook_steps import ALL
from nasplan.renderers.runbook_view import PhaseView

BLANK = "________________"


def _downtime(phases: list[PhaseView], rac: bool) -> str:
    """Where the database is down, from the steps that stop and start it."""
    spans = []
    for phase in phases:
        label = "backout" if phase.key == "rollback" else "change"
        stops = [s for s in phase.steps if s.outage == "stop"]
        starts = [s for s in phase.steps if s.outage == "start"]
        rolling = [s.number for s in phase.steps if s.outage == "rolling"]
        spans += [f"{label}: one instance at a time in step {n} (rolling)" for n in rolling]
        spans += [
            f"{label}: the host reboots in step {s.number}, and every instance on it stops"
            for s in phase.steps
            if s.reboot
        ]
        if stops and starts:
            whole = "every instance" if rac else "the instance"
            spans.append(
                f"{label}: {whole} down from step {stops[0].number} to step {starts[-1].number}"
            )
    return "; ".join(spans) or "none: no step stops a database"


def _database_during(phase: PhaseView) -> str:
    stops = [s for s in phase.steps if s.outage == "stop"]
    starts = [s for s in phase.steps if s.outage == "start"]
    rolling = [s for s in phase.steps if s.outage == "rolling"]
    parts = []
    if rolling:
        parts.append(f"one instance at a time down in step {rolling[0].number}")
    parts += [f"down with the host's reboot in step {s.number}" for s in phase.steps if s.reboot]
    if stops and starts:
        parts.append(f"down from step {stops[0].number} to step {starts[-1].number}")
    return "; ".join(parts) or "not stopped by any step"


# The teams in the order the phases meet them; a step for every team names them all.
TEAMS = ("network administrator", "storage administrator", "Unix administrator", "DBA")


def _teams(phase: PhaseView) -> str:
    named: set[str] = set()
    for step in phase.steps:
        named |= set(TEAMS) if ALL in step.who else {t for t in TEAMS if t in step.who}
    owner = any(s.who.startswith("change owner") for s in phase.steps)
    return ", ".join([t for t in TEAMS if t in named] + (["change owner"] if owner else []))


def phase_timeline(phases: list[PhaseView]) -> list[tuple[str, str, str]]:
    return [
        (f"{phase.number}. {phase.title}", _teams(phase), _database_during(phase))
        for phase in phases
    ]


def _no_return(phases: list[PhaseView]) -> str:
    for phase in phases:
        for step in phase.steps:
            if step.no_return:
                return (
                    f"step {step.number}: the database opens on the new volumes; a backout "
                    "after it loses what changed since, unless carried back"
                )
    return "none: nothing was in service on the volumes before the change"


def change_record(phases: list[PhaseView], rac: bool) -> list[tuple[str, str]]:
    backout = next(p for p in phases if p.key == "rollback")
    return [
        ("Change number", BLANK),
        ("Window", f"from {BLANK} to {BLANK}"),
        ("Database outage", _downtime(phases, rac)),
        ("Point of no return", _no_return(phases)),
        (
            "Back out when",
            f"a step's result is not as expected and cannot be put right within the window, "
            f"or a FAIL in phase 6; decided by {BLANK} (phase {backout.number} is the backout)",
        ),
        ("Backout takes", f"{BLANK} (rehearsed; it must fit in what is left of the window)"),
        ("Communications", f"users told before: {BLANK}; after: {BLANK}"),
        (
            "Files",
            "the review status above and README.md give the bundle's sha256, the digest of "
            "MANIFEST.sha256, which covers this runbook (all but its review lines) and every file "
            "run: check them with sh verify/check_bundle.sh before phase 1",
        ),
    ]

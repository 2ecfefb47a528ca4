"""The database outage the Oracle phase needs, and its steps in a safe order.

A relink (Direct NFS on or off) needs every instance of the Oracle home down; static parameters
need a restart. The kind of outage follows from the platform:

- single instance: ``SHUTDOWN IMMEDIATE``, the work, ``STARTUP``;
- RAC with the Oracle home on the filer (shared by every node): a full outage, the whole
  database stopped, the work once, the database started;
- RAC with local homes: rolling, one node at a time (stop its instance, relink its home, start
  it) while the other instances serve.

From Oracle 12.1 the RAC steps use ``srvctl`` with the long options of Oracle's SRVCTL command
reference (RAC Administration and Deployment Guide 12c Release 1, appendix A: ``srvctl stop
database -db``, ``srvctl stop instance -db ... -node``); before 12.1 nasplan has no cited
``srvctl`` syntax and gives the SQL*Plus commands to run on each node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nasplan.renderers.common import Facts, version_tuple
from nasplan.renderers.handover import nodes
from nasplan.renderers.steps import Phase, Step

DBA = "DBA"
OutageKind = Literal["none", "single_instance", "full", "rolling"]


@dataclass(frozen=True)
class Outage:
    kind: OutageKind
    srvctl: bool


def uses_srvctl(f: Facts) -> bool:
    return version_tuple(f.plan.platform.oracle.version)[:2] >= (12, 1)


def shared_home(f: Facts) -> bool:
    return f.rac and f.plan.platform.layout.oracle_home == "nas"


def outage_of(f: Facts, needed: bool, whole: bool = False) -> Outage:
    """``whole``: the work touches files every instance opens (the database's own files), so
    RAC stops as a whole even where each node has its own home."""
    if not needed:
        return Outage("none", False)
    if not f.rac:
        return Outage("single_instance", False)
    return Outage("full" if whole or shared_home(f) else "rolling", uses_srvctl(f))


def outage_steps(
    f: Facts,
    phase: Phase,
    work: list[Step],
    rules: list[str],
    expect_open: str,
    whole: bool = False,
) -> list[Step]:
    """``work`` (steps that need the instances down) wrapped in the stop and start the platform
    needs; nothing to wrap gives nothing."""
    outage = outage_of(f, bool(work) or bool(rules), whole)
    if outage.kind == "none":
        return []
    if outage.kind == "rolling":
        return [_rolling(f, phase, work, rules, outage.srvctl, expect_open)]
    return [_stop(f, phase, outage, rules), *work, _start(f, phase, outage, rules, expect_open)]


def _stop(f: Facts, phase: Phase, outage: Outage, rules: list[str]) -> Step:
    if outage.kind == "full" and outage.srvctl:
        commands = [
            f"srvctl stop database -db {f.db} -stopoption IMMEDIATE",
            f"srvctl status database -db {f.db}",
        ]
        expect = "srvctl status database reports every instance not running."
        language = "shell"
    else:
        commands = ["SHUTDOWN IMMEDIATE"]
        expect = "ORACLE instance shut down" + (
            ", on every node: run it on each of " + ", ".join(nodes(f)) if f.rac else "."
        )
        language = "sql"
    return Step(
        phase=phase,
        who=DBA,
        title="Stop the database" + (" on every node (full outage)" if f.rac else ""),
        outage="stop",
        commands=commands,
        rules=rules,
        expect=expect,
        requires="instance_restart",
        risk="Medium: the outage starts here"
        + (
            ": the Oracle home is shared by every node."
            if shared_home(f)
            else ": every instance opens the files that change."
            if f.rac
            else "."
        ),
        language=language,
        notes=_name_note(f, outage),
    )


def _start(f: Facts, phase: Phase, outage: Outage, rules: list[str], expect_open: str) -> Step:
    if outage.kind == "full" and outage.srvctl:
        commands = [f"srvctl start database -db {f.db}", f"srvctl status database -db {f.db}"]
        expect = "srvctl status database reports every instance running. " + expect_open
        language = "shell"
    else:
        commands = ["STARTUP"]
        expect = expect_open + (" Run it on every node." if f.rac else "")
        language = "sql"
    return Step(
        phase=phase,
        who=DBA,
        title="Start the database" + (" on every node" if f.rac else ""),
        outage="start",
        commands=commands,
        rules=rules,
        expect=expect,
        requires="instance_restart",
        risk="Low: the outage ends here.",
        language=language,
        notes=_name_note(f, outage),
    )


def _rolling(
    f: Facts, phase: Phase, work: list[Step], rules: list[str], srvctl: bool, expect_open: str
) -> Step:
    commands: list[str] = []
    for node in nodes(f):
        commands.append(f"# ---- {node}: the other instances keep serving")
        commands.append(
            f"srvctl stop instance -db {f.db} -node {node} -stopoption IMMEDIATE"
            if srvctl
            else f"# on {node}, in SQL*Plus as SYSDBA: SHUTDOWN IMMEDIATE"
        )
        commands += [f"{c}   # on {node}" for step in work for c in step.commands]
        commands.append(
            f"srvctl start instance -db {f.db} -node {node}"
            if srvctl
            else f"# on {node}, in SQL*Plus as SYSDBA: STARTUP"
        )
        if srvctl:
            commands.append(f"srvctl status database -db {f.db}")
    notes = [
        "Each node has its own Oracle home, so the change rolls: one instance is down at a "
        "time. Move its services to the running instances first if they are not set to fail "
        "over.",
        *(n for step in work for n in step.notes),
        *_name_note(f, Outage("rolling", srvctl)),
    ]
    return Step(
        phase=phase,
        who=DBA,
        title="Node by node: stop the instance"
        + (", relink its Oracle home" if work else "")
        + ", start it",
        commands=commands,
        file=work[0].file if work else None,
        rules=list(dict.fromkeys([*rules, *(r for step in work for r in step.rules)])),
        expect=f"On each node in turn: {expect_open} srvctl status database shows every "
        "instance running again before the next node."
        if srvctl
        else f"On each node in turn: {expect_open}",
        requires="instance_restart",
        risk="Medium: one instance at a time is down; the database stays open.",
        outage="rolling",
        language="shell",
        notes=notes,
    )


def _name_note(f: Facts, outage: Outage) -> list[str]:
    if not outage.srvctl:
        return []
    return [
        f"srvctl takes the database's unique name (DB_UNIQUE_NAME); this plan assumes it is "
        f"{f.db}, the DB_NAME. Node names: {', '.join(nodes(f))}."
    ]

"""The runbook's own steps, phase by phase: prerequisites, network, host, Oracle, verification
and rollback (the filer's steps come from ``filer.py``). Each returns ``Step``s in the order they
are carried out; ``runbook.py`` numbers them and renders the document."""

from __future__ import annotations

from nasplan.renderers.common import Facts, rules_of
from nasplan.renderers.filer import filer_steps
from nasplan.renderers.filer_common import STORAGE
from nasplan.renderers.handover import filer_targets
from nasplan.renderers.host_nic import nic_notes
from nasplan.renderers.oracle import init_params
from nasplan.renderers.steps import Step, strongest

UNIX = "Unix administrator"
NETWORK = "network administrator"
DBA = "DBA"
ALL = "every team"


def setting_notes(f: Facts, mechanisms: tuple[str, ...], target: str = "host") -> list[str]:
    notes = []
    for s in f.plan.settings:
        if s.mechanism in mechanisms and s.target == target:
            where = f" in {s.scope}" if s.scope else ""
            what = f"unset {s.key}" if s.action == "unset" else f"{s.key} = {s.value}"
            more = " or more (a larger value the host has is kept)" if s.at_least else ""
            notes.append(f"{what}{more}{where} ({', '.join(s.rules)})")
    return notes


def _requires(f: Facts, mechanisms: tuple[str, ...]) -> str:
    return strongest([s.requires for s in f.plan.settings if s.mechanism in mechanisms])


def prereq_steps(f: Facts, placeholders: list[str]) -> list[Step]:
    plan = f.plan
    steps: list[Step] = []
    errors = [x for x in plan.findings if x.severity == "error"]
    warnings = [x for x in plan.findings if x.severity == "warning"]
    steps.append(
        Step(
            phase="prereq",
            who=ALL,
            title="Read the plan's errors and warnings",
            rules=list(dict.fromkeys([x.rule for x in errors + warnings])),
            notes=[f"{x.severity.upper()}: {x.message} ({x.rule})" for x in errors + warnings]
            or ["The plan has no errors or warnings."],
            expect="No error findings: with an error the scripts refuse --apply."
            if not errors
            else "Correct the platform and generate the bundle again: do not apply this one.",
            requires="none",
            risk="Do not go on: the plan has errors." if errors else "",
        )
    )
    if placeholders:
        steps.append(
            Step(
                phase="prereq",
                who=ALL,
                title="Fill in the values the design does not give",
                notes=placeholders,
                expect="No value in angle brackets is left in those files; the scripts refuse "
                "to use one.",
                requires="none",
                manual=True,
            )
        )
    steps += [s for s in filer_steps(f) if s.phase == "prereq"]
    commands = ["host/network.sh", "host/tuning.sh", "host/mounts.sh", "verify/verify_host.sh"]
    steps.append(
        Step(
            phase="prereq",
            who=UNIX,
            title="Dry runs and a baseline on the host",
            commands=commands,
            file="host/",
            expect="The dry runs print what they would change and change nothing; the FAIL "
            "lines of verify_host.sh are what this change is meant to fix.",
            requires="none",
        )
    )
    if f.change_kind == "migration":
        steps.append(
            Step(
                phase="prereq",
                who=DBA,
                title="Keep a copy of the database parameters",
                commands=["sqlplus / as sysdba @oracle/capture_before.sql"],
                file="oracle/capture_before.sql",
                rules=rules_of(init_params(f)),
                expect="A pfile copy of the current parameters, for rollback.",
                requires="none",
                language="sql",
            )
        )
    steps.append(_gate(f, placeholders))
    return steps


BACKUP_DOC = "Oracle Database Backup and Recovery Reference 10g Release 2 (B14194), LIST"


def _gate(f: Facts, placeholders: list[str]) -> Step:
    """The last step before the window opens: every condition the change rests on, checked."""
    gates = f.checks("host", "oracle", "filer", stage="before")
    commands: list[str] = []
    notes: list[str] = []
    if f.change_kind == "migration":
        commands += ["rman target /", "LIST BACKUP OF DATABASE SUMMARY;"]
        notes.append(
            "A backup of the database taken for this change, and known to restore: RMAN's "
            f"LIST BACKUP OF DATABASE SUMMARY shows it with its completion time ({BACKUP_DOC})."
        )
    for check in gates:
        commands.append(check.command)
        notes.append(f"{check.what}: {check.expect}")
    if gates and f.rac and f.plan.platform.layout.oracle_home != "nas":
        notes.append("Run the Oracle home checks on every node: each has its own home.")
    if placeholders:
        notes.append("No value is left in angle brackets in the files run (step 1.2).")
    notes.append("The dry runs on the host end without an error.")
    if f.change_kind == "migration":
        notes.append(
            "The move of the database's files has been rehearsed, and its duration and the "
            "backout's are written in the timeline."
        )
    return Step(
        phase="prereq",
        who=f"change owner, with {ALL}",
        title="Go/no-go: ready for the window",
        commands=commands,
        rules=rules_of(gates),
        notes=notes,
        expect="Every line above holds. One that does not is a no-go: the window does not open.",
        requires="none",
        risk="No-go if any line fails.",
        language="shell",
    )


def network_steps(f: Facts) -> list[Step]:
    steps: list[Step] = []
    for s in f.plan.settings:
        if s.mechanism == "switch_port":
            steps.append(
                Step(
                    phase="network",
                    who=NETWORK,
                    title=f"Switches: {s.key} {s.value} on {s.scope}",
                    rules=s.rules,
                    expect=f"Every switch port between host and filer passes {s.value}-byte "
                    "frames.",
                    requires=s.requires,
                    risk="High: one port left smaller drops the large frames, and NFS I/O stalls.",
                    manual=True,
                    notes=["Switch commands depend on the switch; nasplan does not script them."],
                )
            )
    steps += [s for s in filer_steps(f) if s.phase == "network"]
    nic = ("driver_conf", "driver_conf_entry", "aix_adapter", "interface")
    notes = setting_notes(f, nic) + nic_notes(f)
    if f.change_kind == "migration" and any(s.mechanism == "interface" for s in f.plan.settings):
        notes.append(
            "If the database reaches its present storage over this interface too (an older "
            "filer), make this change inside the outage of phase 5 instead: an MTU that some "
            "hop does not carry stalls the I/O already using the interface."
        )
    if notes:
        risky = any(s.mechanism == "interface" for s in f.plan.settings)
        steps.append(
            Step(
                phase="network",
                who=UNIX,
                title="Host NIC: driver settings and MTU",
                commands=["host/network.sh --apply"],
                file="host/network.sh",
                rules=rules_of(
                    s for s in f.plan.settings if s.mechanism in nic and s.target == "host"
                ),
                notes=notes,
                expect="The script ends with done; verify/verify_host.sh section 4 passes and "
                "its don't-fragment ping (where the plan has one) comes back.",
                requires=_requires(f, nic),  # type: ignore[arg-type]
                risk="High: if any hop does not pass jumbo frames, NFS I/O can hang."
                if risky
                else "",
            )
        )
    steps += _mtu_gate(f)
    return steps


def _mtu_gate(f: Facts) -> list[Step]:
    """Go/no-go before anything mounts over a new MTU: the plan's own path checks for the MTU
    setting, run once per storage path (one hop left at the old MTU hangs hard-mounted I/O)."""
    mtu = [s for s in f.plan.settings if s.target == "host" and s.key == "mtu"]
    if not mtu:
        return []
    rules = {r for s in mtu for r in s.rules}
    checks = [c for c in f.checks("host") if rules & set(c.rules)]
    targets = filer_targets(f)
    commands = [c.command.replace(f.filer_host, target) for c in checks for target in targets]
    return [
        Step(
            phase="network",
            who=UNIX,
            title="Go/no-go: every storage path carries the new MTU unfragmented",
            commands=commands,
            rules=sorted(rules),
            expect=checks[0].expect
            if checks
            else "Large frames cross every path (nasplan has no cited test command for this OS: "
            "use the switch and NIC counters).",
            requires="none",
            risk="No-go if any path fails: put the MTU back (phase 7) before anything mounts "
            "over it.",
            manual=not commands,
        )
    ]


def host_steps(f: Facts) -> list[Step]:
    tuning = ("etc_system", "ndd", "sysctl", "nfso", "no", "kctune", "hpux_ndd", "idmapd_conf")
    steps: list[Step] = []
    notes = setting_notes(f, tuning)
    if notes:
        steps.append(
            Step(
                phase="host",
                who=UNIX,
                title="Kernel and TCP settings",
                commands=["host/tuning.sh --apply"],
                file="host/tuning.sh",
                rules=rules_of(s for s in f.plan.settings if s.mechanism in tuning),
                notes=notes,
                expect="Each setting prints ok on a second run; verify/verify_host.sh sections "
                "2 and 3 pass (after the reboot where one is needed).",
                requires=_requires(f, tuning),  # type: ignore[arg-type]
            )
        )
    mounts = sorted(f.plan.mounts, key=lambda m: m.mount_point)
    steps.append(
        Step(
            phase="host",
            who=UNIX,
            title="Mount points and NFS mounts",
            commands=["host/mounts.sh --apply"],
            file="host/mounts.sh",
            rules=rules_of(mounts),
            notes=[f"{m.mount_point} from {m.export}: {','.join(m.options)}" for m in mounts]
            + (
                ["On Linux, ansible/site.yml does the same (use one or the other)."]
                if f.os == "linux"
                else []
            ),
            expect="Every mount point is mounted; verify/verify_host.sh section 1 passes.",
            requires="online",
            risk="Medium: adds entries to the mount table and mounts; it refuses to touch "
            "existing entries or to mount over files.",
        )
    )
    return steps


def verify_steps(f: Facts) -> list[Step]:
    steps = [
        Step(
            phase="verify",
            who=UNIX,
            title="Host checks",
            commands=["verify/verify_host.sh"],
            file="verify/verify_host.sh",
            rules=list(dict.fromkeys(r for c in f.checks("host") for r in c.rules)),
            notes=[f"{c.what}: {c.expect}" for c in f.checks("host")],
            expect="No FAIL lines; each CHECK line's output looks as it says.",
            requires="none",
        ),
        Step(
            phase="verify",
            who=DBA,
            title="Database checks",
            commands=["sqlplus / as sysdba @verify/verify_oracle.sql"],
            file="verify/verify_oracle.sql",
            rules=list(
                dict.fromkeys(
                    [
                        *rules_of(init_params(f)),
                        *(r for c in f.checks("oracle") for r in c.rules),
                    ]
                )
            ),
            notes=[f"{c.what}: {c.expect}" for c in f.checks("oracle")],
            expect="Every line starts with PASS.",
            requires="none",
            language="sql",
        ),
        Step(
            phase="verify",
            who=STORAGE,
            title="Filer checks",
            commands=[c.command for c in f.checks("filer")],
            file="verify/filer_checks.txt",
            rules=list(dict.fromkeys(r for c in f.checks("filer") for r in c.rules)),
            notes=[f"{c.what}: {c.expect}" for c in f.checks("filer")],
            expect="Each value as verify/filer_checks.txt says.",
            requires="none",
            language="text",
        ),
    ]
    return steps

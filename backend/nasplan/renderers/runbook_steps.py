"""The runbook's own steps, phase by phase: prerequisites, network, host, Oracle, verification
and rollback (the filer's steps come from ``filer.py``). Each returns ``Step``s in the order they
are carried out; ``runbook.py`` numbers them and renders the document."""

from __future__ import annotations

from nasplan.domain.plan import Setting
from nasplan.renderers.common import Facts, rules_of
from nasplan.renderers.filer import filer_rollback_steps, filer_steps
from nasplan.renderers.filer_common import STORAGE
from nasplan.renderers.handover import dnfs_server_path, storage_path_count
from nasplan.renderers.oracle import dnfs_enabled, init_params, oranfstab_planned
from nasplan.renderers.outage import outage_steps
from nasplan.renderers.steps import Step, strongest

UNIX = "Unix administrator"
NETWORK = "network administrator"
DBA = "DBA"
ALL = "all three teams"


def _setting_notes(f: Facts, mechanisms: tuple[str, ...], target: str = "host") -> list[str]:
    notes = []
    for s in f.plan.settings:
        if s.mechanism in mechanisms and s.target == target:
            where = f" in {s.scope}" if s.scope else ""
            what = f"unset {s.key}" if s.action == "unset" else f"{s.key} = {s.value}"
            notes.append(f"{what}{where} ({', '.join(s.rules)})")
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
    return steps


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
    nic = ("driver_conf", "interface")
    notes = _setting_notes(f, nic)
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
    checks = [c for c in f.plan.checks if c.where == "host" and rules & set(c.rules)]
    count = storage_path_count(f)
    targets = [dnfs_server_path(f, n) for n in range(1, count + 1)] if count > 1 else [f.filer_host]
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
    notes = _setting_notes(f, tuning)
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


def oracle_steps(f: Facts) -> list[Step]:
    steps: list[Step] = []
    params = init_params(f)
    if params:
        steps.append(
            Step(
                phase="oracle",
                who=DBA,
                title="Initialization parameters",
                commands=["sqlplus / as sysdba @oracle/alter_system.sql"],
                file="oracle/alter_system.sql",
                rules=rules_of(params),
                notes=[
                    *_setting_notes(f, ("init_ora",), "oracle"),
                    "oracle/init.ora.add has the same values for a text parameter file.",
                ],
                expect="Each statement answers System altered.",
                requires=strongest([s.requires for s in params]),
                language="sql",
            )
        )
    if oranfstab_planned(f):
        steps.append(
            Step(
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
        )
    relink: list[Step] = []
    if dnfs_enabled(f):
        relink.append(
            Step(
                phase="oracle",
                who=DBA,
                title="Direct NFS: switch it on in the Oracle home",
                commands=["oracle/enable_dnfs.sh --apply"],
                file="oracle/enable_dnfs.sh",
                rules=rules_of(
                    s for s in f.plan.settings if s.mechanism == "dnfs" and s.key == "dnfs"
                ),
                expect="make ends without errors.",
                requires="instance_restart",
                notes=[
                    "Every instance that uses this Oracle home is down here"
                    + (
                        " (with a shared home on the filer, that is every node)."
                        if f.rac and f.plan.platform.layout.oracle_home == "nas"
                        else "."
                    )
                ],
            )
        )
    steps += outage_steps(
        f,
        "oracle",
        relink,
        rules_of(_restart_settings(f)),
        "The instance opens; the alert log names the Direct NFS servers."
        if dnfs_enabled(f)
        else "The instance opens.",
    )
    if not steps:
        steps.append(
            Step(
                phase="oracle",
                who=DBA,
                title="No database settings in this plan",
                expect="Nothing to do.",
                requires="none",
            )
        )
    return steps


def verify_steps(f: Facts) -> list[Step]:
    plan = f.plan
    steps = [
        Step(
            phase="verify",
            who=UNIX,
            title="Host checks",
            commands=["verify/verify_host.sh"],
            file="verify/verify_host.sh",
            rules=list(dict.fromkeys(r for c in plan.checks if c.where == "host" for r in c.rules)),
            notes=[f"{c.what}: {c.expect}" for c in plan.checks if c.where == "host"],
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
                        *(r for c in plan.checks if c.where == "oracle" for r in c.rules),
                    ]
                )
            ),
            notes=[f"{c.what}: {c.expect}" for c in plan.checks if c.where == "oracle"],
            expect="Every line starts with PASS.",
            requires="none",
            language="sql",
        ),
        Step(
            phase="verify",
            who=STORAGE,
            title="Filer checks",
            commands=[c.command for c in plan.checks if c.where == "filer"],
            file="verify/filer_checks.txt",
            rules=list(
                dict.fromkeys(r for c in plan.checks if c.where == "filer" for r in c.rules)
            ),
            notes=[f"{c.what}: {c.expect}" for c in plan.checks if c.where == "filer"],
            expect="Each value as verify/filer_checks.txt says.",
            requires="none",
            language="text",
        ),
    ]
    return steps


def rollback_steps(f: Facts) -> list[Step]:
    steps: list[Step] = []
    oracle_rules = rules_of(s for s in f.plan.settings if s.target == "oracle")
    steps.append(
        Step(
            phase="rollback",
            who=DBA,
            title="Oracle: parameters back as they were (server parameter file)",
            commands=["sqlplus / as sysdba @rollback/oracle_rollback.sql"],
            file="rollback/oracle_rollback.sql",
            rules=oracle_rules,
            expect="Each statement answers System altered; the values apply from the restart "
            "below.",
            requires="instance_restart",
            language="shell",
        )
    )
    unlink = (
        [
            Step(
                phase="rollback",
                who=DBA,
                title="Oracle: Direct NFS off and oranfstab back as they were",
                commands=["rollback/oracle_rollback.sh --apply"],
                file="rollback/oracle_rollback.sh",
                rules=oracle_rules,
                expect="The script reports the home relinked for kernel NFS.",
                requires="instance_restart",
            )
        ]
        if oranfstab_planned(f) or dnfs_enabled(f)
        else []
    )
    steps += outage_steps(
        f,
        "rollback",
        unlink,
        rules_of(_restart_settings(f)),
        "The instance opens with the parameters of the copy taken in phase 1.",
    )
    steps.append(
        Step(
            phase="rollback",
            who=UNIX,
            title="Host: mount entries, kernel, TCP and NIC settings",
            commands=["rollback/host_rollback.sh", "rollback/host_rollback.sh --apply"],
            file="rollback/host_rollback.sh",
            rules=rules_of([*f.plan.mounts, *(s for s in f.plan.settings if s.target == "host")]),
            notes=[
                "Stop the database and unmount the NFS file systems first; the script "
                "never unmounts."
            ],
            expect="The dry run lists what it will undo; afterwards the nasplan lines are gone "
            "and the saved values are back.",
            requires=strongest(
                [s.requires for s in f.plan.settings if s.target == "host"] + ["remount"]
            ),
        )
    )
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


def _restart_settings(f: Facts) -> list[Setting]:
    return [s for s in f.plan.settings if s.target == "oracle" and s.requires == "instance_restart"]

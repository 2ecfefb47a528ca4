"""The runbook: the plan as ordered phases of steps, each with its command, why (rule and
source), expected result, what it needs (reboot, remount, restart) and its risk.

One model, two renderings: Markdown for the change ticket, and a self-contained HTML page
that prints to PDF with each phase on its own pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nasplan.domain.plan import Plan
from nasplan.renderers.common import (
    FAMILY_LABELS,
    PLACEHOLDER_RE,
    BundleMeta,
    Facts,
    facts,
    one_line,
    platform_line,
    render_template,
    rules_of,
)
from nasplan.renderers.filer import STORAGE, filer_rollback_steps, filer_steps
from nasplan.renderers.handover import answer_for
from nasplan.renderers.oracle import dnfs_enabled, init_params, oranfstab_planned
from nasplan.renderers.steps import (
    PHASES,
    REQUIRES_TEXT,
    Step,
    strongest,
)

UNIX = "Unix administrator"
NETWORK = "network administrator"
DBA = "DBA"
ALL = "all three teams"


@dataclass
class Why:
    rule: str
    title: str
    sources: list[str]


@dataclass
class StepView:
    number: str
    title: str
    who: str
    commands: list[str]
    language: str
    file: str | None
    why: list[Why]
    expect: str
    requires: str
    risk: str
    notes: list[str]
    manual: bool


@dataclass
class PhaseView:
    number: int
    key: str
    title: str
    steps: list[StepView] = field(default_factory=list)


@dataclass
class RunbookView:
    title: str
    db: str
    kb_version: str
    as_of: str
    platform: str
    design: list[tuple[str, str]]
    errors: list[str]
    warnings: list[str]
    placeholders: list[str]
    phases: list[PhaseView]
    who: list[tuple[str, str]]
    expect: list[str]
    capacity: list[tuple[str, str, str, str, str]]
    capacity_notes: list[str]
    glance: list[str]


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


def _prereq(f: Facts, placeholders: list[str]) -> list[Step]:
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


def _network(f: Facts) -> list[Step]:
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
    return steps


def _host(f: Facts) -> list[Step]:
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


def _oracle(f: Facts) -> list[Step]:
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
    if dnfs_enabled(f):
        steps.append(
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
                    "Every instance that uses this Oracle home must be down for the relink"
                    + (
                        " (with a shared home on the filer, that is every node)."
                        if f.rac and f.plan.platform.layout.oracle_home == "nas"
                        else "."
                    )
                ],
            )
        )
    restart = [
        s for s in f.plan.settings if s.target == "oracle" and s.requires == "instance_restart"
    ]
    if restart:
        steps.append(
            Step(
                phase="oracle",
                who=DBA,
                title="Restart the database" + (" instances, node by node" if f.rac else ""),
                commands=["SHUTDOWN IMMEDIATE", "STARTUP"],
                rules=rules_of(restart),
                expect="The instance opens; the alert log names the Direct NFS servers when "
                "dNFS is on."
                if dnfs_enabled(f)
                else "The instance opens.",
                requires="instance_restart",
                risk="Medium: a planned outage" + (" of one instance at a time." if f.rac else "."),
                language="sql",
            )
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


def _verify(f: Facts) -> list[Step]:
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


def _rollback(f: Facts) -> list[Step]:
    steps: list[Step] = []
    oracle_files = ["sqlplus / as sysdba @rollback/oracle_rollback.sql"]
    if oranfstab_planned(f) or dnfs_enabled(f):
        oracle_files.append("rollback/oracle_rollback.sh --apply")
    steps.append(
        Step(
            phase="rollback",
            who=DBA,
            title="Oracle: parameters and Direct NFS back as they were",
            commands=oracle_files,
            file="rollback/oracle_rollback.sql",
            rules=rules_of(s for s in f.plan.settings if s.target == "oracle"),
            expect="After the next restart the parameters match the copy taken in phase 1.",
            requires="instance_restart",
        )
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


_COMMENT = ("#", "--", "*", "{#")


def _glance(plan: Plan) -> list[str]:
    """The plan at a glance: verdict, decisions, disagreements, reversals."""
    s = plan.summary
    if s is None:
        return []
    return [
        s.verdict,
        *s.decisions,
        *(f"Sources disagree on {d.topic}: the plan follows {d.followed}" for d in s.disagreements),
        *s.reversals,
    ]


def _capacity_rows(plan: Plan) -> list[tuple[str, str, str, str, str]]:
    """Volume, what it holds, size, snapshot reserve, autosize limit: when sizing was asked."""
    if plan.capacity is None:
        return []
    rows = []
    for v in plan.volumes:
        sizing = v.sizing
        reserve = sizing.snapshot_reserve_pct if sizing else None
        limit = sizing.autosize_max_gb if sizing else None
        rows.append(
            (
                v.name,
                ", ".join(v.holds),
                f"{v.size_gb:,} GB" if v.size_gb else "not sized",
                f"{reserve}%" if reserve is not None else "-",
                f"{limit:,} GB" if limit else "-",
            )
        )
    return rows


def _capacity_notes(plan: Plan) -> list[str]:
    capacity = plan.capacity
    if capacity is None:
        return []
    notes = [
        f"{v.name}: " + "; ".join(v.sizing.arithmetic) for v in plan.volumes if v.sizing is not None
    ]
    if capacity.redo_logs is not None:
        r = capacity.redo_logs
        notes.append(
            f"Online redo logs: {r.groups_per_thread} groups per thread x {r.threads} "
            f"thread(s), {r.log_file_mb:,} MB each ({r.basis})."
        )
    if capacity.archive is not None:
        notes.append(capacity.archive.note)
    if capacity.cloud is not None:
        notes.append(capacity.cloud.note)
    notes += [f"Not sized: {line}." for line in capacity.not_sized]
    return notes


def _placeholders(files: dict[str, str]) -> list[str]:
    """One line per placeholder left on the lines used as they stand (not comments, not
    scripts: the scripts refuse placeholders and never contain one in a command): the value,
    the question that fills it in, and the files that carry it."""
    where: dict[str, list[str]] = {}
    for path, text in files.items():
        if path.endswith((".md", ".html", ".json")) or text.startswith("#!"):
            continue
        if path.endswith(".j2"):
            text = text.split("#}", 1)[-1]
        lines = [line for line in text.splitlines() if not line.lstrip().startswith(_COMMENT)]
        for name in dict.fromkeys(PLACEHOLDER_RE.findall("\n".join(lines))):
            where.setdefault(name, []).append(path)
    result = []
    for name, paths in where.items():
        answer = answer_for(name)
        asked = f"{answer.question} ({answer.field})" if answer else "no question fills it"
        result.append(f"{name}: {asked}; in {', '.join(paths)}")
    return result


def _why(plan: Plan, rule_ids: list[str]) -> list[Why]:
    result = []
    for rule_id in rule_ids:
        rule = plan.rules.get(rule_id)
        if rule is None:
            continue
        sources = [
            f"{s.id} \u00a7 {s.locator}" + (f" ({s.published.isoformat()})" if s.published else "")
            for s in rule.sources
        ]
        result.append(Why(rule.id, rule.title, sources))
    return result


def build_runbook(plan: Plan, meta: BundleMeta, files: dict[str, str] | None = None) -> RunbookView:
    f = facts(plan, meta)
    if files is None:
        from nasplan.renderers.parts import render_parts

        files = render_parts(f)
    placeholders = _placeholders(files)
    all_steps = [
        *_prereq(f, placeholders),
        *_network(f),
        *[s for s in filer_steps(f) if s.phase == "filer"],
        *_host(f),
        *_oracle(f),
        *_verify(f),
        *_rollback(f),
    ]
    phases: list[PhaseView] = []
    for number, (key, title) in enumerate(PHASES, start=1):
        phase = PhaseView(number, key, title)
        for index, step in enumerate((s for s in all_steps if s.phase == key), start=1):
            phase.steps.append(
                StepView(
                    number=f"{number}.{index}",
                    title=step.title,
                    who=step.who,
                    commands=step.commands,
                    language=step.language,
                    file=step.file,
                    why=_why(plan, step.rules),
                    expect=step.expect,
                    requires=REQUIRES_TEXT[step.requires],
                    risk=step.risk_text(),
                    notes=step.notes,
                    manual=step.manual,
                )
            )
        if not phase.steps:
            phase.steps.append(
                StepView(
                    f"{number}.1",
                    "Nothing to do in this phase",
                    ALL,
                    [],
                    "text",
                    None,
                    [],
                    "",
                    REQUIRES_TEXT["none"],
                    "None.",
                    [],
                    False,
                )
            )
        phases.append(phase)
    design: list[tuple[str, str]] = []
    if meta.design_name:
        design.append(("Design", one_line(meta.design_name, 80)))
    if meta.design_id:
        design.append(("Design id", meta.design_id))
    if meta.revision is not None:
        design.append(("Revision", str(meta.revision)))
    if meta.permalink:
        design.append(("Permalink", meta.permalink))
    return RunbookView(
        title=f"Runbook: {f.db} on {FAMILY_LABELS[f.family]} at {f.filer_host}",
        db=f.db,
        kb_version=plan.kb_version,
        as_of=plan.as_of.isoformat(),
        platform=platform_line(f),
        design=design,
        errors=[f"{x.message} ({x.rule})" for x in plan.findings if x.severity == "error"],
        warnings=[f"{x.message} ({x.rule})" for x in plan.findings if x.severity == "warning"],
        placeholders=placeholders,
        phases=phases,
        who=[
            ("Network administrator", "switch ports (phase 2)"),
            ("Storage administrator", "filer/commands (phases 1 to 3), verify/filer_checks.txt"),
            ("Unix administrator", "host/ scripts (phases 2 and 4), verify/verify_host.sh"),
            ("DBA", "oracle/ files (phase 5), verify/verify_oracle.sql"),
        ],
        expect=_expect_lines(plan),
        capacity=_capacity_rows(plan),
        glance=_glance(plan),
        capacity_notes=_capacity_notes(plan),
    )


def _expect_lines(plan: Plan) -> list[str]:
    """What to expect once applied, for the client the plan uses (see plan.json for more)."""
    e = plan.expectations
    lines = []
    if e.planned_scan_mb_s is not None:
        lines.append(
            f"A large scan with {e.planned_client}: about {e.planned_scan_mb_s:g} MB/s "
            f"({e.nic_payload_ceiling_mb_s:g} MB/s per link)."
        )
    else:
        lines.append(f"Client: {e.planned_client}.")
    lines += [
        f"One serial stream (one request at a time): {e.single_stream_mb_s:g} MB/s at a "
        f"{e.rtt_us:g} us round trip.",
        f"Bottleneck: {e.bottleneck}",
        f"TCP window the path needs: {e.tcp_window_bytes} bytes.",
    ]
    return lines


_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|])")


def md(text: str) -> str:
    """Escape text for Markdown so nothing in it becomes markup or raw HTML."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def runbook_markdown(view: RunbookView) -> str:
    return render_template("runbook.md.j2", r=view, md=md)


def runbook_html(view: RunbookView) -> str:
    return render_template("runbook.html.j2", r=view)


def render_runbook_markdown(
    plan: Plan, meta: BundleMeta | None = None, files: dict[str, str] | None = None
) -> str:
    return runbook_markdown(build_runbook(plan, meta or BundleMeta(), files))


def render_runbook_html(
    plan: Plan, meta: BundleMeta | None = None, files: dict[str, str] | None = None
) -> str:
    return runbook_html(build_runbook(plan, meta or BundleMeta(), files))

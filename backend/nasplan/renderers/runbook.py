"""The runbook: the plan as ordered phases of steps, each with its command, why (rule and
source), expected result, what it needs (reboot, remount, restart) and its risk.

One model, two renderings: Markdown for the change ticket, and a self-contained HTML page
that prints to PDF with each phase on its own pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nasplan.domain.plan import Plan
from nasplan.renderers.access import AccessRow, access_notes, access_rows
from nasplan.renderers.cloud_common import terraform_inputs
from nasplan.renderers.common import (
    FAMILY_LABELS,
    PLACEHOLDER_RE,
    BundleMeta,
    facts,
    one_line,
    platform_line,
    render_template,
)
from nasplan.renderers.filer import filer_steps
from nasplan.renderers.handover import answer_for
from nasplan.renderers.runbook_change import oracle_steps, rollback_steps, scope_lines
from nasplan.renderers.runbook_steps import (
    ALL,
    host_steps,
    network_steps,
    prereq_steps,
    verify_steps,
)
from nasplan.renderers.steps import PHASES, REQUIRES_TEXT


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
    outage: str | None = None
    no_return: bool = False
    reboot: bool = False


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
    access: list[AccessRow]
    access_notes: list[str]
    # The change record's first rows: what the change owner fills in, and the outage.
    change: list[tuple[str, str]]
    # What the change does and leaves to the teams (new build or migration).
    scope: list[str]
    # One row per phase: its number and title, who works in it, and the database meanwhile.
    timeline: list[tuple[str, str, str]]
    # Appendix: each rule the steps cite, once, with its sources; each source's title.
    rules: list[Why]
    sources: list[tuple[str, str]]


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


_COMMENT = ("#", "--", "*", "{#")


def _placeholders(files: dict[str, str]) -> list[str]:
    """One line per placeholder left on the lines used as they stand (not comments, not
    scripts: the scripts refuse placeholders and never contain one in a command): the value,
    the question that fills it in, and the files that carry it."""
    where: dict[str, list[str]] = {}
    inputs = terraform_inputs(files)
    for path, text in files.items():
        if path.endswith((".md", ".html", ".tf.json")) or path == "plan.json":
            continue
        if text.startswith("#!"):
            continue
        if path.endswith(".j2"):
            text = text.split("#}", 1)[-1]
        lines = [line for line in text.splitlines() if not line.lstrip().startswith(_COMMENT)]
        for name in dict.fromkeys(PLACEHOLDER_RE.findall("\n".join(lines))):
            where.setdefault(name, []).append(path)
    for name, (path, _) in inputs.items():
        where.setdefault(name, []).append(path)
    result = []
    for name, paths in where.items():
        answer = answer_for(name)
        asked = f"{answer.question} ({answer.field})" if answer else None
        if asked is None:
            asked = inputs[name][1] if name in inputs else "no question fills it"
        result.append(f"{name}: {asked}; in {', '.join(paths)}")
    return result


_STORAGE_FILES = (
    "filer/commands.txt",
    "ansible/filer.yml",
    "terraform/",
    "filer/fsx/",
    "filer/az_netappfiles.txt",
    "filer/gcloud_netapp.txt",
    "filer/anf_volume_group.txt",
    "filer/shares.txt",
)


def _storage_files(files: dict[str, str]) -> str:
    """The files the storage administrator works from, as this bundle has them."""
    present = [
        name
        for name in _STORAGE_FILES
        if name in files or (name.endswith("/") and any(p.startswith(name) for p in files))
    ]
    return ", ".join(present) + " (phases 1 to 3), verify/filer_checks.txt"


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


def _timeline(phases: list[PhaseView]) -> list[tuple[str, str, str]]:
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


def _change_record(phases: list[PhaseView], rac: bool) -> list[tuple[str, str]]:
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


def _cited_rules(phases: list[PhaseView]) -> list[Why]:
    """Each rule a step cites, once, in the order the steps first cite it."""
    seen: dict[str, Why] = {}
    for phase in phases:
        for step in phase.steps:
            for why in step.why:
                seen.setdefault(why.rule, why)
    return list(seen.values())


def _source_titles(plan: Plan, rules: list[Why]) -> list[tuple[str, str]]:
    titles: dict[str, str] = {}
    for why in rules:
        for source in plan.rules[why.rule].sources:
            titles.setdefault(source.id, source.title)
    return sorted(titles.items())


def build_runbook(plan: Plan, meta: BundleMeta, files: dict[str, str] | None = None) -> RunbookView:
    f = facts(plan, meta)
    if files is None:
        from nasplan.renderers.parts import render_parts

        files = render_parts(f)
    placeholders = _placeholders(files)
    all_steps = [
        *prereq_steps(f, placeholders),
        *network_steps(f),
        *[s for s in filer_steps(f) if s.phase == "filer"],
        *host_steps(f),
        *oracle_steps(f),
        *verify_steps(f),
        *rollback_steps(f),
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
                    outage=step.outage,
                    no_return=step.no_return,
                    reboot=step.requires == "reboot",
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
    cited = _cited_rules(phases)
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
            ("Storage administrator", _storage_files(files)),
            ("Unix administrator", "host/ scripts (phases 2 and 4), verify/verify_host.sh"),
            ("DBA", "oracle/ files (phase 5), verify/verify_oracle.sql"),
        ],
        expect=_expect_lines(plan),
        capacity=_capacity_rows(plan),
        glance=_glance(plan),
        capacity_notes=_capacity_notes(plan),
        access=access_rows(f),
        access_notes=access_notes(f),
        change=_change_record(phases, f.rac),
        scope=scope_lines(f),
        timeline=_timeline(phases),
        rules=cited,
        sources=_source_titles(plan, cited),
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

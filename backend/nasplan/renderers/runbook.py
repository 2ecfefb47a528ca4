"""The runbook: the plan as ordered phases of steps, each with its command, why (rule and
source), expected result, what it needs (reboot, remount, restart) and its risk.

One model, two renderings: Markdown for the change ticket, and a self-contained HTML page
that prints to PDF with each phase on its own pages.
"""

from __future__ import annotations

import re

from nasplan.domain.plan import Plan
from nasplan.renderers.access import access_notes, access_rows
from nasplan.renderers.common import (
    FAMILY_LABELS,
    BundleMeta,
    facts,
    one_line,
    platform_line,
    render_template,
)
from nasplan.renderers.filer import filer_steps
from nasplan.renderers.runbook_backout import rollback_steps
from nasplan.renderers.runbook_change import scope_lines
from nasplan.renderers.runbook_oracle import oracle_steps
from nasplan.renderers.runbook_record import change_record, phase_timeline
from nasplan.renderers.runbook_sections import (
    capacity_notes,
    capacity_rows,
    expect_lines,
    glance_lines,
    placeholder_lines,
    storage_files,
)
from nasplan.renderers.runbook_steps import (
    ALL,
    host_steps,
    network_steps,
    prereq_steps,
    verify_steps,
)
from nasplan.renderers.runbook_view import PhaseView, RunbookView, StepView, Why
from nasplan.renderers.steps import PHASES, REQUIRES_TEXT


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
    placeholders = placeholder_lines(files)
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
            ("Storage administrator", storage_files(files)),
            ("Unix administrator", "host/ scripts (phases 2 and 4), verify/verify_host.sh"),
            ("DBA", "oracle/ files (phase 5), verify/verify_oracle.sql"),
        ],
        expect=expect_lines(plan),
        capacity=capacity_rows(plan),
        glance=glance_lines(plan),
        capacity_notes=capacity_notes(plan),
        access=access_rows(f),
        access_notes=access_notes(f),
        change=change_record(phases, f.rac),
        scope=scope_lines(f),
        timeline=phase_timeline(phases),
        rules=cited,
        sources=_source_titles(plan, cited),
    )


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

"""The runbook as the templates render it: its phases and steps, each step's rules and
sources, and the sections around them (change record, timeline, capacity, appendix)."""

from __future__ import annotations

from dataclasses import dataclass, field

from nasplan.renderers.access import AccessRow


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

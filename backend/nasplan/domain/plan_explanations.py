"""What a plan tells its reader besides the items: each rule's reasons and sources, the advice it
no longer follows, and the summary shown first (contract: api-v1 "Plan")."""

from __future__ import annotations

import datetime as dt

from pydantic import Field

from nasplan.domain.clean_text import OneLine
from nasplan.domain.plan_base import PlanPart, RuleId
from nasplan.domain.vocabulary import Confidence, DateConfidence, RuleSeverity


class SourceCitation(PlanPart):
    id: str
    title: str
    locator: str
    published: dt.date | None


class RuleExplanation(PlanPart):
    id: RuleId
    title: str
    category: str
    severity: RuleSeverity
    confidence: Confidence
    rationale: str
    sources: list[SourceCitation]
    effective_from: dt.date
    date_confidence: DateConfidence = Field(
        default="exact",
        description="How sure effective_from is: exact, earliest_evidence (the advice is "
        "older; this is the earliest dated copy cited) or inferred (see date_note).",
    )
    date_note: str | None = None
    supersedes: list[RuleId]


class SupersededRule(PlanPart):
    rule: RuleId
    title: str
    by: list[RuleId]
    effective_from: dt.date
    replaced_on: dt.date
    reason: str


class Disagreement(PlanPart):
    topic: OneLine
    followed: OneLine = Field(description="The position the plan follows.")
    rule: RuleId


class PlanSummary(PlanPart):
    """The plan at a glance: shown first on the page, in the runbook and by the CLI."""

    verdict: OneLine = Field(description="errors · warnings · mounts · volumes")
    decisions: list[OneLine] = Field(description="The decisions that matter, one line each.")
    disagreements: list[Disagreement] = Field(
        description="Vendor disagreements that affect this platform, and what the plan follows."
    )
    reversals: list[OneLine] = Field(description="Earlier advice this plan no longer follows.")

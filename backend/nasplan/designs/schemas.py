"""Request and response shapes of the designs API."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from nasplan.domain.platform import Platform
from nasplan.engine.diff import Change
from nasplan.renderers.plan_view import PlanView

DesignName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
Reviewer = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Comment = Annotated[str, StringConstraints(max_length=4000)]
RuleRef = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$", max_length=60)]
Decision = Literal["approve", "request_changes", "comment"]
RevisionStatus = Literal["draft", "in_review", "changes_requested", "approved"]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DesignCreate(_In):
    name: DesignName
    platform: Platform


class RevisionCreate(_In):
    platform: Platform
    base_revision: int = Field(ge=1, description="The latest revision number you edited.")
    name: DesignName | None = Field(default=None, description="Rename the design.")


class ReviewCreate(_In):
    revision: int = Field(ge=1)
    reviewer: Reviewer
    decision: Decision
    comment: Comment = ""
    item_rule: RuleRef | None = Field(
        default=None, description="Comment on one plan item: the id of the rule behind it."
    )


class DesignCreated(BaseModel):
    id: str = Field(description="The permalink id (read access).")
    name: str
    revision: int
    permalink: str = Field(description="Path of the design's page, e.g. /d/<id>.")
    edit_token: str = Field(description="Shown once: send as X-Edit-Token to add revisions.")
    review_token: str = Field(description="Shown once: send as X-Review-Token to review.")


class ReviewOut(BaseModel):
    id: int
    revision: int
    reviewer: str
    decision: Decision
    comment: str
    item_rule: str | None
    created_at: dt.datetime


class RevisionSummary(BaseModel):
    number: int
    name: str
    created_at: dt.datetime
    kb_version: str
    as_of: dt.date
    status: RevisionStatus


class RevisionOut(RevisionSummary):
    design_id: str
    platform: Platform
    reviews: list[ReviewOut]
    plan: PlanView = Field(description="The plan exactly as computed when the revision was saved.")


class DesignOut(BaseModel):
    id: str
    name: str
    created_at: dt.datetime
    permalink: str
    state: RevisionStatus = Field(description="Status of the latest revision.")
    state_label: str = Field(description="e.g. 'approved r1', 'changes requested', 'draft'.")
    approved_revision: int | None = Field(description="Highest approved revision, if any.")
    revisions: list[RevisionSummary]
    latest: RevisionOut


class Drift(BaseModel):
    design_id: str
    revision: int
    from_kb: str
    to_kb: str
    from_as_of: dt.date
    to_as_of: dt.date
    changes: list[Change]


class RevisionDiff(BaseModel):
    design_id: str
    from_revision: int
    to_revision: int
    changes: list[Change]


class ExportReview(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reviewer: Reviewer
    decision: Decision
    comment: Comment
    item_rule: RuleRef | None = None
    created_at: dt.datetime


class ExportRevision(BaseModel):
    model_config = ConfigDict(extra="forbid")
    number: int = Field(ge=1)
    name: DesignName
    created_at: dt.datetime
    kb_version: Annotated[str, StringConstraints(max_length=32)]
    as_of: dt.date
    platform: Platform
    plan: PlanView
    reviews: list[ExportReview] = Field(max_length=500)


class DesignExport(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["nasplan-design"] = "nasplan-design"
    format_version: Literal[1] = 1
    name: DesignName
    exported_at: dt.datetime
    revisions: list[ExportRevision] = Field(min_length=1, max_length=200)

"""Request and response shapes of the designs API."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
)

from nasplan.audit.report import AuditReport
from nasplan.audit.request import AuditInputs
from nasplan.designs.as_built import AsBuiltResult
from nasplan.domain.clean_text import (
    FILE_TEXT_ERRORS,
    FILE_TEXT_PATTERN,
    MULTI_LINE_ERRORS,
    MULTI_LINE_PATTERN,
    NON_BLANK_LINE_PATTERN,
    ONE_LINE_ERRORS,
    ONE_LINE_PATTERN,
    strip_spaces,
)
from nasplan.domain.plan_base import MountOption
from nasplan.domain.platform import DATE_RANGE, BoundedDate, BoundedDateTime, NotBool, Platform
from nasplan.engine.diff import Change
from nasplan.renderers.plan_view import PlanView

# A name or a reviewer: one line, no control or format characters, not only spaces; the spaces
# around it are dropped. Checked before stripping (not with strip_whitespace, which would also
# drop a leading or trailing newline or U+0085), so the schema's pattern is the whole rule.
DesignName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=120, pattern=NON_BLANK_LINE_PATTERN),
    ONE_LINE_ERRORS,
    AfterValidator(strip_spaces),
]
Reviewer = Annotated[
    str,
    StringConstraints(min_length=1, max_length=80, pattern=NON_BLANK_LINE_PATTERN),
    ONE_LINE_ERRORS,
    AfterValidator(strip_spaces),
]
# Free text of several lines: tab, newline and carriage return are its only controls.
Comment = Annotated[
    str, StringConstraints(max_length=4000, pattern=MULTI_LINE_PATTERN), MULTI_LINE_ERRORS
]
Label = Annotated[str, StringConstraints(max_length=120, pattern=ONE_LINE_PATTERN), ONE_LINE_ERRORS]
RuleRef = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$", max_length=60)]
Digest = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
# Revision numbers are stored as 32-bit integers.
MAX_REVISION = 2**31 - 1
RevisionNumber = Annotated[int, Field(ge=1, le=MAX_REVISION)]
Decision = Literal["approve", "request_changes", "comment"]
PlanItemKind = Literal["mount", "option", "setting", "finding"]
RevisionStatus = Literal["draft", "in_review", "changes_requested", "approved"]
Origin = Literal["created", "imported"]

_ACK = (
    "Required (true) when the plan has `error` findings: you have read them and save it anyway. "
    "Recorded with the revision."
)


class _In(BaseModel):
    # strict: no "1" for 1 and no 1 for true; dates alone are still read from their text.
    model_config = ConfigDict(extra="forbid", strict=True)


class DesignCreate(_In):
    name: DesignName
    platform: Platform
    acknowledge_errors: bool = Field(default=False, description=_ACK)


class RevisionCreate(_In):
    platform: Platform
    base_revision: RevisionNumber = Field(description="The latest revision number you edited.")
    name: DesignName | None = Field(default=None, description="Rename the design.")
    acknowledge_errors: bool = Field(default=False, description=_ACK)


class ReviewItem(_In):
    """One item of a revision's plan, named by the key the plan diff gives it (GET .../diff)."""

    # The option rule below, in JSON Schema (if/then/else: see nasplan.domain.platform).
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"kind": {"const": "option"}}, "required": ["kind"]},
            "then": {"properties": {"option": {"type": "string"}}, "required": ["option"]},
            "else": {"properties": {"option": {"type": "null"}}},
        }
    )

    kind: PlanItemKind
    key: Annotated[
        str,
        StringConstraints(min_length=1, max_length=2200, pattern=ONE_LINE_PATTERN),
        ONE_LINE_ERRORS,
    ] = Field(
        description="The item's key in the plan diff: a mount (and an option's mount) "
        "`serves mount_point`, e.g. `redo+control /u03/oralog/PROD`; a setting `target name "
        "[volumes] (scope)`; a finding `rule: message`.",
    )
    option: MountOption | None = Field(
        default=None,
        validate_default=True,  # an option item without its option is refused too
        description="For an option: the option on that mount, e.g. `actimeo=0`; only then.",
    )

    @field_validator("option")
    @classmethod
    def _option_of_an_option(cls, value: str | None, info: ValidationInfo) -> str | None:
        kind = info.data.get("kind")
        if kind == "option" and value is None:
            raise ValueError("name the option on the mount")
        if kind is not None and kind != "option" and value is not None:
            raise ValueError(f"a {kind} has no option: leave option out")
        return value


class ReviewCreate(_In):
    # The approval rule below, in JSON Schema (if/then: see nasplan.domain.platform).
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"decision": {"const": "approve"}}, "required": ["decision"]},
            "then": {"properties": {"item_rule": {"type": "null"}, "item": {"type": "null"}}},
        }
    )

    revision: RevisionNumber
    reviewer: Reviewer
    decision: Decision
    comment: Comment = ""
    item_rule: RuleRef | None = Field(
        default=None,
        description="Comment on one plan item: the id of the rule behind it, which must be in "
        "the revision's plan. Comments and change requests only: an approval is always of the "
        "whole revision.",
    )
    item: ReviewItem | None = Field(
        default=None,
        description="Comment on one plan item, named exactly: a mount, an option on a mount, "
        "a setting or a finding of the revision's plan. With `item_rule`, that rule must be "
        "one behind the item. Comments and change requests only.",
    )
    acknowledge_errors: bool = Field(
        default=False,
        description="Required (true) to approve a revision whose plan has `error` findings. "
        "Recorded with the review.",
    )
    bundle_sha256: Digest | None = Field(
        default=None,
        description="The bundle digest you reviewed (README.md of the bundle). When given, the "
        "approval is refused unless it is the revision's digest.",
    )

    @field_validator("item_rule", "item")
    @classmethod
    def _approval_is_whole(cls, value: object, info: ValidationInfo) -> object:
        if value is not None and info.data.get("decision") == "approve":
            raise ValueError(
                f"an approval applies to the whole revision: leave {info.field_name} out"
            )
        return value


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
    item: ReviewItem | None = Field(default=None, description="The plan item it is about.")
    created_at: dt.datetime
    imported: bool = Field(
        default=False,
        description="History imported from another site, not verified here: it approves "
        "nothing on this site.",
    )
    errors_acknowledged: bool = False
    bundle_sha256: str | None = Field(
        default=None, description="For an approval: the digest of the bundle it approved."
    )


class ApprovalOut(BaseModel):
    reviewer: str
    approved_at: dt.datetime
    bundle_sha256: str = Field(description="SHA-256 of the approved bundle's MANIFEST.sha256.")


class RevisionSummary(BaseModel):
    number: int
    name: str
    created_at: dt.datetime
    kb_version: str
    as_of: dt.date
    status: RevisionStatus
    origin: Origin = "created"
    errors_acknowledged: bool = Field(
        default=False, description="Saved with error findings, acknowledged by the author."
    )
    approval: ApprovalOut | None = Field(default=None, description="Who approved it, and when.")


class RevisionOut(RevisionSummary):
    design_id: str
    platform: Platform
    reviews: list[ReviewOut]
    provenance: str | None = Field(
        default=None,
        description="For an imported revision: how its plan was obtained on this site.",
    )
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


FileStatus = Literal["added", "removed", "changed"]


class FileDiff(BaseModel):
    path: str = Field(description="Path in the bundle, e.g. `host/mounts.sh`.")
    status: FileStatus
    lines: list[str] = Field(
        description="A unified diff with 3 lines of context: the `---` and `+++` lines, then "
        "hunks, each an `@@` line and lines that start with ` ` (the same), `-` (only in the "
        "older revision) or `+` (only in the newer). At most 400 lines a file and 3000 in all; "
        "a line longer than 400 characters is cut and ends with `…`."
    )
    lines_left_out: int = Field(
        default=0, description="Lines of this file's diff cut to keep the answer small."
    )


class RevisionFilesDiff(BaseModel):
    design_id: str
    from_revision: int
    to_revision: int
    files: list[FileDiff] = Field(
        description="Every compared file that differs, by path. Lines that differ only in the "
        "revision's own stamps (its number, permalink and review status with the bundle digest) "
        "count as the same."
    )
    stamp_only: list[str] = Field(
        description="Files that differ only in those stamps: nothing in them runs differently."
    )
    not_compared: list[str] = Field(
        description="README.md (the bundle's index and review status) and the checksum lists "
        "(*.sha256), which change with every revision and every approval."
    )


class ExportReview(_In):
    reviewer: Reviewer
    decision: Decision
    comment: Comment
    item_rule: RuleRef | None = Field(
        default=None, description="A rule in the plan of the revision the review is of."
    )
    item: ReviewItem | None = Field(
        default=None, description="An item of the plan of the revision the review is of."
    )
    created_at: BoundedDateTime = Field(
        description=f"When the review was given (its date in UTC: {DATE_RANGE})."
    )
    imported: bool = Field(
        default=False, description="Already imported history on the exporting site."
    )


class ExportRevision(_In):
    number: RevisionNumber
    name: DesignName
    created_at: BoundedDateTime = Field(
        description=f"When the revision was saved (its date in UTC: {DATE_RANGE})."
    )
    kb_version: Annotated[str, StringConstraints(max_length=32, pattern=r"^[A-Za-z0-9._-]*$")]
    as_of: BoundedDate = Field(description=f"The date the revision was planned for, {DATE_RANGE}.")
    platform: Platform
    plan: PlanView = Field(
        description="On import, a record only: the site plans the platform again with its own "
        "knowledge base, and keeps this plan beside it when the two differ.",
    )
    reviews: list[ExportReview] = Field(max_length=500)


class DesignExport(_In):
    format: Literal["nasplan-design"] = "nasplan-design"
    format_version: Annotated[Literal[1], NotBool] = 1
    name: DesignName
    exported_at: BoundedDateTime = Field(
        description=f"When the document was exported (its date in UTC: {DATE_RANGE})."
    )
    revisions: list[ExportRevision] = Field(
        min_length=1,
        max_length=200,
        description="Every revision, oldest first, numbered 1, 2, 3 ... in that order.",
    )


class AsBuiltCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    revision: int = Field(ge=1, le=2_147_483_647, description="The revision the host was built to.")
    report: Annotated[str, FILE_TEXT_ERRORS] = Field(
        min_length=1,
        max_length=1_000_000,
        pattern=FILE_TEXT_PATTERN,
        description="What `verify/verify_host.sh --report FILE` wrote (or its output); no "
        "control characters but tab, newline and carriage return.",
    )


class AsBuiltOut(AsBuiltResult):
    id: int
    revision: int
    created_at: dt.datetime


class DesignAuditCreate(AuditInputs):
    # AuditInputs' rule, at least one file or paste, in JSON Schema (if/then/else: see
    # nasplan.domain.platform).
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"files": {"minProperties": 1}}, "required": ["files"]},
            "else": {"properties": {"pastes": {"minItems": 1}}, "required": ["pastes"]},
        }
    )

    revision: int = Field(
        ge=1,
        le=2_147_483_647,
        description="The revision the pastes are checked against.",
    )
    label: Label = Field(
        default="before",
        description="What the audit records, e.g. 'before' or 'production, March'.",
    )


class DesignAuditOut(BaseModel):
    id: int
    revision: int
    created_at: dt.datetime
    label: str
    report: AuditReport

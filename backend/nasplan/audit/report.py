"""What an audit answers: findings, what each pasted line was taken for, what was not checked.

An answer is bounded whatever was pasted: at most ``MAX_FINDINGS`` findings (the most severe
first) and ``MAX_ASSIGNMENTS`` line-to-role assignments, at most ``MAX_IGNORED_LISTED`` ignored
line numbers per file, and corrected copies only of files up to ``MAX_CORRECTED_CHARS``. What
was left out is counted (and lines after the first ``MAX_LINES`` of a paste, which are not
read), so the summary figures stay true for the whole paste.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field

from nasplan.audit.parsers import MAX_LINES
from nasplan.audit.roles import RoleBasis
from nasplan.audit.suggestions import PlatformSuggestion
from nasplan.domain.plan import Finding
from nasplan.domain.vocabulary import Role

MAX_FINDINGS = 500
MAX_ASSIGNMENTS = 500
MAX_IGNORED_LISTED = 200
MAX_CORRECTED_CHARS = 131_072

SeverityName = Literal["error", "warning", "info"]


class AuditFinding(Finding):
    file: str = Field(description="Which pasted file the finding is about.")
    line: int | None = Field(default=None, description="Line in that file, when known.")
    fix: str | None = Field(
        default=None, description="The line to use instead, in the file's own format."
    )
    applies_with: str | None = Field(
        default=None,
        description="What applying the fix needs: remount, reboot, instance restart, online.",
    )
    about: list[str] = Field(
        default_factory=list,
        description="What the finding is about: mount option keys (hardness, rsize, vers, ...), "
        "parameter names as the file spells them in lower case, or oranfstab and Direct NFS "
        "terms (path, local, export, nfs_version, rows).",
    )


class RoleAssignment(BaseModel):
    file: str
    line: int
    mount_point: str
    device: str
    role: Role | None = Field(description="The file role the line was matched to, if any.")
    reason: str
    basis: RoleBasis = Field(
        default="unknown",
        description="What the role rests on, surest first: yours (the user said), planned (the "
        "planned mount point), named (a word in the mount point or export), inferred (from the "
        "rest of the paste), unknown (nothing: say what the line holds).",
    )
    planned_mount_point: str | None


class RecognisedPaste(BaseModel):
    name: str
    kind: str
    confidence: Literal["high", "medium"]
    reason: str


class AuditReport(BaseModel):
    kb_version: str
    as_of: dt.date
    findings: list[AuditFinding]
    checked: dict[str, int] = Field(description="Entries understood per file.")
    ignored_lines: dict[str, list[int]] = Field(description="Lines not understood per file.")
    assignments: list[RoleAssignment] = Field(
        default_factory=list, description="Each NFS line, the role it was matched to and why."
    )
    not_checked: list[str] = Field(
        default_factory=list,
        description="What the plan holds that the pasted files did not cover.",
    )
    score: int | None = Field(
        default=None,
        description="Share of the checked entries (mount lines, parameters, records) with no "
        "error or warning, %.",
    )
    platform_hints: list[str] = Field(
        default_factory=list,
        description="Where the pasted files disagree with the platform described.",
    )
    platform_suggestions: list[PlatformSuggestion] = Field(
        default_factory=list,
        description="The platform answers the pastes point to (host OS from the file kind, "
        "filer family from command output, Oracle release from `compatible`), to apply and "
        "audit again.",
    )
    recognised: list[RecognisedPaste] = Field(
        default_factory=list, description="What each paste sent as `auto` was taken for, and why."
    )
    corrected: dict[str, str] = Field(
        default_factory=dict,
        description="Pasted configuration files with every fix applied, ready to copy (files "
        f"only, not command outputs, each of at most {MAX_CORRECTED_CHARS:,} characters).",
    )
    severity_counts: dict[SeverityName, int] = Field(
        default_factory=dict,
        description="Findings by severity over the whole paste, those left out included.",
    )
    line_counts: dict[SeverityName, int] = Field(
        default_factory=dict,
        description="Lines with findings, each counted once at its worst finding's severity "
        "(a finding about no line counts on its own): what there is to act on, where "
        "`severity_counts` counts every option of every line.",
    )
    findings_omitted: int = Field(
        default=0,
        ge=0,
        description=f"Findings beyond the first {MAX_FINDINGS} (most severe first) that this "
        "answer leaves out.",
    )
    assignments_omitted: int = Field(
        default=0, ge=0, description=f"Assignments beyond the first {MAX_ASSIGNMENTS} left out."
    )
    ignored_count: dict[str, int] = Field(
        default_factory=dict,
        description="Lines not understood per file; `ignored_lines` lists at most the first "
        f"{MAX_IGNORED_LISTED}.",
    )
    corrected_omitted: list[str] = Field(
        default_factory=list,
        description="Files too large to hand back corrected (their findings still hold).",
    )
    unread_lines: dict[str, int] = Field(
        default_factory=dict,
        description=f"Lines not read per file: an audit reads the first {MAX_LINES:,} lines of "
        "each paste (files listed only when they had more).",
    )

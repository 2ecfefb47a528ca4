"""What an audit is asked: pasted files (by kind, or named pastes recognised by content) and
the roles the user declares for mount points. The API and saved designs share these shapes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from nasplan.audit.compare import audit
from nasplan.audit.kinds import FileKind, kinds_in_words
from nasplan.audit.pastes import PasteIn, gather
from nasplan.audit.report import AuditReport
from nasplan.audit.roles import DeclaredRole
from nasplan.domain.clean_text import (
    FILE_TEXT_ERRORS,
    FILE_TEXT_PATTERN,
    ONE_LINE_ERRORS,
    ONE_LINE_PATTERN,
    ONE_TOKEN_ERRORS,
    ONE_TOKEN_PATTERN,
)
from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase

# Keyed by the mount point as the audit read it from the file, whatever it holds (a quoted
# directory, a shell variable): it is only compared with what the files carry.
MountPoint = Annotated[
    str, StringConstraints(pattern=ONE_TOKEN_PATTERN, max_length=255), ONE_TOKEN_ERRORS
]
PasteText = Annotated[
    str,
    StringConstraints(pattern=FILE_TEXT_PATTERN),
    FILE_TEXT_ERRORS,
    Field(
        max_length=1_000_000,
        description="Text of the file or command output, at most 1,000,000 characters; no "
        "control characters but tab, newline and carriage return (NUL cannot even be stored "
        "by PostgreSQL).",
    ),
]


class Paste(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[
        str, StringConstraints(pattern=ONE_LINE_PATTERN, max_length=120), ONE_LINE_ERRORS
    ] = Field(description="A label for the paste (a file name), shown in the findings.")
    kind: FileKind | Literal["auto"] = Field(
        default="auto", description="What the text is; `auto` recognises it from its content."
    )
    text: PasteText


class AuditInputs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    files: dict[FileKind, PasteText] = Field(
        default_factory=dict,
        description=f"Pasted files by kind: {kinds_in_words()}.",
    )
    pastes: list[Paste] = Field(
        default_factory=list,
        max_length=20,
        description="Further pastes, each with a name and a kind (or `auto`).",
    )
    roles: dict[MountPoint, list[DeclaredRole]] = Field(
        default_factory=dict,
        description="What the user says each mount point holds (data, redo, control, archive, "
        "oracle_home, crs or other), overriding nasplan's guess.",
    )

    def run(self, kb: KnowledgeBase, platform: Platform) -> AuditReport:
        """Gather the pastes and audit them against the plan for ``platform``.

        Raises Unrecognised when an `auto` paste cannot be recognised.
        """
        files, recognised = gather(
            [PasteIn(p.name, p.kind, p.text) for p in self.pastes], self.files
        )
        report = audit(kb, platform, files, self.roles)
        return report.model_copy(update={"recognised": recognised})

    @model_validator(mode="after")
    def _something_to_audit(self) -> AuditInputs:
        if not self.files and not self.pastes:
            raise ValueError("files or pastes: give at least one pasted file")
        return self

"""Audit existing configuration against the plan for the same platform."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from nasplan.api.deps import KbDep
from nasplan.api.errors import validation_422
from nasplan.audit.compare import AuditReport, FileKind, audit
from nasplan.audit.pastes import PasteIn, Unrecognised, gather
from nasplan.audit.roles import DeclaredRole
from nasplan.domain.plan import ONE_LINE_PATTERN
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform

router = APIRouter(prefix="/audits", tags=["audits"])


MountPoint = Annotated[str, StringConstraints(pattern=r"^/[A-Za-z0-9._/+-]{0,254}$")]
PasteText = Annotated[str, Field(max_length=1_000_000)]


class Paste(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, StringConstraints(pattern=ONE_LINE_PATTERN, max_length=120)] = Field(
        description="A label for the paste (a file name), shown in the findings."
    )
    kind: FileKind | Literal["auto"] = Field(
        default="auto", description="What the text is; `auto` recognises it from its content."
    )
    text: PasteText


class AuditRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    platform: Platform
    files: dict[FileKind, PasteText] = Field(
        default_factory=dict,
        description="Pasted files by kind: vfstab, fstab, filesystems, mount (output of mount, "
        "/proc/mounts or nfsstat -m), init.ora, spfile, show_parameter, vol_options (NetApp "
        "`vol options <vol>`), options_nfs, ontap_fields (`... show -fields ...`), oranfstab, "
        "dnfs_servers (`select * from v$dnfs_servers`), sysctl, nfso, etc_system, ndd.",
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

    @model_validator(mode="after")
    def _something_to_audit(self) -> AuditRequest:
        if not self.files and not self.pastes:
            raise ValueError("files or pastes: give at least one pasted file")
        return self


_EXAMPLE: dict[str, Any] = {
    "platform": EXAMPLE_PLATFORM,
    "files": {
        "vfstab": "filer01:/vol/prod_data - /u02/oradata/PROD nfs - yes "
        "rw,bg,hard,intr,rsize=32768,wsize=32768,vers=3,proto=tcp,llock",
        "vol_options": "nosnap=off, nosnapdir=off, minra=on, no_atime_update=off",
    },
}


@router.post(
    "",
    response_model=AuditReport,
    responses={
        422: {"description": "Bad platform or unknown file kind; `detail` names the field"},
        413: {"description": "The body is larger than the limit."},
    },
)
def create_audit(
    kb: KbDep,
    request: Annotated[
        AuditRequest, Body(openapi_examples={"tr3322": {"summary": "vfstab", "value": _EXAMPLE}})
    ],
) -> AuditReport | JSONResponse:
    try:
        files, recognised = gather(
            [PasteIn(p.name, p.kind, p.text) for p in request.pastes], request.files
        )
    except Unrecognised as exc:
        return validation_422(
            [{"loc": ("pastes", exc.index, "kind"), "msg": str(exc), "type": "value_error"}],
            ("body",),
        )
    report = audit(kb, request.platform, files, request.roles)
    return report.model_copy(update={"recognised": recognised})

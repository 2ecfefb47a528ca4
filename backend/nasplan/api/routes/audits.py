"""Audit existing configuration against the plan for the same platform."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import BaseModel, Field

from nasplan.api.deps import KbDep
from nasplan.audit.compare import AuditReport, FileKind, audit
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform

router = APIRouter(prefix="/audits", tags=["audits"])


class AuditRequest(BaseModel):
    platform: Platform
    files: dict[FileKind, Annotated[str, Field(max_length=100_000)]] = Field(
        min_length=1,
        description="Pasted files by kind: vfstab, fstab, filesystems, mount (output of mount, "
        "/proc/mounts or nfsstat -m), init.ora, vol_options (NetApp `vol options <vol>`), "
        "oranfstab.",
    )


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
) -> AuditReport:
    return audit(kb, request.platform, request.files)

"""Audit existing configuration against the plan for the same platform."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from nasplan.api.deps import KbDep
from nasplan.api.errors import validation_422
from nasplan.audit.compare import AuditReport
from nasplan.audit.pastes import Unrecognised
from nasplan.audit.request import AuditInputs
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform

router = APIRouter(prefix="/audits", tags=["audits"])


class AuditRequest(AuditInputs):
    platform: Platform


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
        return request.run(kb, request.platform)
    except Unrecognised as exc:
        return unrecognised_422(exc)


def unrecognised_422(exc: Unrecognised) -> JSONResponse:
    return validation_422(
        [{"loc": ("pastes", exc.index, "kind"), "msg": str(exc), "type": "value_error"}],
        ("body",),
    )

"""Audit existing configuration against the plan for the same platform."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, FastAPI, Request
from fastapi.responses import JSONResponse

from nasplan.api.deps import AuditRunnerDep
from nasplan.api.errors import validation_422
from nasplan.audit.pastes import Unrecognised
from nasplan.audit.report import AuditReport
from nasplan.audit.request import AuditInputs
from nasplan.audit.runner import AuditFailed
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform

router = APIRouter(prefix="/audits", tags=["audits"])

AUDIT_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {
        "description": "The body is larger than the limit, or checking it needs more memory "
        "than an audit may use."
    },
    422: {
        "description": "Bad platform, unknown file kind, a paste nothing recognises, or pastes "
        "that take longer than the time limit to check; `detail` names the field."
    },
    503: {"description": "Every audit worker is busy; `Retry-After` says when to retry."},
}


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


@router.post("", response_model=AuditReport, responses=AUDIT_ERRORS)
def create_audit(
    runner: AuditRunnerDep,
    request: Annotated[
        AuditRequest, Body(openapi_examples={"tr3322": {"summary": "vfstab", "value": _EXAMPLE}})
    ],
) -> AuditReport | JSONResponse:
    try:
        return runner.run(request, request.platform)
    except Unrecognised as exc:
        return unrecognised_422(exc)


def unrecognised_422(exc: Unrecognised) -> JSONResponse:
    return validation_422(
        [{"loc": ("pastes", exc.index, "kind"), "msg": str(exc), "type": "value_error"}],
        ("body",),
    )


def install_error_handler(app: FastAPI) -> None:
    @app.exception_handler(AuditFailed)
    async def _audit_failed(_: Request, exc: AuditFailed) -> JSONResponse:
        if exc.status == 422:
            detail: Any = [{"loc": ["body"], "msg": exc.message, "type": "audit_limit"}]
        else:
            detail = exc.message
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return JSONResponse(status_code=exc.status, content={"detail": detail}, headers=headers)

"""Read-only collector scripts that gather from a live host what the audit reads."""

from __future__ import annotations

from fastapi import APIRouter, Response

from nasplan.api.deps import KbDep
from nasplan.domain.platform import OsName
from nasplan.renderers.collector import collector_script

router = APIRouter(tags=["audits"])


@router.get(
    "/collector/{os}",
    response_class=Response,
    responses={
        200: {
            "content": {"text/x-shellscript": {}},
            "description": "The collector for hosts of this OS, a POSIX shell script.",
        }
    },
)
def collector(kb: KbDep, os: OsName) -> Response:
    """The collector for a host OS: run it on the host (it only reads, and writes only into
    the directory it creates), then upload what it wrote on the audit page."""
    return Response(
        content=collector_script(kb.setting_keys(), os, kb.version),
        media_type="text/x-shellscript",
        headers={"Content-Disposition": f'attachment; filename="nasplan-collect-{os}.sh"'},
    )

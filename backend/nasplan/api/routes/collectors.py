"""Read-only collector scripts that gather from a live host what the audit reads."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, HTTPException, Response

from nasplan.api.deps import KbDep
from nasplan.audit.collection import CollectionError, read_collection_tar
from nasplan.audit.inference import CollectionReport, collection_report
from nasplan.domain.platform import OsName
from nasplan.renderers.collector import collector_script
from nasplan.renderers.filer_collector import FilerCollectorFamily, filer_collector_text

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


@router.get(
    "/collector/filer/{family}",
    response_class=Response,
    responses={
        200: {
            "content": {"text/plain": {}},
            "description": "The filer's read-only commands, with the file to save each output in.",
        }
    },
)
def filer_collector(kb: KbDep, family: FilerCollectorFamily) -> Response:
    """The storage team's collector for a filer family: read-only commands to run in the
    filer's own CLI, each with the file to save its output in and the audit kind it is; the
    saved files are pasted on the audit page."""
    return Response(
        content=filer_collector_text(kb.setting_keys(), family, kb.version),
        media_type="text/plain",
        headers={"Content-Disposition": f'attachment; filename="nasplan-collect-{family}.txt"'},
    )


@router.post(
    "/collections",
    response_model=CollectionReport,
    responses={422: {"description": "The upload is not a collection the audit can read."}},
)
def read_collection(
    kb: KbDep,
    archive: Annotated[
        bytes,
        Body(
            media_type="application/x-tar",
            description="The nasplan-collect.tar a collector wrote (gzipped or not).",
        ),
    ],
) -> CollectionReport:
    """Read a collector's archive: the pastes to audit, the platform answers it shows (each with
    its evidence, to confirm before the audit), and what could not be read on the host. Nothing
    is kept: the client sends the pastes and the confirmed platform to `POST /audits`."""
    try:
        collection = read_collection_tar(archive)
    except CollectionError as exc:
        raise HTTPException(
            status_code=422,
            detail=[{"loc": ["body"], "msg": str(exc), "type": "value_error"}],
        ) from exc
    return collection_report(kb, collection)

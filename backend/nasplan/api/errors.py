"""Errors as the contract wants them: 422 naming the field, never a 500 with a stack trace."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from nasplan.api.observability import current_request_id
from nasplan.knowledge.resolve import CatalogError

log = logging.getLogger("nasplan")


def catalog_error_to_422(error: CatalogError, prefix: tuple[str, ...] = ("body",)) -> JSONResponse:
    return JSONResponse(
        status_code=422,
        content={
            "detail": [
                {"loc": [*prefix, *loc], "msg": msg, "type": "catalog"}
                for loc, msg in error.problems
            ]
        },
    )


def validation_422(errors: Sequence[Any], prefix: Sequence[str | int] = ()) -> JSONResponse:
    """Pydantic errors as the contract's 422: ``loc`` names the field (under ``prefix``)."""
    detail = [
        {
            "loc": [*prefix, *e.get("loc", ())],
            "msg": str(e.get("msg", "")).removeprefix("Value error, "),
            "type": e.get("type", ""),
        }
        for e in errors
    ]
    return JSONResponse(status_code=422, content={"detail": detail})


def install(app: FastAPI) -> None:
    @app.exception_handler(CatalogError)
    async def _catalog(_: Request, exc: CatalogError) -> JSONResponse:
        return catalog_error_to_422(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_422(exc.errors())

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        # SecurityHeaders renders this answer itself and Starlette calls it again: log once.
        if not getattr(exc, "_nasplan_logged", False):
            log.exception("unhandled error", exc_info=exc)
            with suppress(AttributeError):
                exc._nasplan_logged = True  # type: ignore[attr-defined]
        # The server drops the connection after an unhandled error: say so, so that a proxy
        # does not send its next request on it.
        return JSONResponse(
            status_code=500,
            content={
                "detail": "internal error; it has been logged",
                "request_id": current_request_id(),
            },
            headers={"Connection": "close"},
        )

"""The database is unreachable: 503 with ``Retry-After``, never a 500 or a hang.

A connectivity failure (``nasplan.data.db.is_database_unavailable``: connection refused or
dropped, server shutting down, connection pool exhausted, SQLite file locked) is answered
``503 {"detail": "the database is unavailable; try again shortly", "request_id": ...}`` with
``Retry-After: 5``, and logged as one warning line on the ``nasplan`` logger without a stack
trace. The engine reconnects by itself (``nasplan.data.db.make_engine``), so the first request
after the database returns succeeds; nothing needs a restart.

Any other SQLAlchemy error (bad SQL, a constraint violated) is re-raised from the handler and
reaches the app's 500 handler (``nasplan.api.errors``) exactly as if this module did not exist.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc

from nasplan.api.observability import current_request_id
from nasplan.data.db import describe_database_error, is_database_unavailable

log = logging.getLogger("nasplan")

UNAVAILABLE_DETAIL = "the database is unavailable; try again shortly"
RETRY_AFTER_SECONDS = 5

#: The exceptions handled here. ``DBAPIError`` covers the driver errors that are neither of
#: the first two but after which SQLAlchemy invalidated the connection; ``TimeoutError`` is the
#: pool's (no connection became free in time), not the built-in one.
HANDLED: tuple[type[Exception], ...] = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.DBAPIError,
    sa_exc.TimeoutError,
)


def database_unavailable_response() -> JSONResponse:
    return JSONResponse(
        status_code=503,
        content={"detail": UNAVAILABLE_DETAIL, "request_id": current_request_id()},
        headers={"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"},
    )


async def _handle(request: Request, exc: Exception) -> JSONResponse:
    if not is_database_unavailable(exc):
        # Not a connectivity failure: an error in the program, for the 500 handler.
        raise exc
    log.warning(
        "database unavailable: %s %s -> 503: %s",
        request.method,
        request.url.path,
        describe_database_error(exc),
        extra={"db_error": type(exc).__name__},
    )
    return database_unavailable_response()


def install_database_error_handler(app: FastAPI) -> None:
    """Answer connectivity failures of the database 503 (see the module's docstring)."""
    for exception in HANDLED:
        app.add_exception_handler(exception, _handle)

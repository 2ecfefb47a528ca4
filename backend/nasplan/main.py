"""The web application: API under /api/v1, the built front end everywhere else."""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from alembic.runtime.migration import MigrationContext
from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine, text
from starlette.middleware.gzip import GZipMiddleware

from nasplan.api import errors
from nasplan.api.db_errors import install_database_error_handler
from nasplan.api.docs import install_docs
from nasplan.api.fallback import install_api_fallback
from nasplan.api.limits import RequestBodyGuard
from nasplan.api.observability import configure_logging, install_observability
from nasplan.api.rate_limit import RateLimit, api_buckets
from nasplan.api.routes import (
    audits,
    bundles,
    catalog,
    collectors,
    designs,
    health,
    knowledge,
    plans,
)
from nasplan.api.security import SecurityHeaders
from nasplan.api.server import header_timeout_protocol
from nasplan.audit.runner import AuditRunner, Limits
from nasplan.data.db import make_engine, make_session_factory
from nasplan.data.migrate import upgrade
from nasplan.engine.warm import collector_paused, warm
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import load_knowledge
from nasplan.settings import Settings, get_settings

API_PREFIX = "/api/v1"

DESCRIPTION = """\
nasplan plans Oracle databases on NFS storage: volumes and mounts, host, network, filer and
Oracle settings, each with the rule, rationale and source behind it, and what to expect of the
network path. The knowledge base is versioned; every plan names the release (`kb_version`) and
the date it was evaluated for (`as_of`).
"""


def create_app(settings: Settings | None = None, kb: KnowledgeBase | None = None) -> FastAPI:
    settings = settings or get_settings()
    with collector_paused():
        loaded_kb = kb or load_knowledge(settings.knowledge_dir)
    warm(loaded_kb)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        app.state.audit_runner.close()
        app.state.engine.dispose()

    app = FastAPI(
        title="nasplan",
        version="1.0.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    engine = make_engine(settings.database_url)
    if settings.migrate_on_start:
        migrate_database(engine)
    app.state.kb = loaded_kb
    app.state.settings = settings
    app.state.engine = engine
    app.state.session_factory = make_session_factory(engine)
    app.state.audit_runner = AuditRunner(
        loaded_kb,
        Limits(
            workers=settings.audit_workers,
            timeout_s=settings.audit_timeout_s,
            memory_bytes=settings.audit_memory_mb * 2**20,
        ),
    )
    errors.install(app)
    audits.install_error_handler(app)
    designs.install_error_handler(app)
    install_database_error_handler(app)

    api = APIRouter(prefix=API_PREFIX)
    for module in (health, knowledge, catalog, plans, bundles, audits, collectors, designs):
        api.include_router(module.router)
    app.include_router(api)
    install_docs(app)
    install_api_fallback(app, API_PREFIX)
    # Outermost last: request id, logs and metrics, then the security headers, the limits,
    # the body checks, and the routes.
    app.add_middleware(
        RequestBodyGuard,
        max_bytes=settings.max_body_bytes,
        prefix="/api/",
        body_timeout_s=settings.body_timeout_s,
    )
    app.add_middleware(
        RateLimit,
        buckets=api_buckets(API_PREFIX, settings.rate_limit_writes, settings.rate_limit_compute),
        storage_uri=settings.rate_limit_storage,
    )
    # Plans, runbooks and the explanations are text: compressed on the wire when the client
    # accepts gzip (zip bundles are left alone). Level 5: most of the gain for little CPU.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=5)
    app.add_middleware(SecurityHeaders)
    # After every other middleware (it is the outermost) and, for GET /metrics, before the
    # page's catch-all.
    install_observability(app, API_PREFIX)
    _mount_frontend(app, settings.frontend_dist)
    return app


def _mount_frontend(app: FastAPI, dist: Path) -> None:
    """Serve the single-page app: hashed assets as static files, every other path -> index.html.

    Only /assets is a StaticFiles mount; a mount at / would swallow the API's 405 and OPTIONS.
    """
    index = dist / "index.html"
    if (dist / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    @app.api_route(
        "/{path:path}", methods=["GET", "HEAD"], include_in_schema=False, response_model=None
    )
    def spa(path: str) -> FileResponse | JSONResponse:
        if "\x00" in path:  # no file has it, and the file system functions raise on it
            return JSONResponse(status_code=404, content={"detail": "not found"})
        if path and (candidate := _file_in(dist, path)) is not None:
            return FileResponse(candidate)
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return JSONResponse(
            status_code=404,
            content={"detail": "front end not built: run the README's run command"},
        )


def _file_in(dist: Path, path: str) -> Path | None:
    try:
        candidate = (dist / path).resolve()
        is_file = candidate.is_file()
    except OSError:  # e.g. a name too long for the file system: not one of our files
        return None
    return candidate if is_file and candidate.is_relative_to(dist.resolve()) else None


def run(workers: int | None = None) -> None:
    """``nasplan serve``: one server process (``workers`` 1, the default from
    ``NASPLAN_WORKERS``) or a supervisor with that many worker processes on one socket."""
    import uvicorn

    settings = get_settings()
    configure_logging(settings.log_level)
    count = settings.workers if workers is None else workers
    common = server_options(settings)
    if count <= 1:
        app = create_app(settings)
        gc.freeze()  # what was loaded lives as long as the process: keep it out of collections
        uvicorn.run(app, **common)
        return
    if settings.migrate_on_start:
        # Migrate here, once, before any worker starts; the workers (new interpreters that
        # inherit this environment) then skip it.
        migrate_database(settings.database_url)
        os.environ["NASPLAN_MIGRATE_ON_START"] = "false"
    uvicorn.run(f"{__name__}:create_worker_app", factory=True, workers=count, **common)


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for ``nasplan serve`` (one process or several)."""
    trusted = settings.trusted_proxies
    return {
        "host": settings.host,
        "port": settings.port,
        # log_config=None: uvicorn's own records go to the root logger's JSON handler; its
        # access log is off, the app's nasplan.access lines replace it.
        "log_level": "info",
        "log_config": None,
        "access_log": False,
        # uvicorn's defaults believe X-Forwarded-For from 127.0.0.1: anyone on this host, or
        # a local proxy that passes the client's header on, could pick the client address
        # the rate limits count. Only configured proxies are believed.
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted,
        "limit_concurrency": settings.limit_concurrency,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "http": header_timeout_protocol(settings.header_timeout_s),
    }


def create_worker_app() -> FastAPI:
    """uvicorn's factory in each worker process: a fresh interpreter, so the JSON logging is
    set up here too (before uvicorn logs that the worker started)."""
    settings = get_settings()
    configure_logging(settings.log_level)
    app = create_app(settings)
    gc.freeze()
    return app


#: Key of the PostgreSQL advisory lock held while migrating ("nasplan" in ASCII).
MIGRATION_LOCK_KEY = 0x6E6173706C616E


def migrate_database(target: str | Engine) -> str | None:
    """Apply the migrations up to the latest one and return the database's revision.

    On PostgreSQL this holds a session-level advisory lock (``pg_advisory_lock``) meanwhile,
    so processes started together (replicas, ``nasplan migrate`` beside a server) migrate one
    after the other: the first applies the migrations, the others find the database at head
    and change nothing. The lock goes with the connection, also when the process dies.
    SQLite: no lock; start one process first, or run ``nasplan migrate`` before the servers.
    """
    engine = make_engine(target) if isinstance(target, str) else target
    try:
        if engine.dialect.name != "postgresql":
            upgrade(engine)
        else:
            # Autocommit: waiting for (or holding) the lock leaves no transaction open.
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as lock:
                lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
                try:
                    upgrade(engine)
                finally:
                    lock.execute(
                        text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY}
                    )
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        if isinstance(target, str):
            engine.dispose()


if __name__ == "__main__":
    run()

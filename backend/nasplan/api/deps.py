"""Request-scoped dependencies."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from nasplan.audit.runner import AuditRunner
from nasplan.data.db import end_session
from nasplan.knowledge.base import KnowledgeBase


async def get_kb(request: Request) -> KnowledgeBase:
    # async: it only reads app state, so it runs on the event loop instead of costing every
    # request that needs the knowledge base a hop to the thread pool and back.
    kb: KnowledgeBase = request.app.state.kb
    return kb


KbDep = Annotated[KnowledgeBase, Depends(get_kb)]


async def get_audit_runner(request: Request) -> AuditRunner:
    runner: AuditRunner = request.app.state.audit_runner
    return runner


AuditRunnerDep = Annotated[AuditRunner, Depends(get_audit_runner)]


@contextmanager
def session_scope(factory: Callable[[], Session]) -> Iterator[Session]:
    """A database session for one piece of work, always ended when the work is.

    Whatever the work raised is seen here first: after a connectivity failure the session's
    connection is invalidated (never returned to the pool), after any other error what was not
    committed is rolled back, and a failure while cleaning up never replaces the work's own
    error (``nasplan.data.db.end_session``). That error then reaches the exception handlers:
    503 for an unreachable database (``nasplan.api.db_errors``), else as usual.
    """
    session = factory()
    try:
        yield session
    except BaseException as error:
        end_session(session, error)
        raise
    else:
        end_session(session)


def get_session(request: Request) -> Iterator[Session]:
    """A database session for the request (``session_scope``), ended when the request is."""
    with session_scope(request.app.state.session_factory) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]

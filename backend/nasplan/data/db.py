"""Database engine and sessions: SQLite by default (WAL, foreign keys on), PostgreSQL by URL.

Outages: the engine recovers by itself when the database comes back. PostgreSQL connections
are pinged at checkout (``pool_pre_ping``), so a connection the server or the network dropped
is replaced instead of failing the request; a connection attempt gives up after a few seconds
(``connect_timeout``) instead of hanging the request; idle connections are recycled and TCP
keepalives notice a peer that vanished. ``is_database_unavailable`` tells such connectivity
failures (answered 503 by ``nasplan.api.db_errors``) from errors in the program (a 500), and a
session ended by one discards its connection rather than return it to the pool.

Start-up with the database down: ``create_app`` runs the migrations first, so it raises
``sqlalchemy.exc.OperationalError`` within ``connect_timeout`` (at once when the connection is
refused); the last line of the traceback names the server and the reason.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger("nasplan")

#: Seconds a PostgreSQL connection attempt may take before it fails (libpq's minimum is 2).
PG_CONNECT_TIMEOUT = 3
#: Seconds a request waits for a free pooled connection before ``sqlalchemy.exc.TimeoutError``.
PG_POOL_TIMEOUT = 10
#: Seconds after which a pooled connection is replaced (before firewalls and proxies drop it).
PG_POOL_RECYCLE = 1800
#: libpq connection defaults; a value in the URL's query string wins.
PG_CONNECT_DEFAULTS: dict[str, int] = {
    "connect_timeout": PG_CONNECT_TIMEOUT,
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
}
_LIBPQ_DRIVERS = frozenset({"psycopg", "psycopg2"})

#: SQLite primary result codes that mean "try again": busy or locked by another connection,
#: the file cannot be opened or read right now. Anything else (``no such table``, a syntax
#: error: also ``sqlite3.OperationalError``) is an error in the program.
_SQLITE_TRANSIENT_CODES = frozenset({5, 6, 10, 14})  # BUSY, LOCKED, IOERR, CANTOPEN
_SQLITE_TRANSIENT_MESSAGES = (
    "database is locked",
    "database table is locked",
    "database is busy",
    "unable to open database file",
    "disk i/o error",
)


def make_engine(url: str) -> Engine:
    """hide_parameters: a database error names the statement but never its values (token
    hashes, names), so nothing secret reaches the log."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            hide_parameters=True,
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    connect_args: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in _LIBPQ_DRIVERS:
        connect_args = {k: v for k, v in PG_CONNECT_DEFAULTS.items() if k not in parsed.query}
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=60,
        pool_timeout=PG_POOL_TIMEOUT,
        pool_recycle=PG_POOL_RECYCLE,
        connect_args=connect_args,
        hide_parameters=True,
    )


def is_database_unavailable(error: BaseException) -> bool:
    """True when ``error`` says the database cannot be reached or used right now (refused or
    dropped connection, server shutting down, pool exhausted, SQLite file locked), so the
    same request may well succeed shortly; False for errors in the program (bad SQL, a
    constraint violated, a value of the wrong type).

    - ``sqlalchemy.exc.TimeoutError``: no pooled connection became free in time.
    - Any ``DBAPIError`` after which SQLAlchemy invalidated the connection (a disconnect).
    - PostgreSQL (and other servers): ``OperationalError`` and ``InterfaceError``; psycopg
      raises bad SQL as ``ProgrammingError``, which is not one of them.
    - SQLite: only an ``OperationalError`` whose result code (or message) is a transient one;
      sqlite3 raises bad SQL as ``OperationalError`` too, and ``InterfaceError`` for values of
      a type it cannot store.
    """
    if isinstance(error, sa_exc.TimeoutError):
        return True
    if not isinstance(error, sa_exc.DBAPIError):
        return False
    if error.connection_invalidated:
        return True
    if isinstance(error.orig, sqlite3.Error):
        return isinstance(error, sa_exc.OperationalError) and _sqlite_transient(error.orig)
    return isinstance(error, (sa_exc.OperationalError, sa_exc.InterfaceError))


def _sqlite_transient(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return (code & 0xFF) in _SQLITE_TRANSIENT_CODES
    message = str(error).lower()
    return any(text in message for text in _SQLITE_TRANSIENT_MESSAGES)


class RequestSession(Session):
    """A session that, used as a context manager, ends safely whatever ended its block.

    After a connectivity failure (``is_database_unavailable``) its connections are invalidated,
    not returned to the pool: a dropped connection is never handed to the next request. After
    any other exception, or none, it closes as usual (rolling back what was not committed). A
    failure while cleaning up is logged and never hides the exception that ended the block.
    """

    def __exit__(self, type_: Any, value: Any, traceback: Any) -> None:
        end_session(self, value if isinstance(value, BaseException) else None)


def end_session(session: Session, error: BaseException | None = None) -> None:
    """Close ``session`` after a block that ``error`` ended (None: it ended normally)."""
    try:
        if error is not None and is_database_unavailable(error):
            session.invalidate()
        else:
            session.close()
    except sa_exc.SQLAlchemyError as cleanup:
        if error is None:
            raise
        # Closing could not roll back (the database went away meanwhile): throw the
        # connections away so the pool reconnects, and let the original error speak.
        log.warning("closing a database session failed: %s", _first_line(cleanup))
        with contextlib.suppress(sa_exc.SQLAlchemyError):
            session.invalidate()


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0][:300] if text else type(error).__name__


def describe_database_error(error: BaseException) -> str:
    """One short line for the log: the driver's exception type and the first line of its
    message (statement parameters are hidden by ``hide_parameters``; no stack trace)."""
    orig = getattr(error, "orig", None)
    kind = type(orig).__name__ if orig is not None else type(error).__name__
    return f"{kind}: {_first_line(error)}"


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, class_=RequestSession, expire_on_commit=False)

"""The database goes away: 503 with Retry-After (never a 500 or a hang), then recovery.

PostgreSQL runs behind a TCP proxy in this process, which the tests stop (the listener closes
and every open connection is cut) and start again on the same port; SQLite is made busy by a
second connection holding the write lock. Errors in the program stay 500s.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response
from sqlalchemy import event, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from nasplan.api.db_errors import RETRY_AFTER_SECONDS, UNAVAILABLE_DETAIL
from nasplan.api.deps import get_session
from nasplan.data.db import RequestSession, is_database_unavailable, make_engine
from nasplan.designs import service
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.conftest import sqlite_settings
from tests.postgres import throwaway_database

DESIGNS = "/api/v1/designs"
#: A hang guard, not a performance target: each request during an outage must end by then.
HANG_GUARD_SECONDS = 10.0
INTERNAL_ERROR = "internal error; it has been logged"


# --- a TCP proxy we can pull the plug on -------------------------------------------------------


class TcpProxy:
    """Forwards connections to 127.0.0.1:<port> to ``target``, in threads of this process.

    ``stop()`` closes the listener and cuts every open connection (both sides see the socket
    shut down), so the port refuses connections; ``start()`` listens again on the same port.
    ``start(blackhole=True)`` accepts connections but never answers: a server that hangs.
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._listener: socket.socket | None = None
        self._stopping = threading.Event()
        self._accepter: threading.Thread | None = None
        self._sockets: list[socket.socket] = []
        self._pumps: list[threading.Thread] = []
        self._lock = threading.Lock()

    def start(self, *, blackhole: bool = False) -> None:
        assert self._listener is None, "already started"
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.05)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._stopping = threading.Event()
        self._accepter = threading.Thread(
            target=self._accept_loop, args=(listener, self._stopping, blackhole), daemon=True
        )
        self._accepter.start()

    def stop(self) -> None:
        if self._listener is None:
            return
        self._stopping.set()
        assert self._accepter is not None
        self._accepter.join(5)
        self._listener.close()
        self._listener = None
        with self._lock:
            sockets, self._sockets = self._sockets, []
            pumps, self._pumps = self._pumps, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        for pump in pumps:
            pump.join(5)
        for sock in sockets:
            sock.close()

    @property
    def connections(self) -> int:
        with self._lock:
            return len(self._sockets)

    def _accept_loop(
        self, listener: socket.socket, stopping: threading.Event, blackhole: bool
    ) -> None:
        while not stopping.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            upstream: socket.socket | None = None
            if not blackhole:
                try:
                    upstream = socket.create_connection(self.target, timeout=3)
                except OSError:
                    client.close()
                    continue
                upstream.settimeout(None)
            with self._lock:
                if stopping.is_set():
                    for sock in (client, upstream):
                        if sock is not None:
                            sock.close()
                    return
                self._sockets.append(client)
                if upstream is not None:
                    self._sockets.append(upstream)
                    for source, sink in ((client, upstream), (upstream, client)):
                        pump = threading.Thread(target=_pump, args=(source, sink), daemon=True)
                        self._pumps.append(pump)
                        pump.start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# --- helpers ----------------------------------------------------------------------------------


def _timed(timings: dict[str, float], label: str, call: Any, *args: Any, **kwargs: Any) -> Any:
    start = time.perf_counter()
    response = call(*args, **kwargs)
    timings[label] = seconds = time.perf_counter() - start
    assert seconds < HANG_GUARD_SECONDS, f"{label} took {seconds:.1f} s"
    return response


def _create(client: TestClient, name: str = "outage") -> Response:
    return client.post(DESIGNS, json={"name": name, "platform": EXAMPLE_PLATFORM})


def _assert_unavailable(response: Response) -> None:
    assert response.status_code == 503, response.text
    body = response.json()
    assert body == {"detail": UNAVAILABLE_DETAIL, "request_id": response.headers["X-Request-ID"]}
    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.headers["Content-Type"] == "application/json"
    # The security headers are on it like on every other answer.
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def _unavailable_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    records = [
        r
        for r in caplog.records
        if r.name == "nasplan" and r.getMessage().startswith("database unavailable")
    ]
    for record in records:
        assert record.levelno == logging.WARNING
        assert record.exc_info is None and record.stack_info is None
        assert "\n" not in record.getMessage()
    return records


def _bad_sql(session: Session, design_id: str) -> Any:
    """Stands in for ``service.get_design``: a bug that sends SQL the database rejects."""
    return session.execute(text("SELECT id FROM no_such_table WHERE id = :id"), {"id": design_id})


# --- PostgreSQL -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def postgres_database() -> Iterator[str]:
    with throwaway_database("nasplan_outage") as url:
        yield url


@pytest.fixture()
def proxy() -> Iterator[TcpProxy]:
    running = TcpProxy(("127.0.0.1", 5432))
    running.start()
    yield running
    running.stop()


def _through(url: str, port: int) -> str:
    return make_url(url).set(port=port).render_as_string(hide_password=False)


@pytest.fixture()
def postgres_app(kb: KnowledgeBase, postgres_database: str, proxy: TcpProxy) -> FastAPI:
    return create_app(Settings(DATABASE_URL=_through(postgres_database, proxy.port)), kb=kb)


def test_postgresql_outage_answers_503_and_recovers(
    postgres_app: FastAPI, proxy: TcpProxy, caplog: pytest.LogCaptureFixture
) -> None:
    timings: dict[str, float] = {}
    caplog.set_level(logging.WARNING, logger="nasplan")
    with TestClient(postgres_app) as client:
        created = _create(client, "before the outage")
        assert created.status_code == 201, created.text
        design_id = created.json()["id"]
        before = client.get(f"{DESIGNS}/{design_id}")
        assert before.status_code == 200
        assert proxy.connections > 0  # the pool holds a live connection through the proxy

        proxy.stop()  # the listener closes and every open connection is cut
        _assert_unavailable(_timed(timings, "GET down", client.get, f"{DESIGNS}/{design_id}"))
        _assert_unavailable(_timed(timings, "POST down", _create, client, "during the outage"))
        _assert_unavailable(_timed(timings, "GET down again", client.get, f"{DESIGNS}/{design_id}"))
        warnings = _unavailable_warnings(caplog)
        assert len(warnings) == 3
        assert "OperationalError" in warnings[0].getMessage()

        proxy.start()  # the same port: the app recovers without a restart
        after = _timed(timings, "GET back", client.get, f"{DESIGNS}/{design_id}")
        assert after.status_code == 200
        assert after.json() == before.json()
        again = _timed(timings, "POST back", _create, client, "after the outage")
        assert again.status_code == 201, again.text
        assert client.get(f"{DESIGNS}/{again.json()['id']}").status_code == 200
        # The design that failed during the outage was not half-saved.
        names = {
            client.get(f"{DESIGNS}/{i}").json()["name"] for i in (design_id, again.json()["id"])
        }
        assert names == {"before the outage", "after the outage"}
    print("\noutage timings (s): " + ", ".join(f"{k} {v:.3f}" for k, v in timings.items()))


def test_postgresql_that_hangs_answers_503_within_the_connect_timeout(
    postgres_app: FastAPI, proxy: TcpProxy
) -> None:
    """A server that accepts connections and never answers: connect_timeout ends the wait."""
    timings: dict[str, float] = {}
    with TestClient(postgres_app) as client:
        created = _create(client)
        assert created.status_code == 201
        proxy.stop()
        proxy.start(blackhole=True)
        response = _timed(timings, "GET hung", client.get, f"{DESIGNS}/{created.json()['id']}")
        _assert_unavailable(response)
        proxy.stop()
        proxy.start()
        recovered = client.get(f"{DESIGNS}/{created.json()['id']}")
        assert recovered.status_code == 200
    print(f"\nhung-server timings (s): GET hung {timings['GET hung']:.3f}")


def test_postgresql_down_at_start_up_fails_fast(kb: KnowledgeBase, postgres_database: str) -> None:
    """Start-up runs the migrations, so with the database down create_app raises an
    OperationalError naming the server and the reason, promptly (no retry loop, no hang)."""
    url = _through(postgres_database, _free_port())
    start = time.perf_counter()
    with pytest.raises(sa_exc.OperationalError) as raised:
        create_app(Settings(DATABASE_URL=url), kb=kb)
    assert time.perf_counter() - start < HANG_GUARD_SECONDS
    assert "Connection refused" in str(raised.value.orig)
    assert is_database_unavailable(raised.value)


def test_postgresql_bad_sql_is_still_a_500(
    postgres_app: FastAPI, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(postgres_app, raise_server_exceptions=False) as client:
        created = _create(client)
        assert created.status_code == 201
        monkeypatch.setattr(service, "get_design", _bad_sql)
        response = client.get(f"{DESIGNS}/{created.json()['id']}")
        assert response.status_code == 500
        assert response.json()["detail"] == INTERNAL_ERROR
        assert "Retry-After" not in response.headers
        assert not _unavailable_warnings(caplog)
        assert any(
            r.exc_info is not None and isinstance(r.exc_info[1], sa_exc.ProgrammingError)
            for r in caplog.records
        )
        monkeypatch.undo()
        # The failed transaction did not poison the pooled connection.
        assert client.get(f"{DESIGNS}/{created.json()['id']}").status_code == 200


# --- SQLite -----------------------------------------------------------------------------------


@pytest.fixture()
def sqlite_app(kb: KnowledgeBase, tmp_path: Path) -> FastAPI:
    return create_app(sqlite_settings(tmp_path), kb=kb)


def test_sqlite_session_failure_answers_503_once(
    sqlite_app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="nasplan")
    with TestClient(sqlite_app) as client:
        created = _create(client)
        assert created.status_code == 201
        design = f"{DESIGNS}/{created.json()['id']}"
        real_factory = sqlite_app.state.session_factory
        calls = 0

        def failing_once() -> Session:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise sa_exc.OperationalError("...", None, Exception("database is locked"))
            session: Session = real_factory()
            return session

        sqlite_app.state.session_factory = failing_once
        _assert_unavailable(client.get(design, headers={"X-Request-ID": "outage-1"}))
        assert client.get(design).status_code == 200
        assert calls == 2
    (warning,) = _unavailable_warnings(caplog)
    assert warning.getMessage().endswith("503: Exception: database is locked")
    assert f"GET {design}" in warning.getMessage()


def test_sqlite_write_lock_answers_503_then_the_write_succeeds(
    sqlite_app: FastAPI, tmp_path: Path
) -> None:
    """A real ``database is locked``: another connection holds the write lock longer than
    the busy timeout (shortened here from 30 s to 0.2 s)."""
    engine = sqlite_app.state.engine

    @event.listens_for(engine, "connect")
    def _short_busy_timeout(dbapi_connection: Any, _: Any) -> None:
        dbapi_connection.execute("PRAGMA busy_timeout=200")

    engine.dispose()
    with TestClient(sqlite_app) as client:
        created = _create(client)
        assert created.status_code == 201
        holder = sqlite3.connect(tmp_path / "nasplan.db", isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            _assert_unavailable(_create(client, "while locked"))
            # Readers are not blocked in WAL mode.
            assert client.get(f"{DESIGNS}/{created.json()['id']}").status_code == 200
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert _create(client, "after the lock").status_code == 201


def test_sqlite_bad_sql_is_still_a_500(
    sqlite_app: FastAPI, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """sqlite3 raises ``no such table`` as an OperationalError too: still the program's 500."""
    with TestClient(sqlite_app, raise_server_exceptions=False) as client:
        created = _create(client)
        monkeypatch.setattr(service, "get_design", _bad_sql)
        response = client.get(f"{DESIGNS}/{created.json()['id']}")
        assert response.status_code == 500
        assert response.json() == {
            "detail": INTERNAL_ERROR,
            "request_id": response.headers["X-Request-ID"],
        }
        assert "Retry-After" not in response.headers
        assert not _unavailable_warnings(caplog)


# --- what counts as "unavailable", and the session's end ------------------------------------


def _locked_error(tmp_path: Path) -> sa_exc.OperationalError:
    """A real SQLAlchemy-wrapped ``database is locked`` from sqlite3 (SQLITE_BUSY)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'locked.db'}")

    @event.listens_for(engine, "connect")
    def _no_wait(dbapi_connection: Any, _: Any) -> None:
        dbapi_connection.execute("PRAGMA busy_timeout=0")

    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE t (x INTEGER)"))
    holder = sqlite3.connect(tmp_path / "locked.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO t VALUES (1)"))
    except sa_exc.OperationalError as error:
        return error
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        engine.dispose()
    raise AssertionError("the insert was not locked out")


def test_what_counts_as_the_database_being_unavailable(tmp_path: Path) -> None:
    locked = _locked_error(tmp_path)
    assert "database is locked" in str(locked.orig)
    assert is_database_unavailable(locked)
    assert is_database_unavailable(sa_exc.TimeoutError("QueuePool limit reached"))
    assert is_database_unavailable(
        sa_exc.InterfaceError("SELECT 1", None, Exception("the connection is closed"))
    )
    invalidated = sa_exc.DBAPIError(
        "SELECT 1", None, Exception("gone"), connection_invalidated=True
    )
    assert is_database_unavailable(invalidated)

    no_table = sqlite3.connect(":memory:")
    with pytest.raises(sqlite3.OperationalError) as raised:
        no_table.execute("SELECT * FROM missing")
    no_table.close()
    assert not is_database_unavailable(sa_exc.OperationalError("SELECT", None, raised.value))
    assert not is_database_unavailable(
        sa_exc.InterfaceError("SELECT", None, sqlite3.InterfaceError("bad parameter"))
    )
    assert not is_database_unavailable(
        sa_exc.ProgrammingError("SELECT", None, Exception("syntax error"))
    )
    assert not is_database_unavailable(
        sa_exc.IntegrityError("INSERT", None, Exception("duplicate key"))
    )
    assert not is_database_unavailable(ValueError("not a database error"))


class _FakeApp:
    def __init__(self, state: Any) -> None:
        self.state = state


class _FakeRequest:
    def __init__(self, factory: Any) -> None:
        self.app = _FakeApp(type("State", (), {"session_factory": factory})())


def test_the_session_dependency_discards_a_broken_connection(sqlite_app: FastAPI) -> None:
    """After a connectivity failure the request's connection is invalidated (closed), not
    returned to the pool; after a normal request or a program error it goes back."""
    engine = sqlite_app.state.engine
    factory = sqlite_app.state.session_factory
    assert issubclass(factory.class_, RequestSession)
    engine.dispose()

    def run(error: Exception | None) -> sqlite3.Connection:
        dependency = get_session(_FakeRequest(factory))  # type: ignore[arg-type]
        session = next(dependency)
        session.execute(text("SELECT 1"))
        raw = session.connection().connection.dbapi_connection
        assert isinstance(raw, sqlite3.Connection)
        if error is None:
            with pytest.raises(StopIteration):
                next(dependency)
        else:
            with pytest.raises(type(error)):
                dependency.throw(error)
        assert engine.pool.checkedout() == 0
        return raw

    healthy = run(None)
    healthy.execute("SELECT 1")  # still open: it went back to the pool
    assert engine.pool.checkedin() == 1
    program_error = run(sa_exc.ProgrammingError("SELECT", None, Exception("syntax error")))
    program_error.execute("SELECT 1")
    broken = run(sa_exc.OperationalError("SELECT", None, Exception("database is locked")))
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        broken.execute("SELECT 1")
    # The same holds for the ``with session_factory() as session`` blocks of the routes.
    with pytest.raises(sa_exc.OperationalError), factory() as session:
        session.execute(text("SELECT 1"))
        raw = session.connection().connection.dbapi_connection
        raise sa_exc.OperationalError("SELECT", None, Exception("server closed the connection"))
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        raw.execute("SELECT 1")

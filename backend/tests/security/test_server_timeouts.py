"""The server's edge, on a real uvicorn server with the options ``nasplan serve`` uses.

Slow clients are cut off: a request head must arrive within ``NASPLAN_HEADER_TIMEOUT_S`` (the
timer runs from the connection, or the previous answer, however slowly bytes trickle in),
heads are capped at ``NASPLAN_MAX_HEADER_BYTES`` and a server holds at most
``NASPLAN_LIMIT_CONCURRENCY`` connections before answering 503. Paths no file can have
(a NUL byte) are 404, not 500.
"""

from __future__ import annotations

import contextlib
import json
import pickle
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import ASGIApp

from nasplan.api.limits import RequestBodyGuard
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app, server_options
from nasplan.settings import Settings

#: Seconds a test server may take to start (and a socket may wait for an answer).
START_TIMEOUT = 30.0
#: How long a cut-off may take beyond the configured header timeout on a loaded machine.
MARGIN = 5.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_settings(directory: Path, **environment: str) -> Settings:
    """Settings as the environment would give them (by their variable names), for a server on
    a free port of 127.0.0.1 with a SQLite database in ``directory``."""
    return Settings.model_validate(
        {
            "DATABASE_URL": f"sqlite:///{directory / 'nasplan.db'}",
            "HOST": "127.0.0.1",
            "PORT": str(free_port()),
            "NASPLAN_LOG_LEVEL": "WARNING",
            **environment,
        }
    )


@dataclass
class Running:
    server: uvicorn.Server
    host: str
    port: int

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def connect(self) -> socket.socket:
        return socket.create_connection((self.host, self.port), timeout=START_TIMEOUT)


@contextlib.contextmanager
def running_server(app: ASGIApp, settings: Settings) -> Iterator[Running]:
    """``app`` served by uvicorn in a thread, configured as ``nasplan serve`` configures it."""
    options: dict[str, Any] = server_options(settings)
    server = uvicorn.Server(uvicorn.Config(app, **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the test server did not start")
        time.sleep(0.02)
    try:
        yield Running(server, options["host"], options["port"])
    finally:
        server.should_exit = True
        thread.join(timeout=START_TIMEOUT)


def read_until_closed(sock: socket.socket, within: float) -> tuple[bytes, bool]:
    """What the server sends until it closes the connection (True) or ``within`` seconds
    pass (False)."""
    received = b""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            return received, True
        if not chunk:
            return received, True
        received += chunk
    return received, False


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


AppFactory = Callable[[Settings], FastAPI]


@pytest.fixture()
def app_factory(kb: KnowledgeBase) -> Iterator[AppFactory]:
    apps: list[FastAPI] = []

    def make(settings: Settings) -> FastAPI:
        app = create_app(settings, kb=kb)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.state.engine.dispose()


def test_a_stalled_request_head_is_cut_off(app_factory: AppFactory, tmp_path: Path) -> None:
    settings = server_settings(tmp_path, NASPLAN_HEADER_TIMEOUT_S="0.5")
    with running_server(app_factory(settings), settings) as running, running.connect() as sock:
        sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: nasplan\r\nX-Slow: ")
        started = time.monotonic()
        answer, closed = read_until_closed(sock, within=0.5 + MARGIN)
        elapsed = time.monotonic() - started
    assert closed, "the server kept a half-sent request open"
    assert elapsed >= 0.4
    assert status_of(answer) == 408


def test_a_head_trickling_in_byte_by_byte_is_cut_off(
    app_factory: AppFactory, tmp_path: Path
) -> None:
    """Each byte arriving in time does not extend the deadline: it is for the whole head."""
    settings = server_settings(tmp_path, NASPLAN_HEADER_TIMEOUT_S="1")
    head = b"GET /api/v1/health HTTP/1.1\r\nHost: nasplan\r\nX-Slow: " + b"a" * 1000
    with running_server(app_factory(settings), settings) as running, running.connect() as sock:
        started = time.monotonic()
        closed = False
        for byte in head:
            try:
                sock.sendall(bytes([byte]))
            except OSError:  # reset: the server has closed it
                closed = True
                break
            _, closed = read_until_closed(sock, within=0.1)
            if closed or time.monotonic() - started > 1 + MARGIN:
                break
        elapsed = time.monotonic() - started
    assert closed, f"still open after {elapsed:.1f} s of one byte every 0.1 s"
    assert elapsed < 1 + MARGIN


def test_idle_connections_with_no_request_are_closed(
    app_factory: AppFactory, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, NASPLAN_HEADER_TIMEOUT_S="0.5")
    with running_server(app_factory(settings), settings) as running, running.connect() as sock:
        answer, closed = read_until_closed(sock, within=0.5 + MARGIN)
    assert closed and answer == b""  # nothing was asked: nothing to answer


def test_normal_requests_keep_working(app_factory: AppFactory, tmp_path: Path) -> None:
    """Keep-alive requests on one connection, and a body slower than the header timeout
    (the head was complete in time: the body has its own deadline)."""
    settings = server_settings(tmp_path, NASPLAN_HEADER_TIMEOUT_S="1")
    with running_server(app_factory(settings), settings) as running:
        with httpx2.Client(base_url=running.base, timeout=30) as client:
            for _ in range(3):
                assert client.get("/api/v1/health").status_code == 200
                time.sleep(0.2)
            assert client.post("/api/v1/plans", json=EXAMPLE_PLATFORM).status_code == 200
        body = json.dumps(EXAMPLE_PLATFORM).encode()
        with running.connect() as sock:
            sock.sendall(
                b"POST /api/v1/plans HTTP/1.1\r\nHost: nasplan\r\n"
                b"Content-Type: application/json\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
            )
            time.sleep(2.5)  # longer than the header timeout
            sock.sendall(body)
            sock.settimeout(30)
            first = sock.recv(65536)
    assert status_of(first) == 200


def test_request_heads_are_capped(app_factory: AppFactory, tmp_path: Path) -> None:
    settings = server_settings(tmp_path, NASPLAN_MAX_HEADER_BYTES="8192")
    with running_server(app_factory(settings), settings) as running:
        with httpx2.Client(base_url=running.base, timeout=30) as client:
            fits = client.get("/api/v1/health", headers={"X-Padding": "a" * 4000})
            assert fits.status_code == 200
        head = (
            b"GET /api/v1/health HTTP/1.1\r\nHost: nasplan\r\n"
            + b"X-Padding: "
            + b"a" * 20_000
            + b"\r\n\r\n"
        )
        with running.connect() as whole:  # in one piece (h11 checks only incomplete heads)
            whole.sendall(head)
            answer, closed = read_until_closed(whole, within=MARGIN)
        assert closed and status_of(answer) == 431
        with running.connect() as pieces:
            for start in range(0, len(head), 1000):
                with contextlib.suppress(OSError):
                    pieces.sendall(head[start : start + 1000])
                time.sleep(0.01)
            answer, closed = read_until_closed(pieces, within=MARGIN)
        assert closed and status_of(answer) == 431


def test_connections_beyond_the_concurrency_limit_get_503(
    app_factory: AppFactory, tmp_path: Path
) -> None:
    """Stalled connections take places; when they are cut off, requests are served again."""
    settings = server_settings(
        tmp_path, NASPLAN_LIMIT_CONCURRENCY="3", NASPLAN_HEADER_TIMEOUT_S="2"
    )
    with running_server(app_factory(settings), settings) as running:
        stalled = [running.connect() for _ in range(3)]
        try:
            for sock in stalled:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: nasplan\r\n")
            deadline = time.monotonic() + MARGIN
            while len(running.server.server_state.connections) < 3:
                assert time.monotonic() < deadline, "the stalled connections were not accepted"
                time.sleep(0.01)
            assert httpx2.get(f"{running.base}/api/v1/health", timeout=30).status_code == 503
            deadline = time.monotonic() + 2 + MARGIN
            while httpx2.get(f"{running.base}/api/v1/health", timeout=30).status_code != 200:
                assert time.monotonic() < deadline, "still 503 after the stalled ones timed out"
                time.sleep(0.1)
        finally:
            for sock in stalled:
                sock.close()


def test_the_server_options_survive_the_trip_to_worker_processes(tmp_path: Path) -> None:
    """``--workers`` hands uvicorn's Config to new interpreters by pickling it."""
    options = server_options(server_settings(tmp_path, NASPLAN_HEADER_TIMEOUT_S="3.5"))
    copied = pickle.loads(pickle.dumps(options))
    assert copied["limit_concurrency"] == options["limit_concurrency"]
    assert copied["h11_max_incomplete_event_size"] == options["h11_max_incomplete_event_size"]
    assert copied["http"].keywords == {"header_timeout_s": 3.5}


# ------------------------------------------------------------------ paths no file can have
@pytest.mark.parametrize("path", ["/d/x%00", "/%00", "/d/%00/edit", "/x%00.js"])
def test_a_nul_in_a_page_path_is_404(app_factory: AppFactory, tmp_path: Path, path: str) -> None:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>nasplan</title>")
    settings = server_settings(tmp_path, NASPLAN_FRONTEND_DIST=str(dist))
    with TestClient(app_factory(settings), raise_server_exceptions=False) as client:
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json() == {"detail": "not found"}
        assert client.get("/d/x").status_code == 200  # other page paths: the page
        # A name too long for the file system is not a file either: the page, not a 500.
        assert client.get("/" + "a/" * 3000).status_code == 200
    with running_server(app_factory(settings), settings) as running, running.connect() as sock:
        sock.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: nasplan\r\n\r\n")
        sock.settimeout(30)
        assert status_of(sock.recv(65536)) == 404


def test_the_body_timeout_setting_reaches_the_body_guard(
    app_factory: AppFactory, tmp_path: Path
) -> None:
    app = app_factory(server_settings(tmp_path, NASPLAN_BODY_TIMEOUT_S="7.5"))
    guards: list[Any] = [RequestBodyGuard]
    [guard] = [m for m in app.user_middleware if m.cls in guards]
    assert guard.kwargs["body_timeout_s"] == 7.5

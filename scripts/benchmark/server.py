"""A nasplan server for one row: started on a free port, waited for, stopped; one HTTP request."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from benchmark.common import NASPLAN, ROOT


def free_port() -> int:
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port not in (8000, 8123):
            return port


def http(
    url: str, body: object = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request; a JSON body makes it a POST. urllib does not decompress gzip."""
    data = None if body is None else json.dumps(body).encode()
    request_headers = dict(headers or {})
    if data is not None:
        request_headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=request_headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        head = {k.lower(): v for k, v in response.headers.items()}
        return response.status, head, response.read()


def wait_healthy(base: str, proc: subprocess.Popen[bytes], timeout: float, log_path: Path) -> float:
    """perf_counter() of the first 200 from /health; raises if the process dies first."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/api/v1/health", timeout=1) as response:
                if response.status == 200:
                    return time.perf_counter()
        except (OSError, urllib.error.HTTPError):
            pass
        if proc.poll() is not None:
            tail = log_path.read_text(errors="replace")[-1500:]
            raise RuntimeError(f"server exited with {proc.returncode} before /health:\n{tail}")
        time.sleep(0.02)
    raise RuntimeError(f"no 200 from {base}/api/v1/health within {timeout:.0f} s")


def stop(proc: subprocess.Popen[bytes], group: bool = False) -> None:
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        if group:
            os.killpg(proc.pid, signal.SIGTERM)
        else:
            proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            if group:
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
        proc.wait(timeout=15)


@dataclass
class Server:
    base: str
    start_s: float
    pid: int = 0


@contextlib.contextmanager
def serve(
    tmp: Path,
    label: str,
    database_url: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> Iterator[Server]:
    """``nasplan serve`` on a free port; stopped on exit whatever happens."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp / f"{label}-{port}.log"
    full_env = {
        **os.environ,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DATABASE_URL": database_url or f"sqlite:///{tmp}/{label}-{port}.db",
        "NASPLAN_LOG_LEVEL": "WARNING",
        # A benchmark measures the server, never its rate limits.
        "NASPLAN_RATE_LIMIT_WRITES": "",
        "NASPLAN_RATE_LIMIT_COMPUTE": "",
        "NASPLAN_KNOWLEDGE_DIR": str(ROOT / "knowledge"),
        **(env or {}),
    }
    with log_path.open("wb") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [str(NASPLAN), "serve"], env=full_env, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            healthy = wait_healthy(base, proc, timeout, log_path)
            yield Server(base, healthy - started, proc.pid)
        finally:
            stop(proc)

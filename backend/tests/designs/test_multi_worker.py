"""Two app processes on one PostgreSQL database, as two replicas behind a proxy would run.

Each server is a real ``nasplan serve`` subprocess on a port of its own. The first two tests
share a throw-away database that ``nasplan migrate`` prepared before the servers started
(they do not migrate); the last starts two servers at once on an empty database, both
migrating. Skipped, with the reason printed, when PostgreSQL at 127.0.0.1:5432 is unreachable.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import IO, Any

import httpx2
import psycopg
import pytest

from nasplan.domain.platform import EXAMPLE_PLATFORM
from tests.postgres import throwaway_database

#: Seconds a server may take to answer its health check after it was started.
START_TIMEOUT = 45.0
REQUEST_TIMEOUT = 30.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _command(*args: str) -> list[str]:
    """The installed ``nasplan`` entry point of this interpreter's environment."""
    script = Path(sys.executable).with_name("nasplan")
    if script.is_file():
        return [str(script), *args]
    return [sys.executable, "-m", "nasplan.cli", *args]


def _env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NASPLAN_")}
    env.update(
        DATABASE_URL=database_url,
        HOST="127.0.0.1",
        NASPLAN_RATE_LIMIT_WRITES="",  # the tests write far faster than one client may
        NASPLAN_LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env


def _psycopg_dsn(database_url: str) -> str:
    return database_url.replace("postgresql+psycopg://", "postgresql://", 1)


class Server:
    """One ``nasplan serve`` process (a process group of its own: its workers go with it)."""

    def __init__(self, database_url: str, log_dir: Path, name: str, *args: str, **env: str):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}/api/v1"
        self.database_url = database_url
        self.log_path = log_dir / f"{name}.log"
        self.args = args
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def start(self) -> None:
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            _command("serve", *self.args),
            env=_env(self.database_url, PORT=str(self.port), **self.env),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"server exited with {self.process.returncode}:\n{self.log_tail()}")
            with contextlib.suppress(httpx2.HTTPError):
                if httpx2.get(f"{self.base}/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        pytest.fail(f"server not ready after {START_TIMEOUT} s:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL, as the kernel's OOM killer or a lost container would end it."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def log_tail(self) -> str:
        return self.log_text()[-4000:]


@contextlib.contextmanager
def _servers(servers: list[Server]) -> Iterator[list[Server]]:
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture(scope="module")
def replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Two servers on one database that ``nasplan migrate`` prepared."""
    log_dir = tmp_path_factory.mktemp("replicas")
    with throwaway_database("nasplan_mw") as url:
        migration = subprocess.run(
            _command("migrate"), env=_env(url), capture_output=True, timeout=60, check=False
        )
        assert migration.returncode == 0, migration.stderr.decode(errors="replace")
        assert b"at migration" in migration.stdout
        pair = [Server(url, log_dir, name, NASPLAN_MIGRATE_ON_START="false") for name in ("a", "b")]
        with _servers(pair):
            yield pair


def _create(client: httpx2.Client, base: str, name: str) -> dict[str, Any]:
    response = client.post(f"{base}/designs", json={"name": name, "platform": EXAMPLE_PLATFORM})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_revision_race_across_two_processes(replicas: list[Server]) -> None:
    """50 clients, split between the two processes, revise the same base revision at once:
    one 201 per base revision, 49 409s, no server error; the numbers stay contiguous."""
    bases = [server.base for server in replicas]
    with httpx2.Client(timeout=REQUEST_TIMEOUT) as client:
        created = _create(client, bases[0], "race across replicas")
    design_id = created["id"]
    headers = {"X-Edit-Token": created["edit_token"]}
    clients = 50
    url = f"/designs/{design_id}/revisions"

    def revise(i: int, base_revision: int, start: threading.Barrier) -> tuple[int, Any]:
        with httpx2.Client(timeout=REQUEST_TIMEOUT) as own:
            start.wait()
            response = own.post(
                f"{bases[i % 2]}{url}",
                json={"platform": EXAMPLE_PLATFORM, "base_revision": base_revision},
                headers=headers,
            )
            return response.status_code, response.json()

    for base_revision in (1, 2):
        start = threading.Barrier(clients)
        with ThreadPoolExecutor(max_workers=clients) as pool:
            results = list(
                pool.map(partial(revise, base_revision=base_revision, start=start), range(clients))
            )
        statuses = [status for status, _ in results]
        assert statuses.count(201) == 1, statuses
        assert statuses.count(409) == clients - 1, statuses
        winner = next(body for status, body in results if status == 201)
        assert winner["number"] == base_revision + 1
    for base in bases:
        design = httpx2.get(f"{base}/designs/{design_id}", timeout=REQUEST_TIMEOUT)
        assert design.status_code == 200
        assert [r["number"] for r in design.json()["revisions"]] == [1, 2, 3]


class Burst:
    """Writer threads: each saves a design and revises it twice, on alternating processes,
    pausing between designs, until stopped. Records what was acknowledged and every status."""

    def __init__(self, bases: list[str], threads: int = 4, pause: float = 0.15) -> None:
        self.bases = bases
        self.stop = threading.Event()
        self.pause = pause  # between designs: enough writes to catch a kill, few to check
        self.lock = threading.Lock()
        self.designs: dict[str, int] = {}  # acknowledged design id -> index of its server
        self.revisions: dict[str, set[int]] = defaultdict(set)  # acknowledged numbers
        self.statuses: list[int] = []
        self.transport_errors = 0
        self.misnumbered: list[tuple[str, int, int]] = []
        self.acked_by: dict[int, int] = defaultdict(int)  # server index -> 201s
        self.threads = [threading.Thread(target=self._write, args=(i,)) for i in range(threads)]

    def __enter__(self) -> Burst:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def _post(self, client: httpx2.Client, turn: int, path: str, **kw: Any) -> Any:
        index = turn % 2
        try:
            response = client.post(f"{self.bases[index]}{path}", **kw)
        except httpx2.HTTPError:
            with self.lock:
                self.transport_errors += 1
            time.sleep(0.05)
            return None
        with self.lock:
            self.statuses.append(response.status_code)
            if response.status_code == 201:
                self.acked_by[index] += 1
        return response.json() if response.status_code == 201 else None

    def _write(self, seed: int) -> None:
        turn = seed
        with httpx2.Client(timeout=REQUEST_TIMEOUT) as client:
            while not self.stop.wait(self.pause):
                turn += 1
                body = {"name": f"burst {seed}", "platform": EXAMPLE_PLATFORM}
                created = self._post(client, turn, "/designs", json=body)
                if created is None:
                    continue
                with self.lock:
                    self.designs[created["id"]] = turn % 2
                    self.revisions[created["id"]].add(1)
                for number in (2, 3):
                    turn += 1
                    revision = self._post(
                        client,
                        turn,
                        f"/designs/{created['id']}/revisions",
                        json={"platform": EXAMPLE_PLATFORM, "base_revision": number - 1},
                        headers={"X-Edit-Token": created["edit_token"]},
                    )
                    if revision is None:
                        break
                    with self.lock:
                        if revision["number"] != number:
                            self.misnumbered.append((created["id"], number, revision["number"]))
                        self.revisions[created["id"]].add(number)

    def wait_for(self, index: int, acks: int, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if self.acked_by[index] >= acks:
                    return
            time.sleep(0.05)
        pytest.fail(f"server {index} acknowledged fewer than {acks} writes in {timeout} s")


def test_sigkill_one_process_during_writes(replicas: list[Server]) -> None:
    """One process is SIGKILLed in the middle of a burst of saves and revisions and started
    again; everything acknowledged is readable on both, and nothing is half written."""
    a, b = replicas
    bases = [a.base, b.base]
    with Burst(bases) as burst:
        burst.wait_for(1, 6)  # b is busy writing
        b.kill()
        time.sleep(0.5)  # a keeps writing; writes sent to b fail
        b.stop()
        b.start()
        b.wait_ready()
        with burst.lock:
            before = burst.acked_by[1]
        burst.wait_for(1, before + 3)  # the restarted b writes again
    assert all(status in (201, 409) for status in burst.statuses), sorted(set(burst.statuses))
    assert burst.designs, "nothing was written"
    assert not burst.misnumbered, burst.misnumbered

    def check(design_id: str) -> list[str]:
        problems: list[str] = []
        with httpx2.Client(timeout=REQUEST_TIMEOUT) as client:
            listed: list[int] = []
            for base in bases:
                response = client.get(f"{base}/designs/{design_id}")
                if response.status_code != 200:
                    return [f"{design_id}: {response.status_code} from {base}"]
                listed = [r["number"] for r in response.json()["revisions"]]
                if listed != list(range(1, len(listed) + 1)):
                    problems.append(f"{design_id}: revisions {listed} from {base}")
            missing = burst.revisions[design_id] - set(listed)
            if missing:
                problems.append(f"{design_id}: acknowledged revisions {missing} not listed")
            for number in listed:
                base = bases[number % 2]
                response = client.get(f"{base}/designs/{design_id}/revisions/{number}")
                if response.status_code != 200 or response.json()["number"] != number:
                    problems.append(f"{design_id} r{number}: {response.status_code} from {base}")
        return problems

    with ThreadPoolExecutor(max_workers=8) as pool:
        problems = [p for found in pool.map(check, list(burst.designs)) for p in found]
    assert not problems, problems[:20]
    assert not _half_written(a.database_url)


def _half_written(database_url: str) -> list[str]:
    """Rows a write interrupted half-way would leave: a design without its first revision,
    gaps in a design's revision numbers, a revision without its design, plan or plan part."""
    queries = {
        "designs without revision 1": """
            SELECT d.id FROM designs d
            WHERE NOT EXISTS (SELECT 1 FROM revisions r WHERE r.design_id = d.id AND r.number = 1)
        """,
        "designs with gaps in their revision numbers": """
            SELECT design_id FROM revisions GROUP BY design_id
            HAVING count(*) <> max(number) OR min(number) <> 1
        """,
        "revisions without their design": """
            SELECT r.id FROM revisions r LEFT JOIN designs d ON d.id = r.design_id
            WHERE d.id IS NULL
        """,
        "revisions without a plan": """
            SELECT r.id FROM revisions r
            LEFT JOIN plan_parts p ON p.digest = r.rules_digest
            WHERE (r.plan_z IS NULL AND coalesce(r.plan_json, '') = '')
               OR (r.rules_digest IS NOT NULL AND p.digest IS NULL)
        """,
    }
    found: list[str] = []
    with psycopg.connect(_psycopg_dsn(database_url)) as connection:
        for label, query in queries.items():
            rows = connection.execute(query).fetchall()
            if rows:
                found.append(f"{label}: {[row[0] for row in rows[:5]]}")
    return found


def test_simultaneous_starts_on_a_fresh_database(tmp_path: Path) -> None:
    """A two-worker server and a single-process one start at the same moment on an empty
    database, both migrating on start: the advisory lock lets one migrate while the other
    waits, both come up, and the workers log JSON lines."""
    with throwaway_database("nasplan_mw") as url:
        servers = [
            Server(url, tmp_path, "workers", "--workers", "2", NASPLAN_LOG_LEVEL="INFO"),
            Server(url, tmp_path, "single"),
        ]
        with _servers(servers) as (multi, single):
            with httpx2.Client(timeout=REQUEST_TIMEOUT) as client:
                created = _create(client, multi.base, "fresh start")
                read = client.get(f"{single.base}/designs/{created['id']}")
                assert read.status_code == 200
                assert read.headers["X-Request-ID"]
            with psycopg.connect(_psycopg_dsn(url)) as connection:
                versions = connection.execute("SELECT version_num FROM alembic_version").fetchall()
            assert len(versions) == 1
        records = [json.loads(line) for line in multi.log_text().splitlines() if line.strip()]
        started = {
            r["message"] for r in records if r["message"].startswith("Started server process")
        }
        assert len(started) == 2, records  # one line from each worker process, as JSON

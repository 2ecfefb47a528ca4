#!/usr/bin/env python3
"""nasplan performance targets, each measured beside its baseline in the same run, on loopback.

Every HTTP figure comes from wrk against a nasplan server this script starts (one uvicorn worker,
SQLite in a temporary directory unless the row is about PostgreSQL, NASPLAN_LOG_LEVEL=WARNING,
the write rate limit off). Rows (``--only`` takes their names, comma-separated):

  plans    POST /api/v1/plans with a different platform on every request (memory_gb changes, so
           the server's cache of recent plans never answers) at 1, 8 and 64 connections, against
           GET /api/v1/health at the same connection count: rps ratio >= 0.5 at each, and
           p99 <= 25 ms at 8 connections. The same platform every time is shown for reference.
  size     the plan's response size, default vs ?explain=full, plain and gzip (<= 15 KiB plain).
  bundle   POST /api/v1/plans/bundle (zip) rps against health rps: >= 0.15x.
  runbook  POST /api/v1/plans/runbook?format=html rps against health rps: >= 0.3x.
           bundle and runbook: the same platform every request (the target row) and a
           different platform every request (reported beside it).
  designs  GET /api/v1/designs/{id} on SQLite and on PostgreSQL, with 1 design and with N
           (--designs, default 100000) in the database, against health on the same server:
           >= 0.5x, and the N-design figure (ids drawn at random from 1000 of them) within 20%
           of the 1-design figure. Designs beyond the first five (made through the API) are
           bulk-copied in SQL from those five, with new random ids.
  storage  bytes per design on SQLite (file growth over the bulk copy / designs copied, and
           plan_json + platform_json bytes per revision): <= 10 KB. Uses the designs database.
  kb       knowledge base x1, x10, x100 (scripts/gen_kb.py, cached under
           /tmp/nasplan-bench-kb): server start (process start -> first 200 from /health) and mean
           plan time (wrk at 1 connection, distinct platforms; and make_plan in-process over 20
           corpus platforms): start <= 5 s at x100, plan at x100 <= 2x the x1 time.
  restart  ./scripts/run.sh run once (stamps), then a second run timed to the first 200 from
           /health: <= 5 s.
  collection  this machine's own collection (the Linux collector the server serves, run here):
           POST /api/v1/collections with its nasplan-collect.tar, and POST /api/v1/audits with
           the files it holds against a Linux platform, each at 1 connection beside health:
           mean <= 250 ms each (an upload and its audit feel immediate).
  hostile  the worst 1 MB paste of each audit file kind (scripts/bench_hostile.py): answered
           within 1 s, /health under 50 ms meanwhile, server memory back within 20% after.
  lab      the lab (scripts/bench_lab.py): image build cold and cached, a bare boot, each
           matrix platform's journey beside the bare boots it needs; matrix <= 15 min.

--baseline-ref REF also runs the plans row against REF (git worktree at /tmp/bench-base, served
with PYTHONPATH=<worktree>/backend from this venv) and prints both side by side.

    .venv/bin/python scripts/bench.py [--seconds 5] [--quick] [--only plans,size]
        [--designs 100000] [--baseline-ref HEAD~3]

Progress goes to stderr, the report to stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from nasplan.domain.platform import EXAMPLE_PLATFORM

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
NASPLAN = VENV_BIN / "nasplan"
PYTHON = VENV_BIN / "python"
KB_CACHE = Path("/tmp/nasplan-bench-kb")
WORKTREE = Path("/tmp/bench-base")
CORPUS = ROOT / "backend" / "tests" / "corpus" / "platforms.yaml"
PG = [
    "psql",
    "-X",
    "-q",
    "-At",
    "-v",
    "ON_ERROR_STOP=1",
    "-h",
    "127.0.0.1",
    "-U",
    "postgres",
]
ROWS = (
    "plans", "size", "bundle", "runbook", "collection", "designs", "storage", "kb", "restart",
    "hostile", "lab",
)  # fmt: skip
PLAN_CONNECTIONS = (1, 8, 64)
SEED_DESIGNS = 20
RANDOM_IDS = 1000
POPULATE_BUDGET_S = 120
KIB = 1024

# The TR-3322 lab platform, the API's own example.
PLATFORM = EXAMPLE_PLATFORM

# In-process plan timing, run with the venv's Python: argv = knowledge dir, corpus file.
INPROCESS_TIMING = """
import json, sys, time
from pathlib import Path
import yaml
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.loader import load_knowledge
started = time.perf_counter()
kb = load_knowledge(Path(sys.argv[1]))
load_s = time.perf_counter() - started
entries = yaml.safe_load(Path(sys.argv[2]).read_text())["platforms"]
platforms = [Platform.model_validate(e["platform"]) for e in entries]
make_plan(kb, platforms[20 % len(platforms)])  # warm-up on a platform outside the 20 timed
times = []
for platform in platforms[:20]:
    started = time.perf_counter()
    make_plan(kb, platform)
    times.append(time.perf_counter() - started)
print(json.dumps({"load_s": load_s, "plan_ms": 1000 * sum(times) / len(times), "n": len(times)}))
"""

_T0 = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - _T0:6.0f}s] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port not in (8000, 8123):
            return port


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    log("wrk not found: installing it from Debian (apt-get install wrk)")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(
        [*sudo, "apt-get", "install", "-y", "-qq", "wrk"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return shutil.which("wrk") or sys.exit("wrk could not be installed")


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


def wait_healthy(
    base: str, proc: subprocess.Popen[bytes], timeout: float, log_path: Path
) -> float:
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
            raise RuntimeError(
                f"server exited with {proc.returncode} before /health:\n{tail}"
            )
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
        "NASPLAN_RATE_LIMIT_WRITES": "",
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


@dataclass
class Wrk:
    exe: str
    seconds: int
    threads: int
    tmp: Path
    scripts: int = 0
    next_memory: int = 1

    def run(
        self,
        url: str,
        connections: int,
        lua: str | None = None,
        seconds: int | None = None,
    ) -> dict[str, float]:
        threads = max(1, min(self.threads, connections))
        command = [
            self.exe,
            f"-t{threads}",
            f"-c{connections}",
            f"-d{seconds or self.seconds}s",
            "--timeout",
            "10s",
            "--latency",
        ]
        if lua is not None:
            self.scripts += 1
            path = self.tmp / f"wrk-{self.scripts}.lua"
            path.write_text(lua)
            command += ["-s", str(path)]
        done = subprocess.run(
            [*command, url], check=True, capture_output=True, text=True
        )
        output = done.stdout
        found = re.search(r"Requests/sec:\s+([\d.]+)", output)
        if found is None:
            raise RuntimeError(f"wrk printed no Requests/sec:\n{output}\n{done.stderr}")
        rps = float(found.group(1))

        def millis(pattern: str) -> float:
            value, unit = re.search(pattern, output).groups()  # type: ignore[union-attr]
            return (
                float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]
            )

        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        socket_errors = re.search(r"Socket errors: (.*)", output)
        return {
            "rps": rps,
            "avg_ms": millis(r"Latency\s+([\d.]+)(us|ms|s|m)\b"),
            "p50_ms": millis(r"\s50%\s+([\d.]+)(us|ms|s|m)\b"),
            "p99_ms": millis(r"\s99%\s+([\d.]+)(us|ms|s|m)\b"),
            "non_2xx": float(errors.group(1)) if errors else 0.0,
            "socket_errors": 1.0 if socket_errors else 0.0,
        }

    def distinct_memory(self) -> int:
        """First memory_gb of a distinct-platform run: each run starts where the last ended,
        so no run repeats a platform the server's cache (512 plans) could still hold."""
        start = self.next_memory
        self.next_memory = (self.next_memory + 16384) % 65536
        return start


def lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def lua_bytes(data: bytes) -> str:
    """Any bytes as a Lua string literal (decimal escapes for all but plain ASCII)."""
    return (
        '"'
        + "".join(
            chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:03d}"
            for b in data
        )
        + '"'
    )


def lua_post_bytes(path: str, data: bytes, content_type: str) -> str:
    """The same POST body every request, set through wrk's own request fields: Debian's wrk
    4.1 sends a request that wrk.format() built at load time as one uvicorn cannot parse
    ("Invalid HTTP request received"), so every answer was a 400."""
    return (
        'wrk.method = "POST"\n'
        f"wrk.path = {lua_string(path)}\n"
        f"wrk.body = {lua_bytes(data)}\n"
        f'wrk.headers["Content-Type"] = {lua_string(content_type)}\n'
    )


def lua_post(path: str, platform: dict[str, object]) -> str:
    """The same JSON body every request."""
    return lua_post_bytes(path, json.dumps(platform).encode(), "application/json")


def lua_distinct(path: str, first_memory: int) -> str:
    """A different memory_gb (1..65536) every request; wrk threads start 4096 apart."""
    template = json.dumps(
        {**PLATFORM, "host": {**PLATFORM["host"], "memory_gb": 999999}}
    )
    template = template.replace('"memory_gb": 999999', '"memory_gb": __MEM__')
    return (
        f"local template = {lua_string(template)}\n"
        'local headers = {["Content-Type"] = "application/json"}\n'
        "local threads = 0\n"
        "setup = function(thread)\n"
        "  thread:set('offset', threads * 4096)\n"
        "  threads = threads + 1\n"
        "end\n"
        "local counter = 0\n"
        f"init = function(args) counter = {first_memory} + (offset or 0) end\n"
        "request = function()\n"
        "  counter = counter + 1\n"
        '  local text = string.gsub(template, "__MEM__", tostring(counter % 65536 + 1))\n'
        f"  return wrk.format('POST', {lua_string(path)}, headers, text)\n"
        "end\n"
    )


def lua_random_get(prefix: str, ids: list[str]) -> str:
    listed = ",\n".join(lua_string(i) for i in ids)
    return (
        f"local ids = {{\n{listed}\n}}\n"
        "init = function(args) math.randomseed(os.time() + math.floor(os.clock() * 1e6)) end\n"
        "request = function()\n"
        f"  return wrk.format('GET', {lua_string(prefix)} .. ids[math.random(#ids)])\n"
        "end\n"
    )


@dataclass
class Report:
    rows: list[tuple[str, str, str, str, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)

    def add(
        self,
        what: str,
        measured: str,
        baseline: str,
        result: str,
        target: str,
        ok: bool | None,
    ) -> None:
        verdict = "—" if ok is None else ("met" if ok else "MISSED")
        self.rows.append((what, measured, baseline, result, target, verdict))

    def missing(self, what: str, target: str, why: str) -> None:
        self.rows.append((what, "not measured", "—", why, target, "n/a"))

    def print(self, header: list[str]) -> None:
        for line in header:
            print(line)
        print()
        titles = (
            "what",
            "measured",
            "baseline (same run)",
            "result",
            "target",
            "verdict",
        )
        widths = [max(len(r[i]) for r in [titles, *self.rows]) for i in range(6)]

        def line(cells: tuple[str, ...]) -> str:
            return (
                "| "
                + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
                + " |"
            )

        print(line(titles))
        print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        for row in self.rows:
            print(line(row))
        for block in self.extra:
            print()
            print(block)
        if self.notes:
            print()
            print("Notes:")
            for note in dict.fromkeys(self.notes):
                print(f"- {note}")


def fmt_run(result: dict[str, float], p99: bool = True) -> str:
    text = f"{result['rps']:.0f} rps"
    if p99:
        text += f", p99 {result['p99_ms']:.1f} ms"
    if result["non_2xx"]:
        text += f" ({int(result['non_2xx'])} NON-2xx!)"
    if result["socket_errors"]:
        text += " (socket errors!)"
    return text


@dataclass
class Bench:
    args: argparse.Namespace
    wrk: Wrk
    tmp: Path
    report: Report
    health_cache: dict[tuple[str, int], dict[str, float]] = field(default_factory=dict)

    def health(self, server: Server, connections: int) -> dict[str, float]:
        key = (server.base, connections)
        if key not in self.health_cache:
            log(f"wrk GET /api/v1/health c{connections}")
            self.health_cache[key] = self.wrk.run(
                f"{server.base}/api/v1/health", connections
            )
        return self.health_cache[key]

    # ------------------------------------------------------------------ plans, size, bundles

    def plans_rows(
        self, server: Server, label: str = ""
    ) -> dict[int, tuple[dict[str, float], dict[str, float]]]:
        """health and distinct-platform plans at each connection count."""
        base = server.base
        log(f"warming up /health and /plans{label}")
        self.wrk.run(f"{base}/api/v1/health", 4, seconds=1)
        self.wrk.run(
            base, 4, lua_distinct("/api/v1/plans", self.wrk.distinct_memory()), 1
        )
        results = {}
        for connections in PLAN_CONNECTIONS:
            health = self.health(server, connections)
            log(f"wrk POST /api/v1/plans distinct c{connections}{label}")
            lua = lua_distinct("/api/v1/plans", self.wrk.distinct_memory())
            results[connections] = (health, self.wrk.run(base, connections, lua))
        return results

    def plans(self, server: Server) -> None:
        results = self.plans_rows(server)
        for connections, (health, plans) in results.items():
            ratio = plans["rps"] / health["rps"]
            target = "ratio >= 0.5"
            ok = ratio >= 0.5
            if connections == 8:
                target += "; p99 <= 25 ms"
                ok = ok and plans["p99_ms"] <= 25
            self.report.add(
                f"POST /plans, distinct platforms, c{connections}",
                fmt_run(plans),
                f"health {fmt_run(health)}",
                f"ratio {ratio:.2f}",
                target,
                ok,
            )
        c = self.args.connections
        log(f"wrk POST /api/v1/plans same platform c{c} (reference)")
        same = self.wrk.run(server.base, c, lua_post("/api/v1/plans", PLATFORM))
        health = self.health(server, c)
        self.report.add(
            f"  reference: POST /plans, same platform, c{c}",
            fmt_run(same),
            f"health {fmt_run(health)}",
            f"ratio {same['rps'] / health['rps']:.2f}",
            "(cached; no target)",
            None,
        )
        self.plans_result = results

    def size(self, server: Server) -> None:
        log("plan response sizes")
        sizes = {}
        for explain in ("ids", "full"):
            url = f"{server.base}/api/v1/plans" + (
                "?explain=full" if explain == "full" else ""
            )
            status, _, plain = http(url, PLATFORM)
            status_gz, head, zipped = http(url, PLATFORM, {"Accept-Encoding": "gzip"})
            if status != 200 or status_gz != 200:
                raise RuntimeError(f"POST {url}: {status}/{status_gz}")
            encoded = head.get("content-encoding") == "gzip"
            if encoded and gzip.decompress(zipped) != plain:
                raise RuntimeError("gzip body does not decompress to the plain body")
            declared = head.get("content-length")
            gz_note = f"gzip {len(zipped):,} B" + (
                "" if encoded else " (NOT gzip-encoded)"
            )
            if declared is not None and int(declared) != len(zipped):
                gz_note += f", Content-Length {declared}"
            sizes[explain] = (len(plain), gz_note)
        default, full = sizes["ids"], sizes["full"]
        self.report.add(
            "plan response size (bench platform)",
            f"{default[0]:,} B; {default[1]}",
            f"?explain=full {full[0]:,} B; {full[1]}",
            f"{default[0] / KIB:.1f} KiB ({100 * default[0] / full[0]:.0f}% of full)",
            "<= 15 KiB uncompressed",
            default[0] <= 15 * KIB,
        )

    def files(self, server: Server, row: str) -> None:
        path, factor = {
            "bundle": ("/api/v1/plans/bundle", 0.15),
            "runbook": ("/api/v1/plans/runbook?format=html", 0.3),
        }[row]
        status, head, body = http(server.base + path, PLATFORM)
        kind = head.get("content-type", "?").split(";")[0]
        if status != 200:
            raise RuntimeError(f"POST {path}: {status}")
        c = self.args.connections
        health = self.health(server, c)
        log(f"wrk POST {path} same platform c{c}")
        self.wrk.run(server.base, 4, lua_post(path, PLATFORM), seconds=1)
        same = self.wrk.run(server.base, c, lua_post(path, PLATFORM))
        log(f"wrk POST {path} distinct platforms c{c}")
        distinct = self.wrk.run(
            server.base, c, lua_distinct(path, self.wrk.distinct_memory())
        )
        for variant, result in (
            ("same platform", same),
            ("distinct platforms", distinct),
        ):
            ratio = result["rps"] / health["rps"]
            self.report.add(
                f"POST {path.split('?')[0].removeprefix('/api/v1')} ({row}), {variant}, c{c}",
                fmt_run(result),
                f"health {fmt_run(health)}",
                f"ratio {ratio:.2f}",
                f">= {factor}x health",
                ratio >= factor,
            )
        self.report.notes.append(
            f"{row}: {kind}, {len(body):,} B for the bench platform."
        )

    def collection(self, server: Server) -> None:
        """This machine's collection read and audited, each at 1 connection beside health."""
        with urllib.request.urlopen(
            f"{server.base}/api/v1/collector/linux", timeout=60
        ) as got:
            (self.tmp / "collect.sh").write_bytes(got.read())
        out = self.tmp / "collection"
        subprocess.run(
            ["sh", str(self.tmp / "collect.sh"), str(out)],
            check=True,
            capture_output=True,
        )
        archive = (out / "nasplan-collect.tar").read_bytes()
        request = urllib.request.Request(
            f"{server.base}/api/v1/collections",
            data=archive,
            headers={"Content-Type": "application/x-tar"},
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            report = json.loads(answer.read())
        from nasplan.knowledge.loader import load_knowledge

        platform = (
            load_knowledge(ROOT / "knowledge").presets["current-linux-ontap"].platform
        )
        body = {"platform": platform, "pastes": report["pastes"]}
        status, _, audited = http(f"{server.base}/api/v1/audits", body)
        if status != 200:
            raise RuntimeError(f"POST /audits: {status}")
        lines = sum(json.loads(audited)["checked"].values())
        health = self.health(server, 1)
        runs = {
            "POST /collections": lua_post_bytes(
                "/api/v1/collections", archive, "application/x-tar"
            ),
            "POST /audits": lua_post("/api/v1/audits", body),
        }
        for label, lua in runs.items():
            log(f"wrk {label} c1")
            self.wrk.run(server.base, 1, lua, seconds=1)
            result = self.wrk.run(server.base, 1, lua)
            self.report.add(
                f"{label}, this machine's collection, c1",
                f"mean {result['avg_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms"
                + (
                    f" ({int(result['non_2xx'])} NON-2xx!)" if result["non_2xx"] else ""
                ),
                f"health mean {health['avg_ms']:.2f} ms",
                f"{result['avg_ms'] / max(health['avg_ms'], 0.001):.0f}x health",
                "mean <= 250 ms",
                result["avg_ms"] <= 250 and not result["non_2xx"],
            )
        self.report.notes.append(
            f"collection: {len(archive):,} B tar, {len(report['files'])} files, "
            f"{len(report['pastes'])} audited ({lines} lines and values checked)."
        )

    def server_rows(self, rows: set[str]) -> None:
        log(
            "starting nasplan (SQLite) for the plan, size, bundle, runbook and collection rows"
        )
        with serve(self.tmp, "main", env={"NASPLAN_RATE_LIMIT_COMPUTE": ""}) as server:
            for row in ("plans", "size", "bundle", "runbook", "collection"):
                if row not in rows:
                    continue
                self.guarded(row, lambda row=row: self.server_row(server, row))

    def server_row(self, server: Server, row: str) -> None:
        if row == "plans":
            self.plans(server)
        elif row == "collection":
            self.collection(server)
        elif row == "size":
            self.size(server)
        else:
            self.files(server, row)

    def guarded(self, row: str, action: object) -> None:
        try:
            action()  # type: ignore[operator]
        except Exception as error:
            detail = str(error)
            if isinstance(error, subprocess.CalledProcessError):
                command = " ".join(str(part) for part in error.cmd)[:120]
                detail = (
                    f"{command} exited {error.returncode}: {str(error.stderr)[-800:]}"
                )
            log(f"{row}: FAILED: {detail}")
            first_line = (detail.splitlines() or ["?"])[0][:80]
            self.report.missing(row, "see above", f"failed: {first_line}")
            self.report.notes.append(f"{row} failed: {detail}")

    # ------------------------------------------------------------------ designs and storage

    def designs(self, kind: str, measure: bool, storage: bool) -> None:
        n = self.args.designs
        pg_name = f"bench_{os.getpid()}_{secrets.token_hex(3)}"
        if kind == "sqlite":
            db = DesignsSqlite(self.tmp / "designs.db")
        else:
            subprocess.run(
                [*PG, "-d", "test", "-c", f"CREATE DATABASE {pg_name}"], check=True
            )
            db = DesignsPostgres(pg_name)
        try:
            log(f"starting nasplan on {kind} for the designs row")
            with serve(self.tmp, f"designs-{kind}", db.url) as server:
                self.designs_on(server, db, kind, n, measure, storage)
        finally:
            if isinstance(db, DesignsPostgres):
                drop = f"DROP DATABASE IF EXISTS {pg_name} WITH (FORCE)"
                subprocess.run([*PG, "-d", "test", "-c", drop], check=False)

    def designs_on(
        self,
        server: Server,
        db: DesignsSqlite | DesignsPostgres,
        kind: str,
        n: int,
        measure: bool,
        storage: bool,
    ) -> None:
        c = self.args.connections
        first = create_design(server.base, "bench 0", PLATFORM)
        url_first = f"{server.base}/api/v1/designs/{first}"
        status, _, body = http(url_first)
        if status != 200:
            raise RuntimeError(f"GET design: {status}")
        one: dict[str, float] = {}
        health_one: dict[str, float] = {}
        if measure:
            log(f"{kind}: 1 design: wrk health and GET /designs/{{id}} c{c}")
            self.wrk.run(url_first, 4, seconds=1)
            health_one = self.wrk.run(f"{server.base}/api/v1/health", c)
            one = self.wrk.run(url_first, c)
        size_first = db.size()
        seeds = 1
        for i, platform in enumerate(corpus_platforms()[: SEED_DESIGNS - 1], start=1):
            with contextlib.suppress(RuntimeError, urllib.error.HTTPError):
                create_design(server.base, f"bench {i}", platform)
                seeds += 1
        size_before = db.size()
        started = time.perf_counter()
        log(f"{kind}: {seeds} designs through the API; bulk-copying them up to {n:,}")
        db.populate(n - seeds)
        populate_s = time.perf_counter() - started
        size_after = db.size()
        count = db.count()
        log(f"{kind}: {count:,} designs in {populate_s:.0f} s")
        over = populate_s > POPULATE_BUDGET_S
        self.report.notes.append(
            f"{kind}: {count:,} designs ({seeds} made through the API from the bench platform "
            f"and corpus platforms, the rest bulk-copied from them in SQL) in {populate_s:.0f} s"
            + (
                f", OVER the {POPULATE_BUDGET_S} s budget: pass a lower --designs."
                if over
                else "."
            )
        )
        copied = count - seeds
        if storage and kind == "sqlite" and copied > 0:
            per_copy = (size_after - size_before) / copied
            per_api = (size_before - size_first) / max(1, seeds - 1)
            columns = db.column_bytes()
            worst = max(per_copy, per_api)
            self.report.add(
                "storage per design, SQLite",
                f"file growth {per_api / KIB:.1f} KiB/design over {seeds - 1} API-made "
                f"(distinct corpus platforms), {per_copy / KIB:.1f} KiB over {copied:,} copies",
                "per revision: "
                + ", ".join(
                    f"{name} {value / KIB:.1f} KiB" for name, value in columns.items()
                ),
                f"{worst:,.0f} B/design (larger)",
                "<= 10 KB",
                worst <= 10_000,
            )
            self.report.notes.append(
                "storage: file sizes after PRAGMA wal_checkpoint(TRUNCATE). The API-made "
                "designs use distinct corpus platforms, so each adds its own manifest and the "
                "explanations of rules no earlier design cited (over-estimates a large "
                "population, where rule sets repeat); the copies share their template's "
                "plan_parts (under-estimates it). The verdict takes the larger."
            )
        if kind == "postgresql" and copied > 0:
            self.report.notes.append(
                f"postgresql: database growth {(size_after - size_before) / copied / KIB:.1f} "
                "KiB/design (pg_database_size; TOAST compresses the JSON text)."
            )
        if not measure:
            return
        ids = db.sample_ids(RANDOM_IDS)
        log(
            f"{kind}: {count:,} designs: wrk health, GET random of {len(ids)} ids, GET fixed id"
        )
        lua = lua_random_get("/api/v1/designs/", ids)
        self.wrk.run(server.base, 4, lua, seconds=1)
        health_n = self.wrk.run(f"{server.base}/api/v1/health", c)
        many = self.wrk.run(server.base, c, lua)
        fixed = self.wrk.run(url_first, c)
        ratio_one = one["rps"] / health_one["rps"]
        ratio_many = many["rps"] / health_n["rps"]
        flat = many["rps"] / one["rps"]
        self.report.add(
            f"GET /designs/{{id}}, {kind}, 1 design, c{c}",
            fmt_run(one),
            f"health {fmt_run(health_one)}",
            f"ratio {ratio_one:.2f}",
            ">= 0.5x health",
            ratio_one >= 0.5,
        )
        self.report.add(
            f"GET /designs/{{id}}, {kind}, {count:,} designs (random id), c{c}",
            fmt_run(many),
            f"health {fmt_run(health_n)}",
            f"ratio {ratio_many:.2f}; {flat:.2f}x 1-design",
            ">= 0.5x health; flat +-20%",
            ratio_many >= 0.5 and abs(flat - 1) <= 0.2,
        )
        self.report.add(
            f"  reference: same, fixed id, {count:,} designs, c{c}",
            fmt_run(fixed),
            f"health {fmt_run(health_n)}",
            f"{fixed['rps'] / one['rps']:.2f}x 1-design",
            "(no target)",
            None,
        )
        self.report.notes.append(
            f"{kind}: GET /designs/{{id}} answers {len(body):,} B (no gzip)."
        )

    # ------------------------------------------------------------------ knowledge base

    def kb(self) -> None:
        factors = (1, 10) if self.args.quick else (1, 10, 100)
        measured: dict[int, tuple[float, float, float, dict[str, float]]] = {}
        first_plans: dict[int, float] = {}
        for factor in factors:
            kb_dir = knowledge_dir(factor)
            # An empty parsed-file cache (nasplan.knowledge.parsed_cache) for the first start,
            # the one that start filled for the second.
            env = {
                "NASPLAN_KNOWLEDGE_DIR": str(kb_dir),
                "NASPLAN_CACHE_DIR": str(self.tmp / f"kb-cache-{factor}"),
            }
            log(f"kb x{factor}: starting nasplan with {kb_dir} (empty parse cache)")
            with serve(self.tmp, f"kb{factor}-cold", env=env) as s:
                cold = s.start_s
            log(
                f"kb x{factor}: cold start {cold:.2f} s; starting again (warm parse cache)"
            )
            with serve(self.tmp, f"kb{factor}", env=env) as s:
                warm = s.start_s
                log(
                    f"kb x{factor}: warm start {warm:.2f} s; first plan, then wrk plans c1"
                )
                before = time.perf_counter()
                http(f"{s.base}/api/v1/plans", PLATFORM)
                first_plan = 1000 * (time.perf_counter() - before)
                lua = lua_distinct("/api/v1/plans", self.wrk.distinct_memory())
                self.wrk.run(s.base, 1, lua, 1)
                lua = lua_distinct("/api/v1/plans", self.wrk.distinct_memory())
                result = self.wrk.run(s.base, 1, lua)
            log(f"kb x{factor}: in-process make_plan over corpus platforms")
            done = subprocess.run(
                [str(PYTHON), "-c", INPROCESS_TIMING, str(kb_dir), str(CORPUS)],
                check=True,
                capture_output=True,
                text=True,
                cwd=ROOT / "backend",
                env={**os.environ, **env},
            )
            inproc = json.loads(done.stdout.strip().splitlines()[-1])
            measured[factor] = (cold, warm, result["avg_ms"], inproc)
            first_plans[factor] = first_plan
            if result["non_2xx"]:
                self.report.notes.append(
                    f"kb x{factor}: {int(result['non_2xx'])} non-2xx plans!"
                )
        cold1, warm1, plan1, inproc1 = measured[1]
        for factor in factors[1:]:
            cold, warm, plan, inproc = measured[factor]
            targeted = factor == 100
            self.report.add(
                f"knowledge base x{factor}: server start",
                f"{cold:.2f} s cold, {warm:.2f} s warm parse cache",
                f"x1 {cold1:.2f} s cold, {warm1:.2f} s warm",
                f"{cold / cold1:.1f}x / {warm / warm1:.1f}x x1",
                "<= 5 s (cold)" if targeted else "(x100 only)",
                cold <= 5 if targeted else None,
            )
            self.report.add(
                f"knowledge base x{factor}: mean plan time",
                f"HTTP {plan:.2f} ms; in-process {inproc['plan_ms']:.2f} ms",
                f"x1 HTTP {plan1:.2f} ms; in-process {inproc1['plan_ms']:.2f} ms",
                f"{plan / plan1:.2f}x / {inproc['plan_ms'] / inproc1['plan_ms']:.2f}x",
                "<= 2x x1 (HTTP)" if targeted else "(x100 only)",
                plan <= 2 * plan1 if targeted else None,
            )
        if 100 not in factors:
            self.report.missing(
                "knowledge base x100: server start", "<= 5 s", "skipped: --quick"
            )
            self.report.missing(
                "knowledge base x100: mean plan time", "<= 2x x1", "skipped: --quick"
            )
        self.report.notes.append(
            "kb: start = process start to first 200 from /health, 'cold' with an empty "
            "NASPLAN_CACHE_DIR, 'warm' the next start with the cache that start wrote; HTTP "
            "plan time = wrk mean latency, 1 connection, distinct platforms, "
            f"{self.args.seconds} s; in-process = mean make_plan over the first 20 corpus "
            "platforms after one warm-up plan. Verdicts on cold start and HTTP plan time. "
            "The first plan after start, waited for before wrk runs: "
            + ", ".join(f"x{f} {ms:.0f} ms" for f, ms in first_plans.items())
            + "."
        )

    # ------------------------------------------------------------------ run.sh restart

    def restart(self) -> None:
        log("restart: first ./scripts/run.sh (writes the stamps; may install or build)")
        first, _ = run_sh(self.tmp, "first", timeout=1200)
        log(f"restart: first run served after {first:.1f} s; timing a second run")
        attempts: list[tuple[float, list[str]]] = []
        # A restart that had to rebuild (sources changed meanwhile, e.g. concurrent edits) is
        # not "nothing changed": retried up to twice more, every attempt reported.
        for attempt in range(3):
            seconds, output = run_sh(self.tmp, f"again-{attempt}", timeout=600)
            redone = [
                line.strip("= ").strip()
                for line in output.splitlines()
                if line.startswith("== ") and re.search(r"install|build|creat", line)
            ]
            attempts.append((seconds, redone))
            log(f"restart: {seconds:.2f} s, redone: {redone or 'nothing'}")
            if not redone:
                break
        seconds, redone = attempts[-1]
        self.report.add(
            "./scripts/run.sh restart, nothing changed",
            f"{seconds:.2f} s to first 200 from /health",
            f"first run {first:.1f} s",
            "steps redone: " + ("; ".join(redone) if redone else "none"),
            "<= 5 s",
            seconds <= 5 if not redone else None,
        )
        if len(attempts) > 1:
            self.report.notes.append(
                "restart: earlier restarts redid steps (inputs changed between runs, e.g. "
                "concurrent edits) and were retried: "
                + "; ".join(f"{t:.2f} s ({', '.join(r)})" for t, r in attempts[:-1])
            )

    # ------------------------------------------------------------------ --baseline-ref

    def baseline(self, ref: str) -> None:
        current = getattr(self, "plans_result", None)
        if WORKTREE.exists():
            remove_worktree()
        log(f"baseline: git worktree add {WORKTREE} {ref}")
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(WORKTREE), ref],
            check=True,
            capture_output=True,
        )
        try:
            sha = git_out("rev-parse", "--short", ref)
            env = {
                "PYTHONPATH": str(WORKTREE / "backend"),
                "NASPLAN_KNOWLEDGE_DIR": str(WORKTREE / "knowledge"),
                "NASPLAN_FRONTEND_DIST": str(WORKTREE / "frontend" / "dist"),
            }
            probe = subprocess.run(
                [str(PYTHON), "-c", "import nasplan; print(nasplan.__file__)"],
                env={**os.environ, **env},
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
            if not probe.startswith(str(WORKTREE)):
                raise RuntimeError(
                    f"the baseline imports nasplan from {probe}, not the worktree"
                )
            log(f"baseline: starting nasplan from {ref} ({sha})")
            with serve(self.tmp, "baseline", env=env) as server:
                theirs = self.plans_rows(server, f" [{ref}]")
            if current is None:
                with serve(self.tmp, "current") as server:
                    current = self.plans_rows(server, " [working tree]")
        finally:
            remove_worktree()
        head = (
            f"Baseline ref {ref} ({sha}) beside the working tree, POST /plans distinct "
            "platforms / GET /health, same run:"
        )
        lines = [
            head,
            f"| conns | working tree plans | health | ratio | {ref} plans | health | ratio |",
            "|---|---|---|---|---|---|---|",
        ]
        for c in PLAN_CONNECTIONS:
            (h1, p1), (h2, p2) = current[c], theirs[c]
            lines.append(
                f"| {c} | {fmt_run(p1)} | {h1['rps']:.0f} rps | {p1['rps'] / h1['rps']:.2f} "
                f"| {fmt_run(p2)} | {h2['rps']:.0f} rps | {p2['rps'] / h2['rps']:.2f} |"
            )
        self.report.extra.append("\n".join(lines))


def remove_worktree() -> None:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(WORKTREE)],
        check=False,
        capture_output=True,
    )


def create_design(base: str, name: str, platform: dict[str, object]) -> str:
    payload = {"name": name, "platform": platform, "acknowledge_errors": True}
    status, _, body = http(f"{base}/api/v1/designs", payload)
    if status != 201:
        raise RuntimeError(f"POST /designs: {status} {body[:200]!r}")
    return str(json.loads(body)["id"])


def corpus_platforms() -> list[dict[str, object]]:
    """The regression corpus's platforms (YAML, read with the venv's PyYAML)."""
    done = subprocess.run(
        [
            str(PYTHON),
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
            str(CORPUS),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return [entry["platform"] for entry in json.loads(done.stdout)["platforms"]]


def new_id() -> str:
    return secrets.token_urlsafe(16)


def copy_statements(
    design_cols: list[str], revision_cols: list[str], ids_table: str
) -> tuple[str, str]:
    """INSERT ... SELECT copying each template design and its revisions under a new id."""
    quoted = [f'"{c}"' for c in design_cols]
    picked = ["b.new_id" if c == "id" else f'd."{c}"' for c in design_cols]
    designs = (
        f"INSERT INTO designs ({', '.join(quoted)}) SELECT {', '.join(picked)} "
        f"FROM {ids_table} b JOIN designs d ON d.id = b.tmpl_id"
    )
    rev_cols = [c for c in revision_cols if c != "id"]
    quoted = [f'"{c}"' for c in rev_cols]
    picked = ["b.new_id" if c == "design_id" else f'r."{c}"' for c in rev_cols]
    revisions = (
        f"INSERT INTO revisions ({', '.join(quoted)}) SELECT {', '.join(picked)} "
        f"FROM {ids_table} b JOIN revisions r ON r.design_id = b.tmpl_id"
    )
    return designs, revisions


class DesignsSqlite:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"

    def connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=30)
        connection.execute("PRAGMA busy_timeout=30000")
        return connection

    def size(self) -> int:
        with contextlib.closing(self.connect()) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return self.path.stat().st_size

    def count(self) -> int:
        with contextlib.closing(self.connect()) as connection:
            return int(connection.execute("SELECT count(*) FROM designs").fetchone()[0])

    def sample_ids(self, k: int) -> list[str]:
        with contextlib.closing(self.connect()) as connection:
            query = "SELECT id FROM designs ORDER BY random() LIMIT ?"
            return [row[0] for row in connection.execute(query, (k,))]

    def column_bytes(self) -> dict[str, float]:
        """Mean bytes per revision of the columns that hold its plan and platform, and of
        plan_parts (shared explanations) divided over the revisions, when those exist."""
        with contextlib.closing(self.connect()) as connection:
            columns = {
                row[1] for row in connection.execute("PRAGMA table_info(revisions)")
            }
            tables = {
                row[0] for row in connection.execute("SELECT name FROM sqlite_master")
            }
            result: dict[str, float] = {}
            wanted = [
                c for c in ("plan_json", "platform_json", "plan_z") if c in columns
            ]
            for column in wanted:
                query = f"SELECT avg(coalesce(length(CAST({column} AS BLOB)), 0)) FROM revisions"
                result[column] = float(connection.execute(query).fetchone()[0] or 0)
            if "plan_json" in result and "platform_json" in result:
                result = {
                    "plan_json+platform_json": result.pop("plan_json")
                    + result.pop("platform_json"),
                    **result,
                }
            if "plan_parts" in tables:
                parts = connection.execute(
                    "SELECT coalesce(sum(length(body)), 0), count(*) FROM plan_parts"
                ).fetchone()
                revisions = connection.execute(
                    "SELECT count(*) FROM revisions"
                ).fetchone()[0]
                result[f"plan_parts ({parts[1]} rows) shared"] = parts[0] / max(
                    1, revisions
                )
            return result

    def populate(self, extra: int, batch: int = 5000) -> None:
        with contextlib.closing(self.connect()) as connection:
            templates = [row[0] for row in connection.execute("SELECT id FROM designs")]
            design_cols = [
                row[1] for row in connection.execute("PRAGMA table_info(designs)")
            ]
            revision_cols = [
                row[1] for row in connection.execute("PRAGMA table_info(revisions)")
            ]
            designs, revisions = copy_statements(
                design_cols, revision_cols, "bench_ids"
            )
            connection.execute(
                "CREATE TEMP TABLE bench_ids (new_id TEXT PRIMARY KEY, tmpl_id TEXT)"
            )
            for start in range(0, extra, batch):
                rows = [
                    (new_id(), templates[i % len(templates)])
                    for i in range(start, min(extra, start + batch))
                ]
                connection.execute("DELETE FROM bench_ids")
                connection.executemany("INSERT INTO bench_ids VALUES (?, ?)", rows)
                connection.execute(designs)
                connection.execute(revisions)
                connection.commit()


class DesignsPostgres:
    def __init__(self, name: str) -> None:
        self.name = name
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"

    def sql(self, statement: str, stdin: str | None = None) -> str:
        command = [*PG, "-d", self.name]
        if stdin is None:
            command += ["-c", statement]
        done = subprocess.run(command, input=stdin, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"psql: {done.stderr.strip()[:500]}")
        return done.stdout

    def size(self) -> int:
        return int(self.sql("SELECT pg_database_size(current_database())"))

    def count(self) -> int:
        return int(self.sql("SELECT count(*) FROM designs"))

    def sample_ids(self, k: int) -> list[str]:
        return self.sql(f"SELECT id FROM designs ORDER BY random() LIMIT {k}").split()

    def columns(self, table: str) -> list[str]:
        query = (
            "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
            f"AND table_name = '{table}' ORDER BY ordinal_position"
        )
        return self.sql(query).split()

    def populate(self, extra: int, batch: int = 10000) -> None:
        templates = self.sql("SELECT id FROM designs").split()
        designs, revisions = copy_statements(
            self.columns("designs"), self.columns("revisions"), "bench_ids"
        )
        for start in range(0, extra, batch):
            values = ",".join(
                f"('{new_id()}','{templates[i % len(templates)]}')"
                for i in range(start, min(extra, start + batch))
            )
            script = (
                "BEGIN;\n"
                "CREATE TEMP TABLE bench_ids (new_id text PRIMARY KEY, tmpl_id text) "
                "ON COMMIT DROP;\n"
                f"INSERT INTO bench_ids VALUES {values};\n"
                f"{designs};\n{revisions};\nCOMMIT;\n"
            )
            self.sql("", stdin=script)
        self.sql("ANALYZE")


def knowledge_digest() -> str:
    digest = hashlib.sha256()
    source = ROOT / "knowledge"
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(source)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(
        hashlib.sha256((ROOT / "scripts" / "gen_kb.py").read_bytes()).digest()
    )
    return digest.hexdigest()[:16]


def knowledge_dir(factor: int) -> Path:
    """knowledge/ for x1; a generated copy for larger factors, cached by the sources' digest."""
    if factor == 1:
        return ROOT / "knowledge"
    target = KB_CACHE / f"{factor}-{knowledge_digest()}"
    if target.is_dir():
        log(f"kb x{factor}: cached at {target}")
        return target
    KB_CACHE.mkdir(parents=True, exist_ok=True)
    partial = KB_CACHE / f".{target.name}.{os.getpid()}"
    log(f"kb x{factor}: generating {target} (scripts/gen_kb.py)")
    started = time.perf_counter()
    subprocess.run(
        [
            *(str(PYTHON), str(ROOT / "scripts" / "gen_kb.py")),
            *("--factor", str(factor), "--out", str(partial), "--force"),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    partial.rename(target)
    log(f"kb x{factor}: generated in {time.perf_counter() - started:.0f} s")
    return target


def run_sh(tmp: Path, label: str, timeout: float) -> tuple[float, str]:
    """Seconds from starting ./scripts/run.sh to the first 200 from /health, and its output."""
    port = free_port()
    log_path = tmp / f"run-sh-{label}.log"
    env = {
        **os.environ,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp}/run-sh.db",
        "NASPLAN_LOG_LEVEL": "WARNING",
    }
    env.pop("NASPLAN_FORCE", None)
    with log_path.open("wb") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "run.sh")],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=ROOT,
        )
        try:
            healthy = wait_healthy(f"http://127.0.0.1:{port}", proc, timeout, log_path)
        finally:
            stop(proc, group=True)
    return healthy - started, log_path.read_text(errors="replace")


def git_out(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--seconds", type=int, default=5, help="per wrk run (default 5)"
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=8,
        help="for bundle, runbook, designs (default 8)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="wrk threads (default 1)"
    )
    parser.add_argument("--quick", action="store_true", help="skip x100; 1000 designs")
    parser.add_argument("--designs", type=int, default=None, help="N (default 100000)")
    parser.add_argument(
        "--only", default="", help=f"rows, comma-separated: {','.join(ROWS)}"
    )
    parser.add_argument(
        "--baseline-ref", default=None, help="also run plans against this ref"
    )
    args = parser.parse_args()
    if args.designs is None:
        args.designs = 1000 if args.quick else 100_000
    if args.designs < SEED_DESIGNS + 1:
        parser.error(f"--designs must be at least {SEED_DESIGNS + 1}")
    only = {r.strip() for r in args.only.split(",") if r.strip()}
    unknown = only - set(ROWS)
    if unknown:
        parser.error(f"unknown rows {sorted(unknown)}; choose from {','.join(ROWS)}")
    args.rows = only or set(ROWS) - {
        "lab"
    }  # the lab row is asked for by name (--only lab)
    return args


def main() -> int:
    args = parse_args()
    wrk_exe = ensure_wrk()
    report = Report()
    rows: set[str] = args.rows
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="nasplan-bench-") as tmp_name:
        tmp = Path(tmp_name)
        bench = Bench(args, Wrk(wrk_exe, args.seconds, args.threads, tmp), tmp, report)
        if rows & {"plans", "size", "bundle", "runbook", "collection"}:
            bench.guarded(
                "plans/size/bundle/runbook/collection", lambda: bench.server_rows(rows)
            )
        if rows & {"designs", "storage"}:
            measure = "designs" in rows
            bench.guarded(
                "designs (sqlite)",
                lambda: bench.designs("sqlite", measure, "storage" in rows),
            )
            if measure:
                bench.guarded(
                    "designs (postgresql)",
                    lambda: bench.designs("postgresql", True, False),
                )
        if "kb" in rows:
            bench.guarded("kb", bench.kb)
        if "restart" in rows:
            bench.guarded("restart", bench.restart)
        if "hostile" in rows:
            import bench_hostile  # this script's neighbour; it imports this module

            bench.guarded(
                "hostile",
                lambda: bench_hostile.run(report, list(bench_hostile.KINDS), 1_000_000),
            )
        if "lab" in rows:
            import bench_lab  # this script's neighbour; it imports this module

            bench.guarded("lab", lambda: bench_lab.run(report, cold_build=True))
        if args.baseline_ref and "plans" in rows:
            bench.guarded("baseline", lambda: bench.baseline(args.baseline_ref))
    elapsed = time.perf_counter() - started
    try:
        revision = git_out("rev-parse", "--short", "HEAD")
        dirty = " + uncommitted changes" if git_out("status", "--porcelain") else ""
    except (OSError, subprocess.CalledProcessError):
        revision, dirty = "?", ""
    report.print(
        [
            f"nasplan benchmark: working tree at {revision}{dirty}; one uvicorn worker, loopback, "
            f"{os.cpu_count()} CPUs; wrk -t{args.threads} -d{args.seconds}s per run; "
            f"designs N={args.designs:,}; rows: {','.join(r for r in ROWS if r in rows)}; "
            f"took {elapsed:.0f} s",
        ]
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

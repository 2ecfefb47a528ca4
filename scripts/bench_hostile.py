#!/usr/bin/env python3
"""Hostile pastes: the worst 1 MB paste of each audit file kind against a running server.

For every file kind the audit reads, several hostile generators (long runs of colons, spaces,
commas, ``=``, quotes and dashes; a wide header over dashes with many one-word rows; many short
lines) each make a paste of about 1 MB; each is sent alone as ``POST /api/v1/audits`` while a
second client asks ``GET /api/v1/health`` every 20 ms. Reported per kind, over all its pastes:
the slowest answer (time, status, generator), /health's worst latency (and the generator) and
its median latency during them, beside /health's latency on the idle server (the same run's
baseline). Afterwards the server's memory (the server process, and its audit workers) beside
its memory before the first paste.

Targets (DEVELOPERS.md / issue 19): every answer within 1 s, /health under 50 ms throughout,
server memory back within 20% of its baseline.

    .venv/bin/python scripts/bench_hostile.py [--kinds mount,ontap_fields] [--size 1000000]

Also run by ``scripts/bench.py --only hostile``. Progress goes to stderr, the report to stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench import Report, log, serve

from nasplan.audit.kinds import FILE_KINDS
from nasplan.domain.platform import EXAMPLE_PLATFORM

HEALTH_EVERY_S = 0.02
ANSWER_TARGET_S = 1.0
HEALTH_TARGET_MS = 50.0
MEMORY_TARGET = 0.20


def _fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _lines(line: str, size: int) -> str:
    return _fill(line + "\n", size)


def _wide_table(size: int) -> str:
    columns = 2000
    header = "vserver " + " ".join(f"f{i}" for i in range(columns))
    dashes = " ".join("-" * len(word) for word in header.split())
    return header + "\n" + dashes + "\n" + _lines("x", size - len(header) - len(dashes) - 2)


def _wide_dnfs(size: int) -> str:
    columns = 2000
    header = "SVRNAME DIRNAME " + " ".join(f"C{i}" for i in range(columns))
    dashes = " ".join("-" * len(word) for word in header.split())
    return header + "\n" + dashes + "\n" + _lines("x", size - len(header) - len(dashes) - 2)


GENERATORS: dict[str, Callable[[int], str]] = {
    "x on + colons": lambda n: "x on " + _fill(":", n - 5),
    "x from + colons": lambda n: "x from " + _fill(":", n - 7),
    "spaces": lambda n: "a" + _fill(" ", n - 2) + "b",
    "commas": lambda n: "a=" + _fill(",", n - 2),
    "equals": lambda n: "a" + _fill("=", n - 1),
    "quotes": lambda n: "*.a=" + _fill("'\"", n - 4),
    "dashes": lambda n: _fill("- ", n),
    "tabs and words": lambda n: _lines("nfs\t" * 40, n),
    "short lines": lambda n: _lines("a b nfs rw", n),
    "wide ONTAP table": _wide_table,
    "wide v$dnfs_servers": _wide_dnfs,
    "labels": lambda n: _lines("x:" + " " * 30 + "y:", n),
}


@dataclass
class Probe:
    kind: str
    generator: str
    seconds: float
    status: int
    health_ms: list[float]


def _post(base: str, body: dict[str, object]) -> tuple[int, float]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/audits", data=data, headers={"Content-Type": "application/json"}
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return status, time.perf_counter() - started


def _health_ms(base: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(f"{base}/api/v1/health", timeout=30) as response:
        response.read()
    return (time.perf_counter() - started) * 1000


def _health_while(base: str, done: threading.Event) -> list[float]:
    latencies: list[float] = []
    while not done.is_set():
        latencies.append(_health_ms(base))
        time.sleep(HEALTH_EVERY_S)
    return latencies


def probe(base: str, kind: str, generator: str, size: int) -> Probe:
    text = GENERATORS[generator](size)
    done = threading.Event()
    latencies: list[float] = []
    watcher = threading.Thread(target=lambda: latencies.extend(_health_while(base, done)))
    watcher.start()
    try:
        status, seconds = _post(base, {"platform": EXAMPLE_PLATFORM, "files": {kind: text}})
    finally:
        done.set()
        watcher.join()
    return Probe(kind, generator, seconds, status, latencies)


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _rss_mb(pid: int) -> tuple[float, float]:
    """RSS of the server process and the sum over its descendants (audit workers), MB."""
    children = 0
    for child in _descendants(pid):
        try:
            children += _rss_kb(child)
        except OSError:
            continue
    return _rss_kb(pid) / 1024, children / 1024


def run(report: Report, kinds: list[str], size: int) -> None:
    with (
        tempfile.TemporaryDirectory(prefix="nasplan-hostile-") as tmp,
        serve(Path(tmp), "hostile", env={"NASPLAN_RATE_LIMIT_COMPUTE": ""}) as server,
    ):
        base, pid = server.base, server.pid
        idle = [_health_ms(base) for _ in range(100)]
        idle_worst, idle_median = max(idle), statistics.median(idle)
        # One small audit first: starts the audit workers, so the baseline holds them.
        probe(base, "fstab", "short lines", 1000)
        before_main, before_workers = _rss_mb(pid)
        for kind in kinds:
            probes: list[Probe] = []
            for generator in GENERATORS:
                found = probe(base, kind, generator, size)
                log(
                    f"hostile {kind:<15} {generator:<20} {found.status} {found.seconds:6.2f} s"
                    f"  health max {max(found.health_ms, default=0):6.1f} ms"
                )
                probes.append(found)
            slowest = max(probes, key=lambda p: p.seconds)
            jumpiest = max(probes, key=lambda p: max(p.health_ms, default=0.0))
            health_worst = max(jumpiest.health_ms, default=0.0)
            every_probe = [ms for p in probes for ms in p.health_ms]
            ok = slowest.seconds <= ANSWER_TARGET_S and health_worst < HEALTH_TARGET_MS
            report.add(
                f"hostile 1 MB {kind} ({len(probes)} pastes)",
                f"slowest {slowest.status} in {slowest.seconds:.2f} s ({slowest.generator}); "
                f"health max {health_worst:.1f} ms ({jumpiest.generator}), "
                f"median {statistics.median(every_probe or [0.0]):.1f} ms",
                f"idle health max {idle_worst:.1f} ms, median {idle_median:.1f} ms",
                f"{len(every_probe)} health probes",
                f"answer <= {ANSWER_TARGET_S:g} s, health < {HEALTH_TARGET_MS:g} ms",
                ok,
            )
        time.sleep(2)
        after_main, after_workers = _rss_mb(pid)
        before, after = before_main + before_workers, after_main + after_workers
        report.add(
            "server memory after the hostile pastes",
            f"{after:.0f} MB (server {after_main:.0f}, audit workers {after_workers:.0f})",
            f"{before:.0f} MB (server {before_main:.0f}, audit workers {before_workers:.0f})",
            f"{after / before:.2f}x",
            f"within {MEMORY_TARGET:.0%} of the baseline",
            after <= before * (1 + MEMORY_TARGET),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--kinds", default=",".join(FILE_KINDS), help="file kinds, comma-separated")
    parser.add_argument("--size", type=int, default=1_000_000, help="paste size in characters")
    args = parser.parse_args()
    report = Report()
    run(report, [k for k in args.kinds.split(",") if k], args.size)
    report.print([f"# nasplan hostile pastes ({args.size:,} characters each)"])


if __name__ == "__main__":
    main()

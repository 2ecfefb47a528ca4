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
import os
import subprocess
import tempfile
import time
from pathlib import Path

from benchmark.baseline import baseline
from benchmark.common import ROWS, SEED_DESIGNS, git_out, log
from benchmark.core import Bench
from benchmark.report import Report
from benchmark.rows_designs import designs
from benchmark.rows_kb import kb
from benchmark.rows_restart import restart
from benchmark.rows_server import server_rows
from benchmark.server import serve
from benchmark.wrk import Wrk, ensure_wrk

from nasplan.audit.kinds import FILE_KINDS

# scripts/bench_hostile.py and scripts/bench_lab.py import Report, log and serve from here.
__all__ = ["Report", "log", "main", "serve"]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="per wrk run (default 5)")
    parser.add_argument(
        "--connections",
        type=int,
        default=8,
        help="for bundle, runbook, designs (default 8)",
    )
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    parser.add_argument("--quick", action="store_true", help="skip x100; 1000 designs")
    parser.add_argument("--designs", type=int, default=None, help="N (default 100000)")
    parser.add_argument("--only", default="", help=f"rows, comma-separated: {','.join(ROWS)}")
    parser.add_argument("--baseline-ref", default=None, help="also run plans against this ref")
    args = parser.parse_args()
    if args.designs is None:
        args.designs = 1000 if args.quick else 100_000
    if args.designs < SEED_DESIGNS + 1:
        parser.error(f"--designs must be at least {SEED_DESIGNS + 1}")
    only = {r.strip() for r in args.only.split(",") if r.strip()}
    unknown = only - set(ROWS)
    if unknown:
        parser.error(f"unknown rows {sorted(unknown)}; choose from {','.join(ROWS)}")
    args.rows = only or set(ROWS) - {"lab"}  # the lab row is asked for by name (--only lab)
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
            bench.guarded("plans/size/bundle/runbook/collection", lambda: server_rows(bench, rows))
        if rows & {"designs", "storage"}:
            measure = "designs" in rows
            bench.guarded(
                "designs (sqlite)",
                lambda: designs(bench, "sqlite", measure, "storage" in rows),
            )
            if measure:
                bench.guarded(
                    "designs (postgresql)",
                    lambda: designs(bench, "postgresql", True, False),
                )
        if "kb" in rows:
            bench.guarded("kb", lambda: kb(bench))
        if "restart" in rows:
            bench.guarded("restart", lambda: restart(bench))
        if "hostile" in rows:
            import bench_hostile  # this script's neighbour; it imports this module

            bench.guarded(
                "hostile",
                lambda: bench_hostile.run(report, list(FILE_KINDS), 1_000_000),
            )
        if "lab" in rows:
            import bench_lab  # this script's neighbour; it imports this module

            bench.guarded("lab", lambda: bench_lab.run(report, cold_build=True))
        if args.baseline_ref and "plans" in rows:
            bench.guarded("baseline", lambda: baseline(bench, args.baseline_ref))
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

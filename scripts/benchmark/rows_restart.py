"""The restart row: ./scripts/run.sh once (stamps), then a restart timed to the first 200."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

from benchmark.common import ROOT, log
from benchmark.core import Bench
from benchmark.server import free_port, stop, wait_healthy


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


def restart(bench: Bench) -> None:
    log("restart: first ./scripts/run.sh (writes the stamps; may install or build)")
    first, _ = run_sh(bench.tmp, "first", timeout=1200)
    log(f"restart: first run served after {first:.1f} s; timing a second run")
    attempts: list[tuple[float, list[str]]] = []
    # A restart that had to rebuild (sources changed meanwhile, e.g. concurrent edits) is
    # not "nothing changed": retried up to twice more, every attempt reported.
    for attempt in range(3):
        seconds, output = run_sh(bench.tmp, f"again-{attempt}", timeout=600)
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
    bench.report.add(
        "./scripts/run.sh restart, nothing changed",
        f"{seconds:.2f} s to first 200 from /health",
        f"first run {first:.1f} s",
        "steps redone: " + ("; ".join(redone) if redone else "none"),
        "<= 5 s",
        seconds <= 5 if not redone else None,
    )
    if len(attempts) > 1:
        bench.report.notes.append(
            "restart: earlier restarts redid steps (inputs changed between runs, e.g. "
            "concurrent edits) and were retried: "
            + "; ".join(f"{t:.2f} s ({', '.join(r)})" for t, r in attempts[:-1])
        )

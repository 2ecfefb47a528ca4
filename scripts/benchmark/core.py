"""What the rows share: the options, wrk, the temporary directory, the report, health runs."""

from __future__ import annotations

import argparse
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.common import log
from benchmark.report import Report
from benchmark.server import Server
from benchmark.wrk import Wrk

# connections -> (health, distinct-platform plans), as the plans row measured them.
PlanResults = dict[int, tuple[dict[str, float], dict[str, float]]]


@dataclass
class Bench:
    args: argparse.Namespace
    wrk: Wrk
    tmp: Path
    report: Report
    health_cache: dict[tuple[str, int], dict[str, float]] = field(default_factory=dict)
    plans_result: PlanResults | None = None

    def health(self, server: Server, connections: int) -> dict[str, float]:
        key = (server.base, connections)
        if key not in self.health_cache:
            log(f"wrk GET /api/v1/health c{connections}")
            self.health_cache[key] = self.wrk.run(f"{server.base}/api/v1/health", connections)
        return self.health_cache[key]

    def guarded(self, row: str, action: Callable[[], object]) -> None:
        try:
            action()
        except Exception as error:
            detail = str(error)
            if isinstance(error, subprocess.CalledProcessError):
                command = " ".join(str(part) for part in error.cmd)[:120]
                detail = f"{command} exited {error.returncode}: {str(error.stderr)[-800:]}"
            log(f"{row}: FAILED: {detail}")
            first_line = (detail.splitlines() or ["?"])[0][:80]
            self.report.missing(row, "see above", f"failed: {first_line}")
            self.report.notes.append(f"{row} failed: {detail}")

"""Paths, constants and the progress log shared by every part of the benchmark."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from nasplan.domain.platform import EXAMPLE_PLATFORM

ROOT = Path(__file__).resolve().parents[2]
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

_T0 = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - _T0:6.0f}s] {message}", file=sys.stderr, flush=True)


def git_out(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()

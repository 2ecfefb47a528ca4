"""--baseline-ref: the plans row against another ref (a git worktree), beside the working tree."""

from __future__ import annotations

import os
import subprocess

from benchmark.common import PLAN_CONNECTIONS, PYTHON, ROOT, WORKTREE, git_out, log
from benchmark.core import Bench
from benchmark.report import fmt_run
from benchmark.rows_server import plans_rows
from benchmark.server import serve


def baseline(bench: Bench, ref: str) -> None:
    current = bench.plans_result
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
            raise RuntimeError(f"the baseline imports nasplan from {probe}, not the worktree")
        log(f"baseline: starting nasplan from {ref} ({sha})")
        with serve(bench.tmp, "baseline", env=env) as server:
            theirs = plans_rows(bench, server, f" [{ref}]")
        if current is None:
            with serve(bench.tmp, "current") as server:
                current = plans_rows(bench, server, " [working tree]")
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
    bench.report.extra.append("\n".join(lines))


def remove_worktree() -> None:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(WORKTREE)],
        check=False,
        capture_output=True,
    )

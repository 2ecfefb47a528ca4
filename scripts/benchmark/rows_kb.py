"""The kb row: the knowledge base x1, x10, x100 (generated and cached), server start, plan time."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from pathlib import Path

from benchmark.common import CORPUS, KB_CACHE, PLATFORM, PYTHON, ROOT, log
from benchmark.core import Bench
from benchmark.server import http, serve
from benchmark.wrk import lua_distinct

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


def knowledge_digest() -> str:
    digest = hashlib.sha256()
    source = ROOT / "knowledge"
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(source)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(hashlib.sha256((ROOT / "scripts" / "gen_kb.py").read_bytes()).digest())
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


def kb(bench: Bench) -> None:
    factors = (1, 10) if bench.args.quick else (1, 10, 100)
    measured: dict[int, tuple[float, float, float, dict[str, float]]] = {}
    first_plans: dict[int, float] = {}
    for factor in factors:
        kb_dir = knowledge_dir(factor)
        # An empty parsed-file cache (nasplan.knowledge.parsed_cache) for the first start,
        # the one that start filled for the second.
        env = {
            "NASPLAN_KNOWLEDGE_DIR": str(kb_dir),
            "NASPLAN_CACHE_DIR": str(bench.tmp / f"kb-cache-{factor}"),
        }
        log(f"kb x{factor}: starting nasplan with {kb_dir} (empty parse cache)")
        with serve(bench.tmp, f"kb{factor}-cold", env=env) as s:
            cold = s.start_s
        log(f"kb x{factor}: cold start {cold:.2f} s; starting again (warm parse cache)")
        with serve(bench.tmp, f"kb{factor}", env=env) as s:
            warm = s.start_s
            log(f"kb x{factor}: warm start {warm:.2f} s; first plan, then wrk plans c1")
            before = time.perf_counter()
            http(f"{s.base}/api/v1/plans", PLATFORM)
            first_plan = 1000 * (time.perf_counter() - before)
            lua = lua_distinct("/api/v1/plans", bench.wrk.distinct_memory())
            bench.wrk.run(s.base, 1, lua, 1)
            lua = lua_distinct("/api/v1/plans", bench.wrk.distinct_memory())
            result = bench.wrk.run(s.base, 1, lua)
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
            bench.report.notes.append(f"kb x{factor}: {int(result['non_2xx'])} non-2xx plans!")
    cold1, warm1, plan1, inproc1 = measured[1]
    for factor in factors[1:]:
        cold, warm, plan, inproc = measured[factor]
        targeted = factor == 100
        bench.report.add(
            f"knowledge base x{factor}: server start",
            f"{cold:.2f} s cold, {warm:.2f} s warm parse cache",
            f"x1 {cold1:.2f} s cold, {warm1:.2f} s warm",
            f"{cold / cold1:.1f}x / {warm / warm1:.1f}x x1",
            "<= 5 s (cold)" if targeted else "(x100 only)",
            cold <= 5 if targeted else None,
        )
        bench.report.add(
            f"knowledge base x{factor}: mean plan time",
            f"HTTP {plan:.2f} ms; in-process {inproc['plan_ms']:.2f} ms",
            f"x1 HTTP {plan1:.2f} ms; in-process {inproc1['plan_ms']:.2f} ms",
            f"{plan / plan1:.2f}x / {inproc['plan_ms'] / inproc1['plan_ms']:.2f}x",
            "<= 2x x1 (HTTP)" if targeted else "(x100 only)",
            plan <= 2 * plan1 if targeted else None,
        )
    if 100 not in factors:
        bench.report.missing("knowledge base x100: server start", "<= 5 s", "skipped: --quick")
        bench.report.missing("knowledge base x100: mean plan time", "<= 2x x1", "skipped: --quick")
    bench.report.notes.append(
        "kb: start = process start to first 200 from /health, 'cold' with an empty "
        "NASPLAN_CACHE_DIR, 'warm' the next start with the cache that start wrote; HTTP "
        "plan time = wrk mean latency, 1 connection, distinct platforms, "
        f"{bench.args.seconds} s; in-process = mean make_plan over the first 20 corpus "
        "platforms after one warm-up plan. Verdicts on cold start and HTTP plan time. "
        "The first plan after start, waited for before wrk runs: "
        + ", ".join(f"x{f} {ms:.0f} ms" for f, ms in first_plans.items())
        + "."
    )

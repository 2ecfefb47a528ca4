"""The designs and storage rows: GET /designs/{id} with 1 design and with N, bytes per design."""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import time
import urllib.error

from benchmark.common import (
    KIB,
    PG,
    PLATFORM,
    POPULATE_BUDGET_S,
    RANDOM_IDS,
    SEED_DESIGNS,
    log,
)
from benchmark.core import Bench
from benchmark.databases import DesignsPostgres, DesignsSqlite, corpus_platforms, create_design
from benchmark.report import fmt_run
from benchmark.server import Server, http, serve
from benchmark.wrk import lua_random_get


def designs(bench: Bench, kind: str, measure: bool, storage: bool) -> None:
    n = bench.args.designs
    pg_name = f"bench_{os.getpid()}_{secrets.token_hex(3)}"
    db: DesignsSqlite | DesignsPostgres
    if kind == "sqlite":
        db = DesignsSqlite(bench.tmp / "designs.db")
    else:
        subprocess.run([*PG, "-d", "test", "-c", f"CREATE DATABASE {pg_name}"], check=True)
        db = DesignsPostgres(pg_name)
    try:
        log(f"starting nasplan on {kind} for the designs row")
        with serve(bench.tmp, f"designs-{kind}", db.url) as server:
            designs_on(bench, server, db, kind, n, measure, storage)
    finally:
        if isinstance(db, DesignsPostgres):
            drop = f"DROP DATABASE IF EXISTS {pg_name} WITH (FORCE)"
            subprocess.run([*PG, "-d", "test", "-c", drop], check=False)


def designs_on(
    bench: Bench,
    server: Server,
    db: DesignsSqlite | DesignsPostgres,
    kind: str,
    n: int,
    measure: bool,
    storage: bool,
) -> None:
    c = bench.args.connections
    first = create_design(server.base, "bench 0", PLATFORM)
    url_first = f"{server.base}/api/v1/designs/{first}"
    status, _, body = http(url_first)
    if status != 200:
        raise RuntimeError(f"GET design: {status}")
    one: dict[str, float] = {}
    health_one: dict[str, float] = {}
    if measure:
        log(f"{kind}: 1 design: wrk health and GET /designs/{{id}} c{c}")
        bench.wrk.run(url_first, 4, seconds=1)
        health_one = bench.wrk.run(f"{server.base}/api/v1/health", c)
        one = bench.wrk.run(url_first, c)
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
    bench.report.notes.append(
        f"{kind}: {count:,} designs ({seeds} made through the API from the bench platform "
        f"and corpus platforms, the rest bulk-copied from them in SQL) in {populate_s:.0f} s"
        + (f", OVER the {POPULATE_BUDGET_S} s budget: pass a lower --designs." if over else ".")
    )
    copied = count - seeds
    if storage and isinstance(db, DesignsSqlite) and copied > 0:  # kind == "sqlite"
        per_copy = (size_after - size_before) / copied
        per_api = (size_before - size_first) / max(1, seeds - 1)
        columns = db.column_bytes()
        worst = max(per_copy, per_api)
        bench.report.add(
            "storage per design, SQLite",
            f"file growth {per_api / KIB:.1f} KiB/design over {seeds - 1} API-made "
            f"(distinct corpus platforms), {per_copy / KIB:.1f} KiB over {copied:,} copies",
            "per revision: "
            + ", ".join(f"{name} {value / KIB:.1f} KiB" for name, value in columns.items()),
            f"{worst:,.0f} B/design (larger)",
            "<= 10 KB",
            worst <= 10_000,
        )
        bench.report.notes.append(
            "storage: file sizes after PRAGMA wal_checkpoint(TRUNCATE). The API-made "
            "designs use distinct corpus platforms, so each adds its own manifest and the "
            "explanations of rules no earlier design cited (over-estimates a large "
            "population, where rule sets repeat); the copies share their template's "
            "plan_parts (under-estimates it). The verdict takes the larger."
        )
    if kind == "postgresql" and copied > 0:
        bench.report.notes.append(
            f"postgresql: database growth {(size_after - size_before) / copied / KIB:.1f} "
            "KiB/design (pg_database_size; TOAST compresses the JSON text)."
        )
    if not measure:
        return
    ids = db.sample_ids(RANDOM_IDS)
    log(f"{kind}: {count:,} designs: wrk health, GET random of {len(ids)} ids, GET fixed id")
    lua = lua_random_get("/api/v1/designs/", ids)
    bench.wrk.run(server.base, 4, lua, seconds=1)
    health_n = bench.wrk.run(f"{server.base}/api/v1/health", c)
    many = bench.wrk.run(server.base, c, lua)
    fixed = bench.wrk.run(url_first, c)
    ratio_one = one["rps"] / health_one["rps"]
    ratio_many = many["rps"] / health_n["rps"]
    flat = many["rps"] / one["rps"]
    bench.report.add(
        f"GET /designs/{{id}}, {kind}, 1 design, c{c}",
        fmt_run(one),
        f"health {fmt_run(health_one)}",
        f"ratio {ratio_one:.2f}",
        ">= 0.5x health",
        ratio_one >= 0.5,
    )
    bench.report.add(
        f"GET /designs/{{id}}, {kind}, {count:,} designs (random id), c{c}",
        fmt_run(many),
        f"health {fmt_run(health_n)}",
        f"ratio {ratio_many:.2f}; {flat:.2f}x 1-design",
        ">= 0.5x health; flat +-20%",
        ratio_many >= 0.5 and abs(flat - 1) <= 0.2,
    )
    bench.report.add(
        f"  reference: same, fixed id, {count:,} designs, c{c}",
        fmt_run(fixed),
        f"health {fmt_run(health_n)}",
        f"{fixed['rps'] / one['rps']:.2f}x 1-design",
        "(no target)",
        None,
    )
    bench.report.notes.append(f"{kind}: GET /designs/{{id}} answers {len(body):,} B (no gzip).")

"""The rows on one SQLite server: plans, size, bundle, runbook and collection."""

from __future__ import annotations

import functools
import gzip
import json
import subprocess
import urllib.request

from benchmark.common import KIB, PLAN_CONNECTIONS, PLATFORM, ROOT, log
from benchmark.core import Bench, PlanResults
from benchmark.report import fmt_run
from benchmark.server import Server, http, serve
from benchmark.wrk import lua_distinct, lua_post, lua_post_bytes


def plans_rows(bench: Bench, server: Server, label: str = "") -> PlanResults:
    """health and distinct-platform plans at each connection count."""
    base = server.base
    log(f"warming up /health and /plans{label}")
    bench.wrk.run(f"{base}/api/v1/health", 4, seconds=1)
    bench.wrk.run(base, 4, lua_distinct("/api/v1/plans", bench.wrk.distinct_memory()), 1)
    results: PlanResults = {}
    for connections in PLAN_CONNECTIONS:
        health = bench.health(server, connections)
        log(f"wrk POST /api/v1/plans distinct c{connections}{label}")
        lua = lua_distinct("/api/v1/plans", bench.wrk.distinct_memory())
        results[connections] = (health, bench.wrk.run(base, connections, lua))
    return results


def plans(bench: Bench, server: Server) -> None:
    results = plans_rows(bench, server)
    for connections, (health, plans) in results.items():
        ratio = plans["rps"] / health["rps"]
        target = "ratio >= 0.5"
        ok = ratio >= 0.5
        if connections == 8:
            target += "; p99 <= 25 ms"
            ok = ok and plans["p99_ms"] <= 25
        bench.report.add(
            f"POST /plans, distinct platforms, c{connections}",
            fmt_run(plans),
            f"health {fmt_run(health)}",
            f"ratio {ratio:.2f}",
            target,
            ok,
        )
    c = bench.args.connections
    log(f"wrk POST /api/v1/plans same platform c{c} (reference)")
    same = bench.wrk.run(server.base, c, lua_post("/api/v1/plans", PLATFORM))
    health = bench.health(server, c)
    bench.report.add(
        f"  reference: POST /plans, same platform, c{c}",
        fmt_run(same),
        f"health {fmt_run(health)}",
        f"ratio {same['rps'] / health['rps']:.2f}",
        "(cached; no target)",
        None,
    )
    bench.plans_result = results


def size(bench: Bench, server: Server) -> None:
    log("plan response sizes")
    sizes: dict[str, tuple[int, str]] = {}
    for explain in ("ids", "full"):
        url = f"{server.base}/api/v1/plans" + ("?explain=full" if explain == "full" else "")
        status, _, plain = http(url, PLATFORM)
        status_gz, head, zipped = http(url, PLATFORM, {"Accept-Encoding": "gzip"})
        if status != 200 or status_gz != 200:
            raise RuntimeError(f"POST {url}: {status}/{status_gz}")
        encoded = head.get("content-encoding") == "gzip"
        if encoded and gzip.decompress(zipped) != plain:
            raise RuntimeError("gzip body does not decompress to the plain body")
        declared = head.get("content-length")
        gz_note = f"gzip {len(zipped):,} B" + ("" if encoded else " (NOT gzip-encoded)")
        if declared is not None and int(declared) != len(zipped):
            gz_note += f", Content-Length {declared}"
        sizes[explain] = (len(plain), gz_note)
    default, full = sizes["ids"], sizes["full"]
    bench.report.add(
        "plan response size (bench platform)",
        f"{default[0]:,} B; {default[1]}",
        f"?explain=full {full[0]:,} B; {full[1]}",
        f"{default[0] / KIB:.1f} KiB ({100 * default[0] / full[0]:.0f}% of full)",
        "<= 15 KiB uncompressed",
        default[0] <= 15 * KIB,
    )


def files(bench: Bench, server: Server, row: str) -> None:
    path, factor = {
        "bundle": ("/api/v1/plans/bundle", 0.15),
        "runbook": ("/api/v1/plans/runbook?format=html", 0.3),
    }[row]
    status, head, body = http(server.base + path, PLATFORM)
    kind = head.get("content-type", "?").split(";")[0]
    if status != 200:
        raise RuntimeError(f"POST {path}: {status}")
    c = bench.args.connections
    health = bench.health(server, c)
    log(f"wrk POST {path} same platform c{c}")
    bench.wrk.run(server.base, 4, lua_post(path, PLATFORM), seconds=1)
    same = bench.wrk.run(server.base, c, lua_post(path, PLATFORM))
    log(f"wrk POST {path} distinct platforms c{c}")
    distinct = bench.wrk.run(server.base, c, lua_distinct(path, bench.wrk.distinct_memory()))
    for variant, result in (
        ("same platform", same),
        ("distinct platforms", distinct),
    ):
        ratio = result["rps"] / health["rps"]
        bench.report.add(
            f"POST {path.split('?')[0].removeprefix('/api/v1')} ({row}), {variant}, c{c}",
            fmt_run(result),
            f"health {fmt_run(health)}",
            f"ratio {ratio:.2f}",
            f">= {factor}x health",
            ratio >= factor,
        )
    bench.report.notes.append(f"{row}: {kind}, {len(body):,} B for the bench platform.")


def collection(bench: Bench, server: Server) -> None:
    """This machine's collection read and audited, each at 1 connection beside health."""
    with urllib.request.urlopen(f"{server.base}/api/v1/collector/linux", timeout=60) as got:
        (bench.tmp / "collect.sh").write_bytes(got.read())
    out = bench.tmp / "collection"
    subprocess.run(
        ["sh", str(bench.tmp / "collect.sh"), str(out)],
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

    platform = load_knowledge(ROOT / "knowledge").presets["current-linux-ontap"].platform
    body = {"platform": platform, "pastes": report["pastes"]}
    status, _, audited = http(f"{server.base}/api/v1/audits", body)
    if status != 200:
        raise RuntimeError(f"POST /audits: {status}")
    lines = sum(json.loads(audited)["checked"].values())
    health = bench.health(server, 1)
    runs = {
        "POST /collections": lua_post_bytes("/api/v1/collections", archive, "application/x-tar"),
        "POST /audits": lua_post("/api/v1/audits", body),
    }
    for label, lua in runs.items():
        log(f"wrk {label} c1")
        bench.wrk.run(server.base, 1, lua, seconds=1)
        result = bench.wrk.run(server.base, 1, lua)
        bench.report.add(
            f"{label}, this machine's collection, c1",
            f"mean {result['avg_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms"
            + (f" ({int(result['non_2xx'])} NON-2xx!)" if result["non_2xx"] else ""),
            f"health mean {health['avg_ms']:.2f} ms",
            f"{result['avg_ms'] / max(health['avg_ms'], 0.001):.0f}x health",
            "mean <= 250 ms",
            result["avg_ms"] <= 250 and not result["non_2xx"],
        )
    bench.report.notes.append(
        f"collection: {len(archive):,} B tar, {len(report['files'])} files, "
        f"{len(report['pastes'])} audited ({lines} lines and values checked)."
    )


def server_rows(bench: Bench, rows: set[str]) -> None:
    log("starting nasplan (SQLite) for the plan, size, bundle, runbook and collection rows")
    with serve(bench.tmp, "main", env={"NASPLAN_RATE_LIMIT_COMPUTE": ""}) as server:
        for row in ("plans", "size", "bundle", "runbook", "collection"):
            if row not in rows:
                continue
            bench.guarded(row, functools.partial(server_row, bench, server, row))


def server_row(bench: Bench, server: Server, row: str) -> None:
    if row == "plans":
        plans(bench, server)
    elif row == "collection":
        collection(bench, server)
    elif row == "size":
        size(bench, server)
    else:
        files(bench, server, row)

#!/usr/bin/env python3
"""Throughput and latency of POST /api/v1/plans against GET /api/v1/health, same run, loopback.

Starts nasplan on a free port (SQLite in a temporary directory), warms the endpoints up, then
drives each with wrk (installed from Debian when missing) and prints requests per second,
p50 and p99 latency, and the plans/health throughput ratio against the target (>= 0.5).

Plans are measured twice: the same platform every time (served from the server's cache of
recent plans after the first request) and a different platform on every request (memory_gb
changes, so every request is planned from scratch).

    .venv/bin/python scripts/bench.py [--seconds 10] [--connections 16] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_RATIO = 0.5
PLATFORM = {
    "host": {"os": "solaris", "os_version": "9u5", "arch": "sparc", "memory_gb": 48},
    "network": {"nic_gbps": 1, "nic_count": 2, "jumbo_frames": True,
                "switch": "store_and_forward", "router_hops": 0,
                "dedicated_storage_network": True, "rtt_us": None},
    "oracle": {"version": "9.2.0.4", "bits": 64, "rac": False, "rac_nodes": None,
               "dnfs": False, "archivelog": True, "workload": "oltp"},
    "filer": {"vendor": "netapp", "model": "FAS940", "os_version": "7.0"},
    "layout": {"oracle_home": "nas", "filer_host": "filer01", "db_name": "PROD"},
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    print("wrk not found: installing it from Debian (apt-get install wrk)", flush=True)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "wrk"], check=True,
                   stdout=subprocess.DEVNULL)
    return shutil.which("wrk") or sys.exit("wrk could not be installed")


def wait_healthy(base: str, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/api/v1/health", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    sys.exit("server did not become healthy")


def run_wrk(wrk: str, url: str, args: argparse.Namespace, lua: Path | None) -> dict[str, float]:
    command = [wrk, f"-t{args.threads}", f"-c{args.connections}", f"-d{args.seconds}s",
               "--latency"]
    if lua is not None:
        command += ["-s", str(lua)]
    output = subprocess.run([*command, url], check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]

    def percentile(label: str) -> float:
        value, unit = re.search(rf"\s{label}%\s+([\d.]+)(us|ms|s)", output).groups()  # type: ignore[union-attr]
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {"rps": rps, "p50_ms": percentile("50"), "p99_ms": percentile("99"),
            "non_2xx": float(errors.group(1)) if errors else 0.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    wrk = ensure_wrk()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        lua = Path(tmp) / "post.lua"
        body = json.dumps(PLATFORM).replace("\\", "\\\\").replace('"', '\\"')
        lua.write_text(
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f'wrk.body = "{body}"\n'
        )
        distinct = Path(tmp) / "distinct.lua"
        template = body.replace('\\"memory_gb\\": 48', '\\"memory_gb\\": __MEM__')
        distinct.write_text(
            f'local template = "{template}"\n'
            "local counter = 0\n"
            "request = function()\n"
            "  counter = counter + 1\n"
            '  local text = string.gsub(template, "__MEM__", tostring(counter % 65536 + 1))\n'
            '  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, text)\n'
            "end\n"
        )
        env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1",
               "DATABASE_URL": f"sqlite:///{tmp}/bench.db"}
        server = subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "nasplan"), "serve"], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            wait_healthy(base)
            warm = argparse.Namespace(threads=1, connections=4, seconds=2)
            run_wrk(wrk, f"{base}/api/v1/health", warm, None)
            run_wrk(wrk, f"{base}/api/v1/plans", warm, lua)
            health = run_wrk(wrk, f"{base}/api/v1/health", args, None)
            plans = run_wrk(wrk, f"{base}/api/v1/plans", args, lua)
            fresh = run_wrk(wrk, f"{base}/api/v1/plans", args, distinct)
        finally:
            server.terminate()
            server.wait(timeout=10)
    rows = (
        ("GET  /api/v1/health", health),
        ("POST /api/v1/plans (same)", plans),
        ("POST /api/v1/plans (distinct)", fresh),
    )
    print(f"nasplan benchmark: wrk -t{args.threads} -c{args.connections} -d{args.seconds}s, "
          f"one uvicorn worker, loopback, {os.cpu_count()} CPUs")
    print(f"{'endpoint':32} {'req/s':>10} {'p50 ms':>9} {'p99 ms':>9} {'non-2xx':>8}")
    for name, result in rows:
        print(f"{name:32} {result['rps']:10.1f} {result['p50_ms']:9.2f} {result['p99_ms']:9.2f} "
              f"{int(result['non_2xx']):8d}")
    for label, result in (("same platform", plans), ("distinct platforms", fresh)):
        ratio = result["rps"] / health["rps"]
        verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
        print(f"plans/health ratio, {label}: {ratio:.2f} (target >= {TARGET_RATIO}: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

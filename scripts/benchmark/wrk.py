"""wrk: found or installed, run against a URL and its output parsed; the Lua request scripts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmark.common import PLATFORM, log


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    log("wrk not found: installing it from Debian (apt-get install wrk)")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(
        [*sudo, "apt-get", "install", "-y", "-qq", "wrk"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return shutil.which("wrk") or sys.exit("wrk could not be installed")


@dataclass
class Wrk:
    exe: str
    seconds: int
    threads: int
    tmp: Path
    scripts: int = 0
    next_memory: int = 1

    def run(
        self,
        url: str,
        connections: int,
        lua: str | None = None,
        seconds: int | None = None,
    ) -> dict[str, float]:
        threads = max(1, min(self.threads, connections))
        command = [
            self.exe,
            f"-t{threads}",
            f"-c{connections}",
            f"-d{seconds or self.seconds}s",
            "--timeout",
            "10s",
            "--latency",
        ]
        if lua is not None:
            self.scripts += 1
            path = self.tmp / f"wrk-{self.scripts}.lua"
            path.write_text(lua)
            command += ["-s", str(path)]
        done = subprocess.run([*command, url], check=True, capture_output=True, text=True)
        output = done.stdout
        found = re.search(r"Requests/sec:\s+([\d.]+)", output)
        if found is None:
            raise RuntimeError(f"wrk printed no Requests/sec:\n{output}\n{done.stderr}")
        rps = float(found.group(1))

        def millis(pattern: str) -> float:
            value, unit = re.search(pattern, output).groups()  # type: ignore[union-attr]
            return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]

        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        socket_errors = re.search(r"Socket errors: (.*)", output)
        return {
            "rps": rps,
            "avg_ms": millis(r"Latency\s+([\d.]+)(us|ms|s|m)\b"),
            "p50_ms": millis(r"\s50%\s+([\d.]+)(us|ms|s|m)\b"),
            "p99_ms": millis(r"\s99%\s+([\d.]+)(us|ms|s|m)\b"),
            "non_2xx": float(errors.group(1)) if errors else 0.0,
            "socket_errors": 1.0 if socket_errors else 0.0,
        }

    def distinct_memory(self) -> int:
        """First memory_gb of a distinct-platform run: each run starts where the last ended,
        so no run repeats a platform the server's cache (512 plans) could still hold."""
        start = self.next_memory
        self.next_memory = (self.next_memory + 16384) % 65536
        return start


def lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def lua_bytes(data: bytes) -> str:
    """Any bytes as a Lua string literal (decimal escapes for all but plain ASCII)."""
    return (
        '"'
        + "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:03d}" for b in data)
        + '"'
    )


def lua_post_bytes(path: str, data: bytes, content_type: str) -> str:
    """The same POST body every request, set through wrk's own request fields: Debian's wrk
    4.1 sends a request that wrk.format() built at load time as one uvicorn cannot parse
    ("Invalid HTTP request received"), so every answer was a 400."""
    return (
        'wrk.method = "POST"\n'
        f"wrk.path = {lua_string(path)}\n"
        f"wrk.body = {lua_bytes(data)}\n"
        f'wrk.headers["Content-Type"] = {lua_string(content_type)}\n'
    )


def lua_post(path: str, platform: dict[str, object]) -> str:
    """The same JSON body every request."""
    return lua_post_bytes(path, json.dumps(platform).encode(), "application/json")


def lua_distinct(path: str, first_memory: int) -> str:
    """A different memory_gb (1..65536) every request; wrk threads start 4096 apart."""
    template = json.dumps({**PLATFORM, "host": {**PLATFORM["host"], "memory_gb": 999999}})
    template = template.replace('"memory_gb": 999999', '"memory_gb": __MEM__')
    return (
        f"local template = {lua_string(template)}\n"
        'local headers = {["Content-Type"] = "application/json"}\n'
        "local threads = 0\n"
        "setup = function(thread)\n"
        "  thread:set('offset', threads * 4096)\n"
        "  threads = threads + 1\n"
        "end\n"
        "local counter = 0\n"
        f"init = function(args) counter = {first_memory} + (offset or 0) end\n"
        "request = function()\n"
        "  counter = counter + 1\n"
        '  local text = string.gsub(template, "__MEM__", tostring(counter % 65536 + 1))\n'
        f"  return wrk.format('POST', {lua_string(path)}, headers, text)\n"
        "end\n"
    )


def lua_random_get(prefix: str, ids: list[str]) -> str:
    listed = ",\n".join(lua_string(i) for i in ids)
    return (
        f"local ids = {{\n{listed}\n}}\n"
        "init = function(args) math.randomseed(os.time() + math.floor(os.clock() * 1e6)) end\n"
        "request = function()\n"
        f"  return wrk.format('GET', {lua_string(prefix)} .. ids[math.random(#ids)])\n"
        "end\n"
    )

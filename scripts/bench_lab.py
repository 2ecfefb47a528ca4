#!/usr/bin/env python3
"""The lab's costs: image build, boot, and each platform's journey (lab/README.md).

Rows, each beside a baseline from the same run:
  image build   lab/image/build.sh into an empty cache (debootstrap, the cold path), beside the
                same script answering from the cache (the path every later run takes).
  boot          one guest from QEMU's start to its power-off with an empty job (boot to the
                job, then shut down), under the same emulation the journeys use.
  journey       each matrix platform through the journey, one at a time, beside the bare boots
                it needs (a filer and four host boots for the scripts, three for Ansible): the
                ratio is what the bundle's own work costs on top of booting.
Target: the whole matrix within 15 minutes, one platform at a time (the test command's budget).

    .venv/bin/python scripts/bench_lab.py [--skip-cold-build]

Also run by ``scripts/bench.py --only lab``. Progress goes to stderr, the report to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "lab"))

from bench import Report, log  # noqa: E402  (this script's neighbour)
from nasplan_lab.__main__ import ANSIBLE_PLATFORMS, build_image, why_not  # noqa: E402
from nasplan_lab.journey import journey  # noqa: E402
from nasplan_lab.qemu import Image, job_tar, start  # noqa: E402

MATRIX_TARGET_S = 15 * 60
BUILD = ROOT / "lab" / "image" / "build.sh"


def _timed_build(cache: Path | None) -> float:
    env = dict(os.environ)
    if cache is not None:
        env["NASPLAN_LAB_CACHE"] = str(cache)
    began = time.monotonic()
    subprocess.run([str(BUILD)], env=env, check=True, capture_output=True)
    return time.monotonic() - began


def bare_boot(image: Image) -> float:
    with tempfile.TemporaryDirectory(prefix="nasplan-bench-boot-") as name:
        work = Path(name)
        job_tar({"boot.sh": b"systemctl poweroff\n"}, work / "job.tar")
        began = time.monotonic()
        start(image, work, "bare", work / "job.tar", []).wait(timeout=600)
        return time.monotonic() - began


def run(report: Report, cold_build: bool) -> None:
    reason = why_not()
    if reason:
        report.missing("lab", "matrix <= 15 min", reason)
        return
    log("lab: image build")
    image = build_image()
    cached = _timed_build(None)
    if cold_build:
        with tempfile.TemporaryDirectory(prefix="nasplan-bench-image-") as cache:
            cold = _timed_build(Path(cache))
        report.add("lab image build (debootstrap)", f"{cold:.0f} s", f"{cached:.2f} s cached",
                   f"{cold / max(cached, 0.01):.0f}x", "measured", None)  # fmt: skip
    log("lab: bare boot")
    boot = bare_boot(image)
    report.add("lab boot to power-off", f"{boot:.1f} s", "—", "—", "measured", None)
    total = 0.0
    platforms = sorted((ROOT / "lab" / "platforms").glob("*.json"))
    runs = [(p, "scripts", 5) for p in platforms]
    runs += [(p, "ansible", 3) for p in platforms if p.stem in ANSIBLE_PLATFORMS]
    for path, mode, boots in runs:
        log(f"lab: journey {path.stem} ({mode})")
        verdict = journey(path.stem, json.loads(path.read_text()), image, mode=mode)
        seconds = verdict.timings.get("journey_s", 0.0)
        total += seconds
        baseline = boots * boot
        outcome = "pass" if verdict.ok else "FAIL"
        report.add(
            f"lab journey {verdict.name}",
            f"{seconds:.0f} s ({outcome})",
            f"{baseline:.0f} s = {boots} bare boots",
            f"{seconds / baseline:.2f}x",
            "measured",
            verdict.ok,
        )
    report.add("lab matrix, one at a time", f"{total:.0f} s", "—", "—",
               f"<= {MATRIX_TARGET_S} s", total <= MATRIX_TARGET_S)  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-cold-build", action="store_true")
    args = parser.parse_args()
    report = Report()
    began = time.monotonic()
    run(report, not args.skip_cold_build)
    report.print(
        [f"nasplan lab benchmark: {os.cpu_count()} CPUs; took {time.monotonic() - began:.0f} s"]
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

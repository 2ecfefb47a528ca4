"""The nasplan lab: Linux bundles applied to virtual machines, rebooted, verified, rolled back.

python -m nasplan_lab run PLATFORM.json    one platform file through the journey
python -m nasplan_lab matrix               every platform in lab/platforms/
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from nasplan_lab.journey import journey
from nasplan_lab.judge import Verdict, same_outcome
from nasplan_lab.qemu import Image

LAB = Path(__file__).resolve().parent.parent
# Platforms whose Ansible playbook the matrix also applies (each adds a pair of machines).
ANSIBLE_PLATFORMS = ("si-knfs-v3-jumbo",)


def build_image() -> Image:
    done = subprocess.run(
        [str(LAB / "image" / "build.sh")], check=True, capture_output=True, text=True
    )
    return Image(Path(done.stdout.strip().splitlines()[-1]))


def why_not() -> str:
    """Why the lab cannot run on this machine ("" when it can)."""
    missing = [t for t in ("qemu-system-x86_64", "qemu-img", "debootstrap", "mkfs.ext4")
               if shutil.which(t) is None]  # fmt: skip
    if missing:
        return f"missing {', '.join(missing)}"
    if os.geteuid() != 0:
        return "the image build needs root (debootstrap, chroot)"
    probe = subprocess.run(
        ["qemu-system-x86_64", "-accel", "help"], capture_output=True, text=True, check=False
    )
    if "tcg" not in probe.stdout:
        return "this QEMU has no software emulation (tcg)"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nasplan-lab", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("run", help="run one platform file through the lab")
    one.add_argument("platform", type=Path)
    one.add_argument("--keep", type=Path, help="keep the guests' disks, consoles and results here")
    one.add_argument("--ansible", action="store_true", help="apply the playbook instead")
    every = sub.add_parser("matrix", help="run every platform in lab/platforms/")
    every.add_argument(
        "--keep", type=Path, help="keep the guests' disks, consoles and results here"
    )
    every.add_argument("--jobs", type=int, default=int(os.environ.get("NASPLAN_LAB_JOBS", "2")))
    sub.add_parser("can-run", help="exit 0 if the lab can run here, else print why not")
    args = parser.parse_args(argv)
    if args.command == "can-run" or why_not():
        print(why_not() or "the lab can run here")
        return 1 if why_not() else 0
    began = time.monotonic()
    image = build_image()
    print(
        f"lab image: {image.directory} (ready after {time.monotonic() - began:.1f} s)", flush=True
    )
    files = [args.platform] if args.command == "run" else sorted((LAB / "platforms").glob("*.json"))

    runs = [(path, "scripts") for path in files]
    if args.command == "matrix":
        runs += [(path, "ansible") for path in files if path.stem in ANSIBLE_PLATFORMS]
    elif args.ansible:
        runs = [(args.platform, "ansible")]

    def one_journey(item: tuple[Path, str]) -> Verdict:
        path, mode = item
        platform = json.loads(path.read_text())
        verdict = journey(path.stem, platform, image, keep=args.keep, mode=mode)
        print(verdict.report(), flush=True)
        return verdict

    jobs = 1 if args.command == "run" else max(1, args.jobs)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        verdicts = list(pool.map(one_journey, runs))
    by_name = {v.name: v for v in verdicts}
    for (path, mode), verdict in zip(runs, verdicts, strict=True):
        if mode == "ansible" and path.stem in by_name:
            check = same_outcome(verdict, by_name[path.stem])
            verdict.checks.append(check)
            print(
                f"== {verdict.name}: {'ok  ' if check.ok else 'FAIL'} {check.claim} {check.detail}"
            )
    failed = [v.name for v in verdicts if not v.ok]
    print(
        f"lab: {len(verdicts) - len(failed)} of {len(verdicts)} platform(s) passed"
        + (f"; failed: {', '.join(failed)}" if failed else "")
        + f" ({time.monotonic() - began:.0f} s)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""The bundle's Ansible playbook, run for real from this machine over SSH to the lab's host."""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

LAB = Path(__file__).resolve().parent.parent
VENV = LAB / ".venv-ansible"
REQUIREMENTS = LAB / "requirements-ansible.txt"
READY = "READY-FOR-ANSIBLE"
_RECAP = re.compile(r"ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)")


@dataclass(frozen=True)
class PlaybookRun:
    exit_code: int
    changed: int
    failed: int
    unreachable: int
    log: str


def ansible_playbook() -> Path:
    """ansible-playbook from the lab's own environment (the `ansible` package bundles
    ansible.posix, which the playbook needs), installed on first use."""
    binary = VENV / "bin" / "ansible-playbook"
    stamp = VENV / ".requirements"
    wanted = REQUIREMENTS.read_text()
    if binary.exists() and stamp.is_file() and stamp.read_text() == wanted:
        return binary
    uv = Path(os.environ.get("NASPLAN_UV", LAB.parent / ".venv" / "bin" / "uv"))
    subprocess.run([str(uv), "venv", "-q", "--python", "python3", str(VENV)], check=True)
    subprocess.run(
        [str(uv), "pip", "install", "-q", "--python", str(VENV / "bin" / "python"),
         "-r", str(REQUIREMENTS)],
        check=True,
    )  # fmt: skip
    stamp.write_text(wanted)
    return binary


def wait_for_console(console: Path, marker: str, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if console.is_file() and marker in console.read_text(errors="replace"):
            return True
        time.sleep(2)
    return False


def keypair(workdir: Path) -> tuple[Path, bytes]:
    key = workdir / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    return key, (workdir / "id_ed25519.pub").read_bytes()


def _ssh_options(key: Path, port: int) -> list[str]:
    return [
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "LogLevel=ERROR", "-i", str(key), "-p", str(port),
    ]  # fmt: skip


def run_playbook(bundle: Path, key: Path, port: int) -> PlaybookRun:
    """The playbook as the bundle's README says to run it, with the lab host's address."""
    env = {
        **os.environ,
        "ANSIBLE_HOST_KEY_CHECKING": "False",
        "ANSIBLE_NOCOLOR": "1",
        # One SSH round trip per task instead of three (the guest is emulated, so each costs).
        "ANSIBLE_PIPELINING": "True",
        "ANSIBLE_SSH_ARGS": "-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR",
    }
    done = subprocess.run(
        [
            str(ansible_playbook()),
            "-i",
            "ansible/inventory.ini",
            "ansible/site.yml",
            "-e",
            f"ansible_host=127.0.0.1 ansible_port={port} ansible_user=root",
            "--private-key",
            str(key),
        ],
        cwd=bundle,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    log = done.stdout + done.stderr
    recap = _RECAP.findall(log)
    _, changed, unreachable, failed = (int(x) for x in recap[-1]) if recap else (0, -1, -1, -1)
    return PlaybookRun(done.returncode, changed, failed, unreachable, log)


def tell_guest_to_go_on(key: Path, port: int) -> None:
    subprocess.run(
        ["ssh", *_ssh_options(key, port), "root@127.0.0.1", "touch /run/nasplan-lab-continue"],
        check=True,
        timeout=120,
    )

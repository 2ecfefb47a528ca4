"""A setting the knowledge base gives as a minimum (at_least: Oracle's pre-install socket
buffers, LNX-ORACLE-PREINSTALL-NET) keeps a larger value the host has: the generated scripts
lowered it to the minimum before (found by the audit work of issue 26, left in its note of
2026-11-29). The shell is run here with a stand-in sysctl that reports the host's values."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import yaml

from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from tests.conftest import preset_platform

# What the stand-in sysctl reports: wmem_max above its minimum, rmem_default below it; the
# other keys are absent (sysctl fails), as a key of an unloaded module is.
HOST = {"net.core.wmem_max": "8388608", "net.core.rmem_default": "212992"}


def _files(kb: KnowledgeBase) -> dict[str, str]:
    plan = make_plan(kb, preset_platform(kb, "current-linux-ontap"))
    minimums = {s.key for s in plan.settings if s.at_least}
    assert minimums == {
        "net.core.rmem_default",
        "net.core.rmem_max",
        "net.core.wmem_default",
        "net.core.wmem_max",
    }
    return render_bundle_files(plan)


def _run(tmp_path: Path, script: str) -> str:
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    cases = "\n".join(f'  "-n {k}") echo {v} ;;' for k, v in HOST.items())
    (fake / "sysctl").write_text(f'#!/bin/sh\ncase "$*" in\n{cases}\n  *) exit 255 ;;\nesac\n')
    (fake / "sysctl").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["sh", "-c", script], capture_output=True, text=True, env=env, check=True, timeout=30
    )
    return done.stdout


def _between(text: str, start: str, end: str) -> str:
    match = re.search(re.escape(start) + r".*?" + re.escape(end), text, re.S)
    assert match, (start, end)
    return match.group(0)


def test_the_file_read_at_boot_keeps_a_larger_value_and_raises_a_smaller(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    tuning = _files(kb)["host/tuning.sh"]
    functions = _between(tuning, "above_minimum() {", "\n}\n") + _between(
        tuning, "AT_LEAST_KEYS=", "NASPLAN_EOF\n}\n"
    )
    written = _run(tmp_path, functions + "sysctl_text\n").splitlines()
    assert "net.core.wmem_max = 8388608" in written  # larger: kept
    assert "net.core.rmem_default = 262144" in written  # smaller: raised
    assert "net.core.rmem_max = 4194304" in written  # not readable: the minimum
    assert "net.ipv4.tcp_rmem = 4096 87380 4194304" in written  # no minimum: as planned
    # Live: the larger value is reported as kept, not set again.
    live = _between(tuning, "now=$(sysctl -n net.core.wmem_max", "\nfi\n")
    said = _run(
        tmp_path,
        functions.split("SYSCTL_FILE=")[0]
        + 'norm() { printf \'%s\' "$1"; }\nsay() { echo "$*"; }\n'
        + 'do_run() { echo RUN "$*"; }\n'
        + live,
    )
    assert "above the minimum 1048576" in said and "RUN" not in said, said


def test_the_verify_script_passes_a_larger_value(kb: KnowledgeBase, tmp_path: Path) -> None:
    verify = _files(kb)["verify/verify_host.sh"]
    helpers = _between(verify, "is_at_least() {", "\n}\n") + _between(
        verify, "file_sets() {", "\n}\n"
    )
    conf = tmp_path / "90-test.conf"
    conf.write_text("net.core.wmem_max = 8388608\nnet.core.rmem_max = 1048576\n")
    checks = (
        f"file_sets net.core.wmem_max 1048576 {conf} at_least && echo a\n"
        f"file_sets net.core.rmem_max 4194304 {conf} at_least || echo b\n"
        f"file_sets net.core.wmem_max 1048576 {conf} || echo c\n"
        "is_at_least 8388608 1048576 && echo d\n"
        "is_at_least 4096 1048576 || echo e\n"
        "is_at_least '4096 87380' 4096 || echo f\n"
    )
    assert _run(tmp_path, helpers + checks).split() == list("abcdef")


def test_the_playbook_writes_the_larger_of_the_two(kb: KnowledgeBase) -> None:
    plays = yaml.safe_load(_files(kb)["ansible/site.yml"].replace("!unsafe ", ""))
    tasks = [t for play in plays for t in play.get("tasks", [])]
    values = {
        str(t["ansible.posix.sysctl"]["name"]): str(t["ansible.posix.sysctl"]["value"])
        for t in tasks
        if "ansible.posix.sysctl" in t
    }
    assert re.fullmatch(
        r"\{\{ \[nasplan_sysctl_now_\d+\.stdout \| int, 1048576\] \| max \}\}",
        values["net.core.wmem_max"],
    )
    assert values["net.ipv4.tcp_sack"] == "1"


def _aix_no_block(kb: KnowledgeBase) -> tuple[str, str]:
    plan = make_plan(kb, preset_platform(kb, "example-aix"))
    assert [s.key for s in plan.settings if s.at_least and s.mechanism == "no"] == ["sb_max"]
    files = render_bundle_files(plan)
    tuning = _between(files["host/tuning.sh"], "above_minimum() {", "\n}\n") + _between(
        files["host/tuning.sh"], "now=$(no -o sb_max", "\nfi\n"
    )
    verify = _between(files["verify/verify_host.sh"], "is_at_least() {", "\n}\n") + _between(
        files["verify/verify_host.sh"], "now=$(no -o sb_max", "\nfi\n"
    )
    return tuning, verify


def test_aix_keeps_a_larger_sb_max_and_raises_a_smaller(kb: KnowledgeBase, tmp_path: Path) -> None:
    """AIX-NO-SB-MAX asks for 4194304 'or higher' (Oracle's AIX Table 3-6): host/tuning.sh
    leaves a larger value alone and sets a smaller one; verify passes the larger."""
    tuning, verify = _aix_no_block(kb)
    stubs = 'say() { echo "$*"; }\ndo_run() { echo RUN "$*"; }\npass() { echo PASS "$*"; }\n'
    stubs += 'fail() { echo FAIL "$*"; }\n'
    said = {}
    for value in ("8388608", "4194304", "524288"):
        fake = tmp_path / value
        fake.mkdir()
        (fake / "no").write_text(f'#!/bin/sh\necho "sb_max = {value}"\n')
        (fake / "no").chmod(0o755)
        env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
        said[value] = subprocess.run(
            ["sh", "-c", stubs + tuning + "\n" + verify],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=30,
        ).stdout
    assert "above the minimum 4194304" in said["8388608"] and "RUN" not in said["8388608"]
    assert "PASS no sb_max = 4194304 or more (now 8388608)" in said["8388608"]
    assert "ok: sb_max is 4194304" in said["4194304"] and "RUN" not in said["4194304"]
    assert "RUN no -p -o sb_max=4194304" in said["524288"]
    assert "FAIL no sb_max is 524288, planned" in said["524288"]

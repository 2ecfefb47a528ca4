"""ansible/site.yml's ansible.posix tasks (mount, sysctl) validated against the modules' own
argument specs from the pinned `ansible` package, on every Linux bundle of the matrix (issue
27: the real specs, where the hostile-bundle tests run the playbook against a stub)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from tests.ansible_env import ansible_python
from tests.renderers.matrix import COMBOS, combo_id, combo_plan

CHECK = Path(__file__).with_name("playbook_spec_check.py")
LINUX = [c for c in COMBOS if c[0] == "linux"]


@pytest.fixture(scope="module")
def ansible() -> Path:
    return ansible_python()


def _check(ansible: Path, playbook: Path) -> dict[str, Any]:
    done = subprocess.run(
        [str(ansible), str(CHECK), str(playbook), "{}"], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("combo", LINUX, ids=[combo_id(*c) for c in LINUX])
def test_every_posix_task_fits_the_modules_argument_spec(
    kb: KnowledgeBase, ansible: Path, tmp_path: Path, combo: tuple[str, str, bool, bool]
) -> None:
    playbook = tmp_path / "site.yml"
    playbook.write_text(render_bundle_files(combo_plan(kb, *combo))["ansible/site.yml"])
    result = _check(ansible, playbook)
    assert result["problems"] == [] and result["checked"] >= 3


def test_a_wrong_mount_state_is_caught(kb: KnowledgeBase, ansible: Path, tmp_path: Path) -> None:
    text = render_bundle_files(combo_plan(kb, "linux", "ontap_cluster", False, False))[
        "ansible/site.yml"
    ]
    plays = yaml.safe_load(text.replace("!unsafe ", ""))
    mount = next(t for t in plays[0]["tasks"] if "ansible.posix.mount" in t)
    mount["ansible.posix.mount"]["state"] = "mountedd"
    playbook = tmp_path / "site.yml"
    playbook.write_text(yaml.safe_dump(plays))
    problems = _check(ansible, playbook)["problems"]
    assert any("state" in p and "mountedd" in p for p in problems), problems

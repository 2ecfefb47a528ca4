"""Every generated script passes shellcheck (the real binary; ./scripts/test.sh installs it)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from nasplan.domain.plan import Plan
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from tests.renderers.matrix import COMBOS, combo_id, combo_plan, combo_platform, preset_plan
from tests.renderers.test_handover import full_answers


def _unnamed_plan(kb: KnowledgeBase, combo: tuple[str, str, bool, bool]) -> Plan:
    """The same platform with none of the optional names (host and filer interfaces, host
    name): the scripts then print manual steps instead, and must stay as clean."""
    data = combo_platform(kb, *combo).model_dump(mode="json")
    for section, key in (("host", "nic_interface"), ("host", "hostname"), ("filer", "interface")):
        data[section].pop(key, None)
    data["network"]["jumbo_frames"] = True
    return make_plan(kb, Platform.model_validate(data))


def _scripts(kb: KnowledgeBase) -> dict[str, str]:
    scripts: dict[str, str] = {}
    plans = {combo_id(*c): combo_plan(kb, *c) for c in COMBOS}
    plans.update({f"unnamed-{combo_id(*c)}": _unnamed_plan(kb, c) for c in COMBOS if c[3]})
    plans.update({f"preset-{p}": preset_plan(kb, p) for p in kb.presets})
    # Every hand-over and sizing answer given: paths, names and sizes in the scripts.
    plans.update(
        {
            f"answered-{p}": make_plan(kb, Platform.model_validate(full_answers(kb, p)))
            for p in kb.presets
        }
    )
    for name, plan in plans.items():
        for path, text in render_bundle_files(plan).items():
            if text.startswith("#!"):
                scripts[f"{name}/{path}"] = text
    return scripts


def test_every_generated_script_passes_shellcheck(kb: KnowledgeBase, tmp_path: Path) -> None:
    binary = shutil.which("shellcheck")
    if binary is None:
        pytest.fail(
            "shellcheck is not installed: run ./scripts/test.sh (it installs the Debian "
            "package), or apt-get install shellcheck"
        )
    scripts = _scripts(kb)
    assert len(scripts) > 300
    paths = []
    for name, text in scripts.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    result = subprocess.run(
        [binary, "--format=gcc", "--severity=style", *paths],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]

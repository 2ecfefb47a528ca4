"""Every bundle file for every OS x filer family x RAC x dNFS combination and every preset,
compared with the goldens in golden/ (see golden_io.py for how to regenerate them)."""

from __future__ import annotations

import pytest

from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from tests.renderers.golden_io import check_golden, flatten
from tests.renderers.matrix import COMBOS, combo_id, combo_plan, preset_plan

PRESETS = [
    "tr3322-lab",
    "tr3322-e4500",
    "tr3496-lab",
    "fawcett-lab",
    "current-linux-ontap",
    "current-rac",
    "example-linux-knfs-7mode",
    "example-aix",
    "example-hpux",
    "current-anf",
    "current-gcnv",
    "current-fsxn",
]


@pytest.mark.parametrize("combo", COMBOS, ids=[combo_id(*c) for c in COMBOS])
def test_combination_matches_golden(kb: KnowledgeBase, combo: tuple[str, str, bool, bool]) -> None:
    files = render_bundle_files(combo_plan(kb, *combo))
    # plan.json, RUNBOOK.html and the collector (one script per OS, whatever the filer) are
    # checked for the presets; here they would only repeat.
    skip = ("plan.json", "RUNBOOK.html", "verify/collect.sh")
    check_golden(combo_id(*combo), flatten(files, skip=skip))


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_matches_golden(kb: KnowledgeBase, preset: str) -> None:
    files = render_bundle_files(preset_plan(kb, preset))
    check_golden(f"preset-{preset}", flatten(files, skip=("plan.json",)))


def test_all_presets_are_covered(kb: KnowledgeBase) -> None:
    assert sorted(PRESETS) == sorted(kb.presets)

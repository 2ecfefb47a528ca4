"""The bundle's index (bundle_index): every file a bundle holds is described, and the storage
administrator's working files the runbook names are entries of it."""

from __future__ import annotations

import pytest

from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.bundle_index import (
    BUNDLE_FILES,
    CHECK_SCRIPT,
    MANIFEST,
    RUNBOOK_SUMS,
    RUNBOOKS,
    STORAGE_WORK,
    describe,
    entry_for,
    storage_work_paths,
)
from nasplan.renderers.runbook_sections import storage_files
from tests.renderers.matrix import COMBOS, combo_id, combo_plan, preset_plan

# README.md is the index itself: its own line in it has no description.
UNDESCRIBED = {"README.md"}


def _bundles(kb: KnowledgeBase) -> dict[str, dict[str, str]]:
    bundles = {f"preset-{p}": render_bundle_files(preset_plan(kb, p)) for p in sorted(kb.presets)}
    bundles |= {combo_id(*c): render_bundle_files(combo_plan(kb, *c)) for c in COMBOS}
    return bundles


@pytest.fixture(scope="module")
def bundles(kb: KnowledgeBase) -> dict[str, dict[str, str]]:
    return _bundles(kb)


def test_every_file_of_every_bundle_is_described(bundles: dict[str, dict[str, str]]) -> None:
    missing = {
        f"{name}: {path}"
        for name, files in bundles.items()
        for path in files
        if path not in UNDESCRIBED and describe(path) == ("", "", "")
    }
    assert not missing
    assert all(describe(path) == ("", "", "") for path in UNDESCRIBED)


def test_review_block_files_are_entries() -> None:
    for path in (MANIFEST, RUNBOOK_SUMS, CHECK_SCRIPT, *RUNBOOKS):
        entry = entry_for(path)
        assert entry is not None and entry.path == path


def test_entries_are_unique_and_reachable() -> None:
    paths = [entry.path for entry in BUNDLE_FILES]
    assert len(paths) == len(set(paths))
    # An exact name after the folder that holds it would never be reached.
    for entry in BUNDLE_FILES:
        assert entry_for(entry.path) is entry


def test_storage_work_files_are_entries_in_the_runbooks_order() -> None:
    assert [entry.path for entry in STORAGE_WORK] == [
        "filer/commands.txt",
        "ansible/filer.yml",
        "terraform/",
        "filer/fsx/",
        "filer/az_netappfiles.txt",
        "filer/gcloud_netapp.txt",
        "filer/anf_volume_group.txt",
        "filer/shares.txt",
    ]
    assert [entry.storage_order for entry in STORAGE_WORK] == list(range(1, len(STORAGE_WORK) + 1))
    for entry in STORAGE_WORK:
        assert entry in BUNDLE_FILES
        assert entry.team == "storage administrator"


def test_storage_work_files_of_a_bundle_are_in_it(bundles: dict[str, dict[str, str]]) -> None:
    seen: set[str] = set()
    for files in bundles.values():
        present = storage_work_paths(files)
        seen.update(present)
        for name in present:
            assert any(path == name or path.startswith(name) for path in files)
            assert describe(name) != ("", "", "")
        assert storage_files(files).startswith(", ".join(present) + " (phases 1 to 3)")
        assert storage_files(files) in files["RUNBOOK.md"]
    assert seen == {entry.path for entry in STORAGE_WORK}

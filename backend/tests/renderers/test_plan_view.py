"""The plan view serves each item's key, the name a plan diff gives it, so no client rebuilds the
keys; a bundle's plan.json stays the plan and never carries them."""

from __future__ import annotations

import datetime as dt
import json

from nasplan.domain.platform import Platform
from nasplan.engine.diff import diff_plans
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.plan_view import PlanView, plan_view
from tests.renderers.matrix import preset_plan


def test_item_keys_are_index_aligned_and_name_what_the_diff_names(kb: KnowledgeBase) -> None:
    parsed = Platform.model_validate(kb.presets["tr3496-lab"].platform)
    old = make_plan(kb, parsed, dt.date(2005, 6, 1))
    new = make_plan(kb, parsed, dt.date(2026, 11, 1))
    served = json.loads(plan_view(new).model_dump_json())
    keys = served["item_keys"]
    assert len(keys["mounts"]) == len(served["mounts"]) > 0
    assert len(keys["settings"]) == len(served["settings"]) > 0
    assert len(keys["findings"]) == len(served["findings"])
    assert keys["mounts"][0] == f"{'+'.join(new.mounts[0].serves)} {new.mounts[0].mount_point}"
    changed = {(c.item, c.key) for c in diff_plans(old, new) if c.kind != "removed"}
    by_kind = {"mount": "mounts", "setting": "settings", "finding": "findings"}
    named = [(item, key) for item, key in changed if item in by_kind]
    assert named, "the two dates must differ in at least one mount, setting or finding"
    for item, key in named:
        assert key in keys[by_kind[item]]


def test_the_keys_are_computed_not_read_back(kb: KnowledgeBase) -> None:
    view = plan_view(preset_plan(kb, "tr3322-lab"))
    stored = json.loads(view.model_dump_json())
    stored["item_keys"] = {"mounts": ["forged"], "settings": [], "findings": []}
    again = PlanView.model_validate(stored)
    assert again.item_keys.mounts == view.item_keys.mounts != ["forged"]


def test_a_bundles_plan_json_holds_no_view_field(kb: KnowledgeBase) -> None:
    plan = preset_plan(kb, "tr3322-lab")
    from_view = render_bundle_files(plan_view(plan))["plan.json"]
    served = json.loads(from_view)["plan"]
    assert "item_keys" not in served
    assert "mount_table" in served

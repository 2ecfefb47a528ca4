"""Every change names what it is about in parts, equal to what its key says, so no client has
to read them back out of the key."""

from __future__ import annotations

import datetime as dt
from typing import Any

from nasplan.domain.platform import Platform
from nasplan.engine.diff import Change, diff_plans
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge

TODAY = dt.date(2026, 11, 1)


def _changes(kb: KnowledgeBase, preset: str, patch: dict[str, Any], old: dt.date) -> list[Change]:
    base: dict[str, Any] = dict(kb.presets[preset].platform)
    before = make_plan(kb, Platform.model_validate(base), old)
    after = make_plan(kb, Platform.model_validate(deep_merge(base, patch)), TODAY)
    return diff_plans(before, after)


def test_mount_setting_finding_and_check_parts_say_what_the_key_says(kb: KnowledgeBase) -> None:
    changes = _changes(kb, "tr3496-lab", {"oracle": {"rac": True}}, dt.date(2005, 6, 1))
    seen = {c.item for c in changes}
    assert {"mount", "setting", "finding"} <= seen
    for c in changes:
        if c.item == "mount":
            assert (
                c.mount is not None and c.key == f"{'+'.join(c.mount.serves)} {c.mount.mount_point}"
            )
        elif c.item == "finding":
            assert c.finding is not None and c.key == f"{c.finding.rule}: {c.finding.message}"
        elif c.item == "check":
            assert c.check is not None and c.key == f"{c.check.where}: {c.check.what}"
        elif c.item == "setting":
            assert c.setting is not None and c.key.startswith(
                f"{c.setting.target} {c.setting.name}"
            )
        else:
            assert (c.mount, c.finding, c.check) == (None, None, None)


def test_a_storage_paths_answer_names_its_field_and_number(kb: KnowledgeBase) -> None:
    paths = [
        {"host_interface": "ens1f0", "host_address": "192.168.10.11/24"},
        {"host_interface": "ens1f1", "host_address": "192.168.11.11/24"},
    ]
    moved = [paths[0], {**paths[1], "host_address": "192.168.12.11/24"}]
    base = {"handover": {"paths": paths, "cluster_nodes": ["rac01", "rac02"]}}
    before = make_plan(
        kb,
        Platform.model_validate(deep_merge(dict(kb.presets["current-rac"].platform), base)),
        TODAY,
    )
    patch = {"handover": {"paths": moved, "cluster_nodes": ["rac01", "rac02b"]}}
    after = make_plan(
        kb,
        Platform.model_validate(deep_merge(dict(kb.presets["current-rac"].platform), patch)),
        TODAY,
    )
    answers = {c.key: c.answer for c in diff_plans(before, after) if c.item == "platform"}
    path = answers["handover.paths.2.host_address"]
    assert path is not None and (path.field, path.number) == ("handover.paths[].host_address", 2)
    nodes = answers["handover.cluster_nodes"]
    assert nodes is not None and (nodes.field, nodes.number) == ("handover.cluster_nodes[]", None)
    fields = {f.path for f in kb.fields}
    assert all(a is not None and a.field in fields for a in answers.values())


def test_every_platform_answer_change_names_a_field_of_the_catalog(kb: KnowledgeBase) -> None:
    patch = {"oracle": {"dnfs": False, "workload": "dss"}, "network": {"nic_count": 3}}
    answers = [
        c.answer for c in _changes(kb, "current-linux-ontap", patch, TODAY) if c.item == "platform"
    ]
    assert {a.field for a in answers if a is not None} == {
        "oracle.dnfs",
        "oracle.workload",
        "network.nic_count",
    }

"""knowledge/catalog/fields.yaml: one entry per platform answer, joined with the model's limits;
an entry that no longer fits the platform model stops the load with the file and the key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nasplan.domain.platform import Platform
from nasplan.domain.platform_fields import platform_fields
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import DEFAULT_KNOWLEDGE_DIR, KnowledgeError, load_knowledge

FIELDS = "catalog/fields.yaml"


@pytest.fixture()
def kb_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(DEFAULT_KNOWLEDGE_DIR, target)
    return target


def _break(root: Path, old: str, new: str) -> None:
    path = root / FIELDS
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _problems(root: Path) -> str:
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(root)
    return str(info.value)


def test_every_platform_answer_has_one_entry_in_the_wizards_order(kb: KnowledgeBase) -> None:
    paths = [field.path for field in kb.fields]
    assert sorted(paths) == sorted(row.path for row in platform_fields())
    assert len(paths) == len(set(paths))
    assert paths[:3] == ["host.os", "host.os_version", "host.arch"]


def test_a_row_carries_the_models_limits_and_the_words(kb: KnowledgeBase) -> None:
    hops = next(f for f in kb.fields if f.path == "network.router_hops")
    assert (hops.type, hops.minimum, hops.maximum) == ("integer", 0, 16)
    assert (hops.label, hops.step, hops.widget) == ("Routers on the path", "network", "text")
    assert hops.shown_when == {"managed_network": False}
    memory = next(f for f in kb.fields if f.path == "host.memory_gb")
    assert memory.unit == "GB" and memory.optional


def test_the_opening_answers_are_a_platform_the_api_accepts(kb: KnowledgeBase) -> None:
    opening: dict[str, dict[str, object]] = {}
    for field in kb.fields:
        if field.opening is not None:
            section, _, name = field.path.rpartition(".")
            opening.setdefault(section, {})[name] = field.opening
    platform = Platform.model_validate(opening)
    assert (platform.host.os, platform.oracle.version, platform.filer.vendor) == (
        "linux",
        "19.21",
        "netapp",
    )


def test_a_renamed_answer_names_the_file_and_both_keys(kb_copy: Path) -> None:
    _break(kb_copy, "path: network.router_hops,", "path: network.routers,")
    message = _problems(kb_copy)
    assert "knowledge/catalog/fields.yaml: network.routers: the platform has no such answer" in (
        message
    )
    assert "knowledge/catalog/fields.yaml: no entry for network.router_hops" in message


def test_a_choice_the_platform_refuses_is_named(kb_copy: Path) -> None:
    _break(kb_copy, "{value: mixed, label: Mixed}", "{value: batch, label: Batch}")
    assert "oracle.workload: option 'batch' is not one the platform takes" in _problems(kb_copy)


def test_shown_when_must_name_a_real_answer_and_value(kb_copy: Path) -> None:
    _break(kb_copy, "shown_when: {oracle.rac: true}}", "shown_when: {oracle.cluster: true}}")
    _break(kb_copy, "shown_when: {filer.vendor: [aws_fsxn]}", "shown_when: {filer.vendor: [aws]}")
    message = _problems(kb_copy)
    assert "oracle.rac_nodes: shown_when names oracle.cluster, which the platform lacks" in message
    assert "shown_when filer.vendor: a value the platform does not take" in message


def test_a_tick_box_needs_a_yes_no_answer_and_a_select_its_choices(kb_copy: Path) -> None:
    _break(
        kb_copy,
        "{path: oracle.instances, label: Instances on this host, step: oracle, widget: text",
        "{path: oracle.instances, label: Instances on this host, step: oracle, widget: check",
    )
    _break(kb_copy, "widget: select, choices: switch_kinds,", "widget: select,")
    message = _problems(kb_copy)
    assert "oracle.instances: widget check needs a yes/no answer, not integer" in message
    assert "network.switch: a select needs choices or options" in message


def test_an_opening_answer_the_platform_refuses_is_named(kb_copy: Path) -> None:
    _break(kb_copy, 'opening: "19.21"', 'opening: "nineteen"')
    assert "knowledge/catalog/fields.yaml: oracle.version: the opening answer is refused" in (
        _problems(kb_copy)
    )


def test_an_unknown_key_in_an_entry_is_refused(kb_copy: Path) -> None:
    _break(kb_copy, "label: Operating system, step: host", "lable: Operating system, step: host")
    message = _problems(kb_copy)
    assert "knowledge/catalog/fields.yaml" in message and "lable" in message

"""ANF-AVG-ORACLE: which application volume group spec each planned volume takes, and why a
layout does not fit the group."""

from __future__ import annotations

import typing

from nasplan.domain.volume_group import VolumeSpec
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import TODAY, preset_platform
from tests.renderers.terraform_check import schemas


def _group(kb: KnowledgeBase, patch: dict[str, typing.Any] | None = None) -> typing.Any:
    plan = make_plan(kb, preset_platform(kb, "current-anf", patch or {}), TODAY)
    messages = [f.message for f in plan.findings if f.rule == "ANF-AVG-ORACLE"]
    assert len(messages) == 1
    return plan.volume_group, messages[0]


def test_separate_volumes_take_data_log_and_backup_specs(kb: KnowledgeBase) -> None:
    group, message = _group(kb)
    assert group.not_used == []
    assert {m.volume: m.spec for m in group.members} == {
        "prod_data": "ora-data1",
        "prod_redo": "ora-log",
        "prod_arch": "ora-backup",
    }
    assert group.application_identifier == "PROD"
    assert "manual QoS" in message


def test_datafiles_split_over_a_volume_per_path_take_data_specs_in_turn(
    kb: KnowledgeBase,
) -> None:
    """A DSS database on kernel NFS over two paths (engine/path_spread)."""
    paths = [{"filer_address": "10.0.1.4"}, {"filer_address": "10.0.2.4"}]
    patch = {
        "network": {"nic_count": 2},
        "oracle": {"dnfs": False, "workload": "dss"},
        "handover": {"paths": paths},
    }
    group, _ = _group(kb, patch)
    assert group.not_used == []
    specs = {m.volume: m.spec for m in group.members}
    assert (specs["prod_data1"], specs["prod_data2"]) == ("ora-data1", "ora-data2")


def test_oracle_home_on_the_filer_takes_the_binary_spec(kb: KnowledgeBase) -> None:
    group, _ = _group(kb, {"layout": {"oracle_home": "nas"}})
    assert group.not_used == []
    assert {m.volume: m.spec for m in group.members}["prod_orahome"] == "ora-binary"


def test_one_shared_volume_does_not_fit(kb: KnowledgeBase) -> None:
    group, message = _group(kb, {"layout": {"volumes": "shared"}})
    assert group.members == []
    assert any("datafiles and the redo logs together" in r for r in group.not_used)
    assert message.startswith("The volumes are created one by one")


def test_a_sid_shorter_than_three_characters_does_not_fit(kb: KnowledgeBase) -> None:
    group, _ = _group(kb, {"layout": {"db_name": "AB"}})
    assert group.members == []
    assert group.not_used == [
        "the group's identifier is the Oracle SID, 3 to 12 characters; AB has 2"
    ]


def test_other_filers_have_no_group(kb: KnowledgeBase) -> None:
    for preset in ("current-fsxn", "current-gcnv", "current-linux-ontap"):
        plan = make_plan(kb, preset_platform(kb, preset), TODAY)
        assert plan.volume_group is None


def test_the_specs_are_the_ones_the_provider_documents() -> None:
    """A second source for the spec names: terraform-provider-azurerm's documentation."""
    resource = schemas()["azurerm"]["resources"]["azurerm_netapp_volume_group_oracle"]
    documented = resource["blocks"]["volume"]["arguments"]["volume_spec_name"]["values"]
    assert sorted(typing.get_args(VolumeSpec)) == sorted(documented)

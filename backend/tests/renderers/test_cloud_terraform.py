"""The cloud NAS bundles' Terraform files, checked against the providers' pinned schemas and
against the plan they come from, on the cloud presets and their variants."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from nasplan.domain.plan import Plan
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.cloud_common import literal
from nasplan.renderers.common import BundleMeta
from tests.conftest import TODAY, preset_platform
from tests.renderers.terraform_check import terraform_errors

SIZING = {"database_gb": 2000, "redo_mb_per_s": 40, "archive_retention_days": 3}
HANDOVER = {
    "capacity_pool": "ora_pool-1",
    "client_subnet": "10.20.0.0/24",
    "paths": [{"host_address": "10.20.0.11/24"}],
}
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "anf": ("current-anf", {}),
    "anf-sized": ("current-anf", {"sizing": SIZING}),
    "anf-handover": ("current-anf", {"handover": HANDOVER}),
    "anf-v41": ("current-anf", {"oracle": {"nfs_version": "4.1", "dnfs": False}}),
    "anf-ultra-db-underscore": (
        "current-anf",
        {"filer": {"service_level": "ultra", "capacity_tib": 2.5}, "layout": {"db_name": "MY_DB"}},
    ),
    "gcnv": ("current-gcnv", {}),
    "gcnv-sized": ("current-gcnv", {"sizing": SIZING, "handover": HANDOVER}),
    "gcnv-v41": ("current-gcnv", {"oracle": {"nfs_version": "4.1", "dnfs": False}}),
    "fsxn": ("current-fsxn", {}),
    "fsxn-sized": ("current-fsxn", {"sizing": SIZING, "handover": {"svm": "svm_ora"}}),
}
TERRAFORM = {"anf": "terraform/anf.tf.json", "gcnv": "terraform/gcnv.tf.json"}


def _plan(kb: KnowledgeBase, variant: str) -> Plan:
    preset, patch = VARIANTS[variant]
    return make_plan(kb, preset_platform(kb, preset, copy.deepcopy(patch)), TODAY)


def _files(kb: KnowledgeBase, variant: str) -> dict[str, str]:
    return render_bundle_files(_plan(kb, variant), BundleMeta())


def _terraform(files: dict[str, str]) -> tuple[str, dict[str, Any]]:
    [path] = [p for p in files if p.endswith(".tf.json")]
    return path, json.loads(files[path])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_terraform_matches_the_pinned_provider_schemas(kb: KnowledgeBase, variant: str) -> None:
    path, _ = _terraform(_files(kb, variant))
    assert terraform_errors(_files(kb, variant)[path]) == []


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_terraform_carries_the_plans_volumes(kb: KnowledgeBase, variant: str) -> None:
    plan = _plan(kb, variant)
    files = render_bundle_files(plan, BundleMeta())
    _, document = _terraform(files)
    resources = document["resource"]
    [volumes] = [
        named
        for kind, named in resources.items()
        if kind in ("azurerm_netapp_volume", "google_netapp_volume", "aws_fsx_ontap_volume")
    ]
    assert len(volumes) == len(plan.volumes)
    for volume in plan.volumes:
        body = volumes[volume.name.lower()]
        path = body.get("volume_path") or body.get("share_name") or body["junction_path"]
        assert "/" + path.lstrip("/") == volume.export
        size = body.get("storage_quota_in_gb") or body.get("capacity_gib") or body["size_in_bytes"]
        if volume.size_gb is not None:
            assert str(size) in (str(volume.size_gb), str(volume.size_gb * 1024**3))
        else:
            assert size.startswith("${var.size_" + volume.name.lower())
    declared = document.get("variable", {})
    runbook = files["RUNBOOK.md"]
    for name, body in declared.items():
        if "default" not in body:
            assert f"(var.{name})" in runbook.replace("\\_", "_"), name


def test_anf_pool_takes_the_plans_service_level_capacity_and_qos(kb: KnowledgeBase) -> None:
    _, document = _terraform(_files(kb, "anf-ultra-db-underscore"))
    pool = document["resource"]["azurerm_netapp_pool"]["oracle"]
    assert pool["service_level"] == "Ultra"
    assert pool["size_in_tb"] == 3  # 2.5 TiB provisioned: the pool is whole TiB
    # No sizing inputs: the plan warns (ANF-VOLUME-QOS) and the pool is manual QoS, each
    # volume's throughput an input that Terraform asks for.
    assert pool["qos_type"] == "Manual"
    for body in document["resource"]["azurerm_netapp_volume"].values():
        assert body["throughput_in_mibps"].startswith("${var.")
        assert body["volume_path"].startswith("my-db-")


def test_anf_export_rules_name_each_storage_network(kb: KnowledgeBase) -> None:
    _, document = _terraform(_files(kb, "anf-handover"))
    assert document["resource"]["azurerm_netapp_pool"]["oracle"]["name"] == "ora_pool-1"
    for body in document["resource"]["azurerm_netapp_volume"].values():
        assert body["export_policy_rule"] == [
            {
                "rule_index": 1,
                "allowed_clients": ["10.20.0.0/24"],
                "protocol": ["NFSv3"],
                "unix_read_write": True,
                "root_access_enabled": True,
            }
        ]
        assert body["protocols"] == ["NFSv3"]
    assert "storage_subnet_1" not in document["variable"]


def test_nfs41_reaches_protocols_and_export_rules(kb: KnowledgeBase) -> None:
    _, anf = _terraform(_files(kb, "anf-v41"))
    for body in anf["resource"]["azurerm_netapp_volume"].values():
        assert body["protocols"] == ["NFSv4.1"]
        assert body["export_policy_rule"][0]["protocol"] == ["NFSv4.1"]
    _, gcnv = _terraform(_files(kb, "gcnv-v41"))
    for body in gcnv["resource"]["google_netapp_volume"].values():
        assert body["protocols"] == ["NFSV4"]
        rule = body["export_policy"]["rules"][0]
        assert (rule["nfsv3"], rule["nfsv4"]) == (False, True)


def test_gcnv_volume_ids_take_no_underscore(kb: KnowledgeBase) -> None:
    _, document = _terraform(_files(kb, "gcnv-sized"))
    for body in document["resource"]["google_netapp_volume"].values():
        assert "_" not in body["name"]
        assert body["export_policy"]["rules"][0]["allowed_clients"] == "10.20.0.0/24"


def test_fsx_terraform_leaves_export_policies_to_the_ontap_commands(kb: KnowledgeBase) -> None:
    files = _files(kb, "fsxn-sized")
    _, document = _terraform(files)
    for body in document["resource"]["aws_fsx_ontap_volume"].values():
        assert body["security_style"] == "UNIX"
        assert body["snapshot_policy"] == "none"  # FSXN-SNAPSHOT-POLICY-NONE
    commands = files["filer/commands.txt"]
    assert "volume modify -vserver svm_ora -volume prod_data -policy prod_oracle" in commands
    assert "volume create" not in commands


def test_literal_keeps_template_sequences_literal() -> None:
    assert literal("a${b}c%{d}") == "a$${b}c%%{d}"


def _mutated(text: str, change: Any) -> list[str]:
    document = json.loads(text)
    change(document)
    return terraform_errors(json.dumps(document))


def test_the_check_catches_each_kind_of_mistake(kb: KnowledgeBase) -> None:
    text = _files(kb, "anf-handover")["terraform/anf.tf.json"]
    volume = ("resource", "azurerm_netapp_volume", "prod_data")

    def at(document: dict[str, Any]) -> dict[str, Any]:
        node = document
        for key in volume:
            node = node[key]
        return node

    cases: list[tuple[str, Any]] = [
        ("volume_paht", lambda d: at(d).update(volume_paht=at(d).pop("volume_path"))),
        ("not one of", lambda d: at(d).update(service_level="premium")),
        ("required and missing", lambda d: at(d).pop("subnet_id")),
        ("no such variable", lambda d: at(d).update(subnet_id="${var.subnet}")),
        ("not a number", lambda d: at(d).update(storage_quota_in_gb="100")),
        ("no attribute", lambda d: at(d).update(pool_name="${azurerm_netapp_pool.oracle.nam}")),
        ("not a reference", lambda d: at(d).update(name="${upper(var.location)}")),
        ("template directive", lambda d: at(d).update(name="%{if true}x%{endif}")),
        (
            "does not admit",
            lambda d: d["terraform"]["required_providers"]["azurerm"].update(version="~> 3.0"),
        ),
        ("not in the pinned", lambda d: d["resource"].update(azurerm_netapp_share={"x": {}})),
        ("not an argument or block", lambda d: at(d)["export_policy_rule"][0].update(nfsv3=True)),
    ]
    assert terraform_errors(text) == []
    for expected, change in cases:
        errors = _mutated(text, change)
        assert any(expected in e for e in errors), (expected, errors)

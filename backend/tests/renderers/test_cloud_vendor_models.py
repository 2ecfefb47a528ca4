"""The cloud NAS files checked against the services' own API models (botocore, azure-mgmt-netapp,
google-cloud-netapp) and the CLIs' pinned flag references (cloud_cli_reference.yaml).

Each file is read back as a tool would read it: the FSx request files are the API request as
they stand; the az and gcloud lines are split as a shell splits them and each flag is mapped
onto the API field it sets (the maps below, from the CLIs' sources named in the reference); the
Terraform resources' values are mapped the same way. Values still in angle brackets are filled
with realistic answers first, as the runbook's first page asks."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.common import PLACEHOLDER_RE
from tests.conftest import TODAY, preset_platform
from tests.renderers.cloud_models import (
    anf_enum_values,
    anf_model_errors,
    fsx_request_errors,
    gcnv_enum_values,
    gcnv_message_errors,
)
from tests.renderers.test_cloud_terraform import VARIANTS, _files

REFERENCE = Path(__file__).with_name("cloud_cli_reference.yaml")
GIB = 1024**3
TIB = 1024**4
SUBNET = (
    "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/"
    "Microsoft.Network/virtualNetworks/vnet/subnets/anf"
)
FILLED = {
    "<fsx-svm-id>": "svm-0123456789abcdef0",
    "<storage-subnet-1>": "10.20.0.0/24",
    "<capacity-pool>": "pool1",
    "<azure-resource-group>": "rg",
    "<azure-region>": "westeurope",
    "<netapp-account>": "anf1",
    "<delegated-subnet-id>": SUBNET,
    "<gcp-region>": "europe-west4",
    "<vpc-network>": "projects/p/global/networks/vpc",
    "<azure-zone>": "1",
    "<capacity-pool-id>": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/"
    "providers/Microsoft.NetApp/netAppAccounts/anf1/capacityPools/pool1",
    "<subscription-id>": "00000000-0000-0000-0000-000000000000",
}


def _fill(text: str) -> str:
    def answer(match: re.Match[str]) -> str:
        name = match.group(0)
        if name.startswith(("<size-", "<throughput-")):
            return "100"
        return FILLED[name]

    return PLACEHOLDER_RE.sub(answer, text)


@cache
def _reference() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(REFERENCE.read_text())
    commands: dict[str, Any] = data["commands"]
    return commands


def _flags(command: str) -> dict[str, dict[str, Any]]:
    """Every spelling of each flag of ``command``, to its reference entry (and its name)."""
    result: dict[str, dict[str, Any]] = {}
    for name, spec in _reference()[command]["flags"].items():
        entry = {**spec, "name": name}
        for spelling in [name, *spec.get("aliases", [])]:
            result[spelling] = entry
    return result


def _parse(line: str) -> tuple[str, list[str], dict[str, str]]:
    """(command, positionals, {flag name: value}) of one command line, as the CLI reads it."""
    words = shlex.split(line)
    for command in sorted(_reference(), key=len, reverse=True):
        if words[: len(command.split())] == command.split():
            break
    else:
        raise AssertionError(f"no pinned command for {line}")
    known = _flags(command)
    positionals: list[str] = []
    values: dict[str, str] = {}
    for word in words[len(command.split()) :]:
        if not word.startswith("-"):
            positionals.append(word)
            continue
        flag, _, value = word.partition("=")
        assert flag in known, f"{command}: {flag} is not a flag of the pinned reference"
        values[known[flag]["name"]] = value
    for name, spec in _reference()[command]["flags"].items():
        if spec.get("required"):
            assert name in values, f"{command}: {name} is required"
    for name, value in values.items():
        allowed = known[name].get("values")
        if allowed and known[name].get("takes") != "list":
            if known[name].get("case_sensitive", False):
                assert value in allowed, (command, name, value)
            else:
                assert value.lower() in {a.lower() for a in allowed}, (command, name, value)
    return command, positionals, values


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


# ---------------------------------------------------------------- Amazon FSx for NetApp ONTAP
FSX = sorted(v for v in VARIANTS if v.startswith("fsxn"))


@pytest.mark.parametrize("variant", FSX)
def test_fsx_request_files_are_valid_create_volume_requests(
    kb: KnowledgeBase, variant: str
) -> None:
    files = _files(kb, variant)
    requests = {p: t for p, t in files.items() if p.startswith("filer/fsx/")}
    assert len(requests) == 3
    for path, text in requests.items():
        request = json.loads(_fill(text))
        if isinstance(request["OntapConfiguration"]["SizeInBytes"], str):
            request["OntapConfiguration"]["SizeInBytes"] = int(
                request["OntapConfiguration"]["SizeInBytes"]
            )
        assert fsx_request_errors("CreateVolume", request) == [], path
        assert f"file://{path}" in files["RUNBOOK.md"]


def test_fsx_request_with_a_value_left_open_is_refused_by_the_model(kb: KnowledgeBase) -> None:
    text = _files(kb, "fsxn")["filer/fsx/create_volume_prod_data.json"]
    errors = fsx_request_errors("CreateVolume", json.loads(text))
    assert any("StorageVirtualMachineId" in e for e in errors)
    assert any("SizeInBytes" in e for e in errors)


def test_fsx_handover_svm_id_reaches_every_request(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "current-fsxn", {"handover": {"fsx_svm_id": "svm-" + "a" * 17}})
    files = render_bundle_files(make_plan(kb, platform, TODAY))
    for path, text in files.items():
        if path.startswith("filer/fsx/"):
            assert json.loads(text)["OntapConfiguration"]["StorageVirtualMachineId"] == (
                "svm-" + "a" * 17
            )
    terraform = json.loads(files["terraform/fsx.tf.json"])
    assert "fsx_svm_id" not in terraform.get("variable", {})


# ---------------------------------------------------------------- Azure NetApp Files
ANF = sorted(v for v in VARIANTS if v.startswith("anf"))


def _anf_rules(rules: list[dict[str, Any]]) -> list[str]:
    return [e for rule in rules for e in anf_model_errors("ExportPolicyRule", rule)]


@pytest.mark.parametrize("variant", ANF)
def test_az_lines_follow_the_cli_and_the_anf_model(kb: KnowledgeBase, variant: str) -> None:
    text = _fill(_files(kb, variant)["filer/az_netappfiles.txt"])
    lines = _lines(text)
    assert len(lines) == 4  # the pool, then one volume per planned volume
    for line in lines:
        command, _, flags = _parse(line)
        if command == "az netappfiles pool create":
            body = {
                "location": flags["--location"],
                "service_level": flags["--service-level"],
                "size": int(float(flags["--size"]) * TIB),
                "qos_type": flags["--qos-type"],
            }
            assert anf_model_errors("CapacityPool", body) == []
            continue
        assert command == "az netappfiles volume create"
        rules = json.loads(flags["--export-policy-rules"])
        assert _anf_rules(rules) == []
        body = {
            "location": flags["--location"],
            "creation_token": flags["--creation-token"],
            "service_level": flags["--service-level"],
            "usage_threshold": int(flags["--usage-threshold"]) * GIB,
            "subnet_id": flags["--subnet-id"],
            "protocol_types": flags["--protocol-types"].split(),
            "export_policy": {"rules": rules},
        }
        if "--throughput-mibps" in flags:
            body["throughput_mibps"] = float(flags["--throughput-mibps"])
        assert anf_model_errors("Volume", body) == []


@pytest.mark.parametrize("variant", ANF)
def test_anf_terraform_values_fit_the_anf_model(kb: KnowledgeBase, variant: str) -> None:
    document = json.loads(_files(kb, variant)["terraform/anf.tf.json"])
    pool = document["resource"]["azurerm_netapp_pool"]["oracle"]
    assert pool["service_level"] in anf_enum_values("ServiceLevel")
    assert pool["qos_type"] in anf_enum_values("QosType")
    for volume in document["resource"]["azurerm_netapp_volume"].values():
        rules = [
            {
                "rule_index": rule["rule_index"],
                "allowed_clients": ",".join(_fill(c) for c in rule["allowed_clients"]),
                "unix_read_write": rule["unix_read_write"],
                "has_root_access": rule["root_access_enabled"],
                "nfsv3": "NFSv3" in rule["protocol"],
                "nfsv41": "NFSv4.1" in rule["protocol"],
            }
            for rule in volume["export_policy_rule"]
        ]
        body = {
            "location": "westeurope",
            "creation_token": volume["volume_path"],
            "service_level": volume["service_level"],
            "usage_threshold": 100 * GIB,
            "subnet_id": SUBNET,
            "protocol_types": volume["protocols"],
            "export_policy": {"rules": rules},
        }
        assert anf_model_errors("Volume", body) == []


# ---------------------------------------------------------------- Google Cloud NetApp Volumes
GCNV = sorted(v for v in VARIANTS if v.startswith("gcnv"))


def _gcloud_rule(value: str) -> dict[str, Any]:
    assert value.startswith("^;^"), "a client list has commas: the value needs ^;^"
    keys = dict(part.split("=", 1) for part in value[3:].split(";"))
    return {
        "allowed_clients": keys["allowed-clients"],
        "access_type": keys["access-type"],
        "has_root_access": keys["has-root-access"],
        "nfsv3": keys["nfsv3"] == "true",
        "nfsv4": keys["nfsv4"] == "true",
    }


@pytest.mark.parametrize("variant", GCNV)
def test_gcloud_lines_follow_the_cli_and_the_gcnv_model(kb: KnowledgeBase, variant: str) -> None:
    lines = _lines(_fill(_files(kb, variant)["filer/gcloud_netapp.txt"]))
    assert len(lines) == 4
    for line in lines:
        command, positionals, flags = _parse(line)
        assert len(positionals) == 1
        capacity = int(flags["--capacity"].removesuffix("GiB"))
        if command == "gcloud netapp storage-pools create":
            body = {
                "service_level": flags["--service-level"].upper(),
                "capacity_gib": capacity,
                "network": flags["--network"].removeprefix("name="),
            }
            assert gcnv_message_errors("StoragePool", body) == []
            continue
        assert re.fullmatch(r"[a-z][a-z0-9-]{0,61}[a-z0-9]", positionals[0])
        rule = _gcloud_rule(flags["--export-policy"])
        keys = _reference()[command]["flags"]["--export-policy"]["keys"]
        assert rule["access_type"] in keys["access-type"]["values"]
        body = {
            "share_name": flags["--share-name"],
            "storage_pool": flags["--storage-pool"],
            "capacity_gib": capacity,
            "protocols": [p.upper() for p in flags["--protocols"].split(",")],
            "export_policy": {"rules": [rule]},
        }
        assert gcnv_message_errors("Volume", body) == []


@pytest.mark.parametrize("variant", GCNV)
def test_gcnv_terraform_values_fit_the_gcnv_model(kb: KnowledgeBase, variant: str) -> None:
    document = json.loads(_files(kb, variant)["terraform/gcnv.tf.json"])
    pool = document["resource"]["google_netapp_storage_pool"]["oracle"]
    assert pool["service_level"] in gcnv_enum_values("StoragePool", "service_level")
    for volume in document["resource"]["google_netapp_volume"].values():
        rule = dict(volume["export_policy"]["rules"][0])
        rule["allowed_clients"] = re.sub(
            r"\$\{var\.[a-z0-9_]+\}", "10.20.0.0/24", rule["allowed_clients"]
        )
        body = {
            "share_name": volume["share_name"],
            "storage_pool": "pool1",
            "capacity_gib": 100,
            "protocols": volume["protocols"],
            "export_policy": {"rules": [rule]},
        }
        assert gcnv_message_errors("Volume", body) == []


# ---------------------------------------------------------------- shell
@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
@pytest.mark.parametrize("variant", ["anf", "anf-handover", "gcnv", "gcnv-sized"])
def test_cli_lines_pass_shellcheck(kb: KnowledgeBase, variant: str, tmp_path: Path) -> None:
    files = _files(kb, variant)
    [name] = [p for p in files if p in ("filer/az_netappfiles.txt", "filer/gcloud_netapp.txt")]
    script = tmp_path / "lines.sh"
    script.write_text("#!/bin/sh\n" + "\n".join(_lines(_fill(files[name]))) + "\n")
    result = subprocess.run(
        ["shellcheck", "-S", "warning", str(script)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout


# ---------------------------------------------------------------- Azure: application volume group
def _snake(value: Any) -> Any:
    """A REST body (camelCase) in the SDK's attribute names, for anf_model_errors."""
    if isinstance(value, dict):
        return {re.sub(r"(?<!^)([A-Z])", r"_\1", k).lower(): _snake(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_snake(v) for v in value]
    return value


@pytest.mark.parametrize(
    "patch", [{}, {"sizing": {"database_gb": 2000}}, {"layout": {"oracle_home": "nas"}}]
)
def test_anf_volume_group_body_fits_the_anf_model(kb: KnowledgeBase, patch: dict[str, Any]) -> None:
    files = render_bundle_files(make_plan(kb, preset_platform(kb, "current-anf", patch), TODAY))
    body = json.loads(_fill(files["filer/anf_volume_group.json"]))
    for volume in body["properties"]["volumes"]:
        props = volume["properties"]
        props["usageThreshold"] = int(props["usageThreshold"]) * (
            1 if int(props["usageThreshold"]) > 10**6 else GIB
        )
        props["throughputMibps"] = float(props["throughputMibps"])
    assert anf_model_errors("VolumeGroupDetails", _snake(body)) == []
    assert body["properties"]["groupMetaData"]["applicationType"] in anf_enum_values(
        "ApplicationType"
    )
    # The group and the volume-by-volume files make the same volumes at the same paths.
    terraform = json.loads(files["terraform/anf.tf.json"])["resource"]["azurerm_netapp_volume"]
    assert {v["name"]: v["properties"]["creationToken"] for v in body["properties"]["volumes"]} == {
        t["name"]: t["volume_path"] for t in terraform.values()
    }
    [line] = _lines(_fill(files["filer/anf_volume_group.txt"]))
    assert shlex.split(line)[:2] == ["az", "rest"] and "@filer/anf_volume_group.json" in line


def test_anf_volume_group_body_mistakes_are_caught(kb: KnowledgeBase) -> None:
    files = _files(kb, "anf-sized")
    body = _snake(json.loads(_fill(files["filer/anf_volume_group.json"])))
    for volume in body["properties"]["volumes"]:
        volume["properties"]["usage_threshold"] = 100 * GIB
        volume["properties"]["throughput_mibps"] = 64.0
    assert anf_model_errors("VolumeGroupDetails", body) == []
    body["properties"]["volumes"][0]["properties"]["volume_spec"] = "ora-data1"
    assert any("volume_spec" in e for e in anf_model_errors("VolumeGroupDetails", body))

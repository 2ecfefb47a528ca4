"""The cloud model checkers (cloud_models.py) pass correct, realistic request bodies and name
the path of every kind of mistake: unknown key, enum value (wrong case too), type, missing
required, out-of-range number, too-long string, pattern, read-only (ANF), output-only (GCNV)."""

from __future__ import annotations

import copy
import typing
from typing import Any

import botocore.session  # type: ignore[import-untyped]
import pytest
from azure.mgmt.netapp import models as anf_models
from azure.mgmt.netapp._utils.model_base import Model as AnfModel

from tests.renderers.cloud_models import (
    _anf_fields,
    _aws_pattern,
    anf_enum_values,
    anf_model_errors,
    fsx_request_errors,
    gcnv_enum_values,
    gcnv_message_errors,
)

# --------------------------------------------------------------------------------------------
# AWS FSx

FSX_VOLUME: dict[str, Any] = {
    "VolumeType": "ONTAP",
    "Name": "prod_data",
    "OntapConfiguration": {
        "JunctionPath": "/prod_data",
        "SizeInMegabytes": 1_048_576,
        "StorageVirtualMachineId": "svm-0123456789abcdef0",
        "SecurityStyle": "UNIX",
        "SnapshotPolicy": "none",
        "StorageEfficiencyEnabled": True,
        "OntapVolumeType": "RW",
        "TieringPolicy": {"Name": "NONE"},
    },
    "Tags": [{"Key": "Größe", "Value": "prod data"}, {"Key": "db:sid", "Value": "PROD"}],
}


def _fsx(**ontap: Any) -> dict[str, Any]:
    """FSX_VOLUME with these OntapConfiguration members set (None: removed)."""
    body = copy.deepcopy(FSX_VOLUME)
    for key, value in ontap.items():
        if value is None:
            del body["OntapConfiguration"][key]
        else:
            body["OntapConfiguration"][key] = value
    return body


def test_fsx_passes_an_ontap_volume() -> None:
    assert fsx_request_errors("CreateVolume", FSX_VOLUME) == []


def test_fsx_unknown_member_is_botocores_error() -> None:
    errors = fsx_request_errors("CreateVolume", _fsx(SecurityStlye="UNIX"))
    assert len(errors) == 1
    assert errors[0].startswith('Unknown parameter in OntapConfiguration: "SecurityStlye"')


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ("unix", "'unix' not one of UNIX, NTFS, MIXED (case differs from 'UNIX')"),
        ("POSIX", "'POSIX' not one of UNIX, NTFS, MIXED"),
    ],
)
def test_fsx_enum_value(value: str, error: str) -> None:
    errors = fsx_request_errors("CreateVolume", _fsx(SecurityStyle=value))
    assert errors == [f"OntapConfiguration.SecurityStyle: {error}"]


def test_fsx_enum_value_nested_and_at_the_top() -> None:
    body = _fsx(TieringPolicy={"Name": "auto"})
    body["VolumeType"] = "ONTAPP"
    assert fsx_request_errors("CreateVolume", body) == [
        "VolumeType: 'ONTAPP' not one of ONTAP, OPENZFS",
        "OntapConfiguration.TieringPolicy.Name: 'auto' not one of SNAPSHOT_ONLY, AUTO, ALL, NONE "
        "(case differs from 'AUTO')",
    ]


def test_fsx_wrong_type_is_botocores_error() -> None:
    errors = fsx_request_errors("CreateVolume", _fsx(SizeInMegabytes="1024"))
    assert len(errors) == 1
    assert errors[0].startswith(
        "Invalid type for parameter OntapConfiguration.SizeInMegabytes, value: 1024"
    )


def test_fsx_boolean_for_a_number_which_botocore_takes() -> None:
    assert fsx_request_errors("CreateVolume", _fsx(SizeInMegabytes=True)) == [
        "OntapConfiguration.SizeInMegabytes: expected a number (integer), got the boolean True"
    ]


def test_fsx_missing_required() -> None:
    errors = fsx_request_errors("CreateVolume", _fsx(StorageVirtualMachineId=None))
    assert errors == ['Missing required parameter in OntapConfiguration: "StorageVirtualMachineId"']
    body = copy.deepcopy(FSX_VOLUME)
    del body["Name"]
    assert fsx_request_errors("CreateVolume", body) == [
        'Missing required parameter in input: "Name"'
    ]


def test_fsx_number_above_the_maximum() -> None:
    errors = fsx_request_errors("CreateVolume", _fsx(SizeInMegabytes=2**31))
    assert errors == ["OntapConfiguration.SizeInMegabytes: 2147483648 above the maximum 2147483647"]
    errors = fsx_request_errors("CreateVolume", _fsx(TieringPolicy={"CoolingPeriod": 184}))
    assert errors == ["OntapConfiguration.TieringPolicy.CoolingPeriod: 184 above the maximum 183"]


def test_fsx_number_below_the_minimum_is_botocores_error() -> None:
    errors = fsx_request_errors("CreateVolume", _fsx(TieringPolicy={"CoolingPeriod": 1}))
    assert errors == [
        "Invalid value for parameter OntapConfiguration.TieringPolicy.CoolingPeriod, value: 1, "
        "valid min value: 2"
    ]


def test_fsx_string_over_the_maximum_length() -> None:
    errors = fsx_request_errors("CreateVolume", _fsx(SnapshotPolicy="p" * 256))
    assert errors == [
        "OntapConfiguration.SnapshotPolicy: 256 characters, more than the maximum 255"
    ]


def test_fsx_list_over_the_maximum_length() -> None:
    aggregates = {"Aggregates": [f"aggr{n}" for n in range(7)]}
    errors = fsx_request_errors("CreateVolume", _fsx(AggregateConfiguration=aggregates))
    assert errors == [
        "OntapConfiguration.AggregateConfiguration.Aggregates: 7 items, more than the maximum 6"
    ]


def test_fsx_pattern_mismatch() -> None:
    errors = fsx_request_errors(
        "CreateVolume", _fsx(StorageVirtualMachineId="svm-0123456789ABCDEF0")
    )
    assert errors == [
        "OntapConfiguration.StorageVirtualMachineId: 'svm-0123456789ABCDEF0' does not match the "
        "pattern ^(svm-[0-9a-f]{17,})$"
    ]
    body = copy.deepcopy(FSX_VOLUME)
    body["Name"] = "prod\ndata"
    errors = fsx_request_errors("CreateVolume", body)
    assert len(errors) == 1
    assert errors[0].startswith("Name: 'prod\\ndata' does not match the pattern ^[^")


def test_fsx_pattern_with_unicode_classes() -> None:
    """TagKey is ^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$: Python's re has no \\p{..}."""
    body = copy.deepcopy(FSX_VOLUME)
    body["Tags"] = [{"Key": "owner#1", "Value": "dba"}]
    errors = fsx_request_errors("CreateVolume", body)
    assert len(errors) == 1
    assert errors[0].startswith("Tags[0].Key: 'owner#1' does not match the pattern ^([\\p{L}")


def test_every_fsx_pattern_translates() -> None:
    model = botocore.session.get_session().get_service_model("fsx")
    patterns = {
        model.shape_for(name).metadata["pattern"]
        for name in model.shape_names
        if "pattern" in model.shape_for(name).metadata
    }
    assert len(patterns) > 20
    for pattern in patterns:
        _aws_pattern(pattern)


def test_fsx_case_insensitive_flag_pattern() -> None:
    """VerboseFlag is ^(?i)(true|false)$, which Python's re refuses as written."""
    verbose = _aws_pattern("^(?i)(true|false)$")
    assert verbose.search("TRUE") and verbose.search("false")
    assert not verbose.search("yes")


def test_fsx_unknown_operation() -> None:
    with pytest.raises(ValueError, match="CreateVolumes"):
        fsx_request_errors("CreateVolumes", FSX_VOLUME)


# --------------------------------------------------------------------------------------------
# Azure NetApp Files

SUBNET = (
    "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ora/providers/"
    "Microsoft.Network/virtualNetworks/vnet-ora/subnets/anf"
)

ANF_VOLUME: dict[str, Any] = {
    "location": "westeurope",
    "tags": {"db": "PROD"},
    "zones": ["1"],
    "creation_token": "prod-data",
    "service_level": "Premium",
    "usage_threshold": 107_374_182_400,
    "throughput_mibps": 128.0,
    "subnet_id": SUBNET,
    "network_features": "Standard",
    "protocol_types": ["NFSv3"],
    "security_style": "unix",
    "unix_permissions": "0770",
    "snapshot_directory_visible": False,
    "export_policy": {
        "rules": [
            {
                "rule_index": 1,
                "allowed_clients": "10.0.0.0/24",
                "unix_read_only": False,
                "unix_read_write": True,
                "nfsv3": True,
                "nfsv41": False,
                "has_root_access": True,
                "chown_mode": "Restricted",
            }
        ]
    },
}

ANF_POOL: dict[str, Any] = {
    "location": "westeurope",
    "size": 4 * 1_099_511_627_776,
    "service_level": "Premium",
    "qos_type": "Manual",
    "cool_access": False,
}


def _rule(**changes: Any) -> dict[str, Any]:
    body = copy.deepcopy(ANF_VOLUME)
    body["export_policy"]["rules"][0].update(changes)
    return body


def test_anf_passes_a_volume_with_flattened_properties() -> None:
    assert anf_model_errors("Volume", ANF_VOLUME) == []
    # The SDK itself takes the same body and puts those keys under properties.
    assert anf_models.Volume(**ANF_VOLUME).as_dict()["properties"]["creationToken"] == "prod-data"


def test_anf_passes_a_volume_with_nested_properties() -> None:
    outer = ("location", "tags", "zones")
    body = {key: ANF_VOLUME[key] for key in outer}
    body["properties"] = {key: value for key, value in ANF_VOLUME.items() if key not in outer}
    assert anf_model_errors("Volume", body) == []


def test_anf_passes_a_manual_qos_pool_and_a_rule() -> None:
    assert anf_model_errors("CapacityPool", ANF_POOL) == []
    assert anf_model_errors("ExportPolicyRule", ANF_VOLUME["export_policy"]["rules"][0]) == []


def test_anf_passes_a_volume_group() -> None:
    volume = {key: value for key, value in ANF_VOLUME.items() if key != "location"}
    group: dict[str, Any] = {
        "location": "westeurope",
        "group_meta_data": {"application_type": "ORACLE", "application_identifier": "PRD"},
        "volumes": [{"name": "prd-ora-data1", **volume}, {"name": "prd-ora-log", **volume}],
    }
    assert anf_model_errors("VolumeGroupDetails", group) == []
    group["volumes"][1]["usage_threshold"] = "100GiB"
    assert anf_model_errors("VolumeGroupDetails", group) == [
        "volumes[1].usage_threshold: expected int, got str '100GiB'"
    ]


def test_anf_unknown_keys() -> None:
    body = copy.deepcopy(ANF_VOLUME)
    body["creation_tokn"] = body.pop("creation_token")
    assert anf_model_errors("Volume", body) == [
        "creation_tokn: unknown attribute of Volume (did you mean 'creation_token'?)",
        "creation_token: required attribute of VolumeProperties missing",
    ]
    assert anf_model_errors("Volume", _rule(root_access=True)) == [
        "export_policy.rules[0].root_access: unknown attribute of ExportPolicyRule "
        "(did you mean 'has_root_access'?)"
    ]


def test_anf_rest_name_instead_of_the_attribute_name() -> None:
    body = copy.deepcopy(ANF_VOLUME)
    body["subnetId"] = body.pop("subnet_id")
    assert anf_model_errors("Volume", body) == [
        "subnetId: unknown attribute of Volume (the REST name of 'subnet_id'; the body takes the "
        "SDK's attribute names)",
        "subnet_id: required attribute of VolumeProperties missing",
    ]


@pytest.mark.parametrize(
    ("model", "key", "value", "error"),
    [
        (
            "Volume",
            "service_level",
            "premium",
            "'premium' not one of Standard, Premium, Ultra, StandardZRS, Flexible "
            "(case differs from 'Premium')",
        ),
        ("Volume", "security_style", "posix", "'posix' not one of ntfs, unix"),
        # FSx writes UNIX, ANF unix.
        (
            "Volume",
            "security_style",
            "UNIX",
            "'UNIX' not one of ntfs, unix (case differs from 'unix')",
        ),
        (
            "CapacityPool",
            "qos_type",
            "manual",
            "'manual' not one of Auto, Manual (case differs from 'Manual')",
        ),
        (
            "CapacityPool",
            "service_level",
            "Gold",
            "'Gold' not one of Standard, Premium, Ultra, StandardZRS, Flexible",
        ),
    ],
)
def test_anf_enum_values(model: str, key: str, value: str, error: str) -> None:
    body = copy.deepcopy(ANF_VOLUME if model == "Volume" else ANF_POOL)
    body[key] = value
    assert anf_model_errors(model, body) == [f"{key}: {error}"]


def test_anf_enum_value_in_a_list_item() -> None:
    assert anf_model_errors("Volume", _rule(chown_mode="restricted")) == [
        "export_policy.rules[0].chown_mode: 'restricted' not one of Restricted, Unrestricted "
        "(case differs from 'Restricted')"
    ]


@pytest.mark.parametrize(
    ("key", "value", "error"),
    [
        ("usage_threshold", "100GiB", "expected int, got str '100GiB'"),
        ("usage_threshold", True, "expected int, got bool True"),
        ("protocol_types", "NFSv3", "expected a list, got str 'NFSv3'"),
        ("throughput_mibps", "128", "expected float, got str '128'"),
        ("export_policy", [], "expected a mapping (VolumePropertiesExportPolicy), got list []"),
    ],
)
def test_anf_wrong_types(key: str, value: Any, error: str) -> None:
    body = copy.deepcopy(ANF_VOLUME)
    body[key] = value
    assert anf_model_errors("Volume", body) == [f"{key}: {error}"]


def test_anf_wrong_types_nested() -> None:
    assert anf_model_errors("Volume", _rule(unix_read_write="true", rule_index="1")) == [
        "export_policy.rules[0].rule_index: expected int, got str '1'",
        "export_policy.rules[0].unix_read_write: expected bool, got str 'true'",
    ]
    body = copy.deepcopy(ANF_VOLUME)
    body["tags"] = {"db": 1}
    assert anf_model_errors("Volume", body) == ["tags['db']: expected str, got int 1"]


def test_anf_missing_required() -> None:
    body = copy.deepcopy(ANF_VOLUME)
    del body["location"], body["usage_threshold"]
    assert anf_model_errors("Volume", body) == [
        "location: required attribute of Volume missing",
        "usage_threshold: required attribute of VolumeProperties missing",
    ]
    pool = {key: value for key, value in ANF_POOL.items() if key != "size"}
    assert anf_model_errors("CapacityPool", pool) == [
        "size: required attribute of PoolProperties missing"
    ]
    assert anf_model_errors("Volume", {"location": "westeurope", "properties": {}}) == [
        "properties.creation_token: required attribute of VolumeProperties missing",
        "properties.usage_threshold: required attribute of VolumeProperties missing",
        "properties.subnet_id: required attribute of VolumeProperties missing",
    ]


def test_anf_read_only_keys() -> None:
    body = copy.deepcopy(ANF_VOLUME)
    body.update(id="/subscriptions/x/volumes/v", provisioning_state="Succeeded")
    assert anf_model_errors("Volume", body) == [
        "id: read-only attribute of Volume, not to be sent",
        "provisioning_state: read-only attribute of VolumeProperties, not to be sent",
    ]
    pool = dict(ANF_POOL, total_throughput_mibps=128.0)
    assert anf_model_errors("CapacityPool", pool) == [
        "total_throughput_mibps: read-only attribute of PoolProperties, not to be sent"
    ]


def test_anf_key_set_twice() -> None:
    body = copy.deepcopy(ANF_VOLUME)
    body["properties"] = {"subnet_id": SUBNET}
    assert anf_model_errors("Volume", body) == [
        "subnet_id: set both flattened and under properties"
    ]


def test_anf_enum_values_are_the_sdks() -> None:
    assert anf_enum_values("ServiceLevel") == {
        "Standard",
        "Premium",
        "Ultra",
        "StandardZRS",
        "Flexible",
    }
    assert anf_enum_values("QosType") == {"Auto", "Manual"}
    with pytest.raises(ValueError, match="Volume"):
        anf_enum_values("Volume")
    with pytest.raises(ValueError, match="Volumes"):
        anf_model_errors("Volumes", {})


def _sdk_models() -> list[type[AnfModel]]:
    return [
        value
        for name in dir(anf_models)
        if isinstance(value := getattr(anf_models, name), type) and issubclass(value, AnfModel)
    ]


def test_anf_fields_are_the_ones_the_sdk_finds() -> None:
    """The fields read here are those the SDK's Model.__new__ collects, read-only as the SDK's
    serialiser decides it (model_base._is_readonly)."""
    from azure.mgmt.netapp._utils import model_base

    is_readonly: Any = model_base._is_readonly  # untyped in the SDK
    for cls in _sdk_models():
        sdk = cls.__new__(cls)._attr_to_rest_field  # computed by __new__
        ours = _anf_fields(cls)
        assert set(ours) == set(sdk), cls
        for name, field in ours.items():
            assert field.rest_name == sdk[name]._rest_name, (cls, name)
            assert field.read_only == is_readonly(sdk[name]), (cls, name)


def test_anf_sdk_carries_no_range_length_or_pattern_constraints() -> None:
    """Version 18 has no msrest ``_validation``; were one to come back, its minimum/maximum,
    lengths and patterns would have to be applied by anf_model_errors."""
    for cls in _sdk_models():
        assert not hasattr(cls, "_validation"), cls
        assert not hasattr(cls, "_attribute_map"), cls
    hints = typing.get_type_hints(anf_models.PoolProperties, localns={"_models": anf_models})
    assert hints["size"] is int  # a plain int, no Annotated constraints


# --------------------------------------------------------------------------------------------
# Google Cloud NetApp Volumes

GCNV_VOLUME: dict[str, Any] = {
    "share_name": "prod_data",
    "storage_pool": "projects/nasplan/locations/europe-west4/storagePools/oracle",
    "capacity_gib": 1024,
    "protocols": ["NFSV3"],
    "unix_permissions": "0770",
    "security_style": "UNIX",
    "snapshot_directory": False,
    "labels": {"db": "prod"},
    "export_policy": {
        "rules": [
            {
                "allowed_clients": "10.0.0.0/24",
                "access_type": "READ_WRITE",
                "has_root_access": "true",
                "nfsv3": True,
                "nfsv4": False,
                "squash_mode": "NO_ROOT_SQUASH",
            }
        ]
    },
}

GCNV_POOL: dict[str, Any] = {
    "service_level": "PREMIUM",
    "capacity_gib": 2048,
    "network": "projects/nasplan/global/networks/vpc-ora",
    "description": "Oracle data",
    "labels": {"db": "prod"},
    "type": "FILE",
}


def _ours(errors: list[str]) -> list[str]:
    return [e for e in errors if not e.startswith(("json_format: ", "proto-plus: "))]


def _gcnv_rule(**changes: Any) -> dict[str, Any]:
    body = copy.deepcopy(GCNV_VOLUME)
    body["export_policy"]["rules"][0].update(changes)
    return body


def test_gcnv_passes_a_volume_and_a_pool() -> None:
    assert gcnv_message_errors("Volume", GCNV_VOLUME) == []
    assert gcnv_message_errors("StoragePool", GCNV_POOL) == []
    policy = GCNV_VOLUME["export_policy"]
    assert gcnv_message_errors("ExportPolicy", policy) == []
    assert gcnv_message_errors("SimpleExportPolicyRule", policy["rules"][0]) == []


def test_gcnv_unknown_field_also_fails_the_vendors_parsers() -> None:
    body = dict(GCNV_VOLUME, sharename="prod_data")
    errors = gcnv_message_errors("Volume", body)
    assert errors[0] == (
        "sharename: unknown field of google.cloud.netapp.v1.Volume (did you mean 'share_name'?)"
    )
    assert any(
        e.startswith(
            'json_format: Message type "google.cloud.netapp.v1.Volume" has no '
            'field named "sharename"'
        )
        for e in errors
    )
    assert "proto-plus: ValueError: Unknown field for Volume: sharename" in errors


def test_gcnv_json_name_instead_of_the_proto_name() -> None:
    body = copy.deepcopy(GCNV_VOLUME)
    body["shareName"] = body.pop("share_name")
    assert _ours(gcnv_message_errors("Volume", body)) == [
        "shareName: unknown field of google.cloud.netapp.v1.Volume (the JSON name of "
        "'share_name'; the body takes the proto field names)",
        "share_name: required field of google.cloud.netapp.v1.Volume missing",
    ]


def test_gcnv_unknown_field_nested() -> None:
    errors = gcnv_message_errors("Volume", _gcnv_rule(squashmode="ROOT_SQUASH"))
    assert _ours(errors) == [
        "export_policy.rules[0].squashmode: unknown field of "
        "google.cloud.netapp.v1.SimpleExportPolicyRule (did you mean 'squash_mode'?)"
    ]


def test_gcnv_enum_names() -> None:
    errors = gcnv_message_errors("Volume", dict(GCNV_VOLUME, protocols=["nfsv3"]))
    assert _ours(errors) == [
        "protocols[0]: 'nfsv3' not one of PROTOCOLS_UNSPECIFIED, NFSV3, NFSV4, SMB, ISCSI, NVME "
        "(case differs from 'NFSV3')"
    ]
    assert "proto-plus: KeyError: 'nfsv3'" in errors
    errors = gcnv_message_errors("Volume", _gcnv_rule(access_type="READWRITE"))
    assert _ours(errors) == [
        "export_policy.rules[0].access_type: 'READWRITE' not one of ACCESS_TYPE_UNSPECIFIED, "
        "READ_ONLY, READ_WRITE, READ_NONE"
    ]


def test_gcnv_unspecified_enum_value() -> None:
    errors = gcnv_message_errors("Volume", _gcnv_rule(squash_mode="SQUASH_MODE_UNSPECIFIED"))
    assert errors == [
        "export_policy.rules[0].squash_mode: 'SQUASH_MODE_UNSPECIFIED' is the enum's unset "
        "default; leave the field out instead"
    ]


def test_gcnv_renamed_field_takes_its_proto_name() -> None:
    """proto-plus calls the field ``type_``; the proto and the body call it ``type``."""
    assert gcnv_enum_values("StoragePool", "type") == {
        "STORAGE_POOL_TYPE_UNSPECIFIED",
        "FILE",
        "UNIFIED",
    }
    assert _ours(gcnv_message_errors("StoragePool", dict(GCNV_POOL, type="File"))) == [
        "type: 'File' not one of STORAGE_POOL_TYPE_UNSPECIFIED, FILE, UNIFIED "
        "(case differs from 'FILE')"
    ]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (
            dict(GCNV_VOLUME, capacity_gib=True),
            "capacity_gib: expected an integer (int64), got bool True",
        ),
        (
            dict(GCNV_VOLUME, capacity_gib="1 TiB"),
            "capacity_gib: expected an integer (int64), got str '1 TiB'",
        ),
        (
            dict(GCNV_VOLUME, protocols="NFSV3"),
            "protocols: expected a list (repeated field), got str 'NFSV3'",
        ),
        (
            dict(GCNV_VOLUME, export_policy=[]),
            "export_policy: expected a mapping (ExportPolicy), got list []",
        ),
        (dict(GCNV_VOLUME, labels={"db": 1}), "labels['db']: expected str, got int 1"),
        (
            _gcnv_rule(has_root_access=True),
            "export_policy.rules[0].has_root_access: expected str, got bool True",
        ),
        (_gcnv_rule(nfsv3="true"), "export_policy.rules[0].nfsv3: expected bool, got str 'true'"),
        (
            _gcnv_rule(access_type=2),
            "export_policy.rules[0].access_type: expected an enum name "
            "(google.cloud.netapp.v1.AccessType), got int 2",
        ),
    ],
)
def test_gcnv_wrong_types(body: dict[str, Any], error: str) -> None:
    assert _ours(gcnv_message_errors("Volume", body)) == [error]


def test_gcnv_bool_for_an_integer_which_proto_plus_takes() -> None:
    errors = gcnv_message_errors("Volume", dict(GCNV_VOLUME, capacity_gib=True))
    assert any(e.startswith("json_format: ") for e in errors)
    assert not any(e.startswith("proto-plus: ") for e in errors)


def test_gcnv_64_bit_integer_as_decimal_string_is_proto3_json() -> None:
    assert gcnv_message_errors("Volume", dict(GCNV_VOLUME, capacity_gib="1024")) == []


def test_gcnv_integer_out_of_range() -> None:
    errors = gcnv_message_errors("Volume", dict(GCNV_VOLUME, capacity_gib=2**63))
    assert _ours(errors) == [
        "capacity_gib: 9223372036854775808 outside the int64 range "
        "-9223372036854775808..9223372036854775807"
    ]
    assert "proto-plus: ValueError: Value out of range: 9223372036854775808" in errors


def test_gcnv_missing_required() -> None:
    body = {key: value for key, value in GCNV_VOLUME.items() if key != "capacity_gib"}
    assert _ours(gcnv_message_errors("Volume", body)) == [
        "capacity_gib: required field of google.cloud.netapp.v1.Volume missing"
    ]
    assert _ours(gcnv_message_errors("Volume", dict(GCNV_VOLUME, export_policy={}))) == [
        "export_policy.rules: required field of google.cloud.netapp.v1.ExportPolicy missing"
    ]
    pool = {key: value for key, value in GCNV_POOL.items() if key != "network"}
    assert gcnv_message_errors("StoragePool", pool) == [
        "network: required field of google.cloud.netapp.v1.StoragePool missing"
    ]


def test_gcnv_output_only_fields() -> None:
    body = dict(GCNV_VOLUME, state="READY", service_level="PREMIUM")
    assert _ours(gcnv_message_errors("Volume", body)) == [
        "state: output-only field of google.cloud.netapp.v1.Volume, not to be sent",
        "service_level: output-only field of google.cloud.netapp.v1.Volume, not to be sent",
    ]


def test_gcnv_two_members_of_a_oneof() -> None:
    restore = {"source_snapshot": "projects/p/snap", "source_backup": "projects/p/backup"}
    errors = gcnv_message_errors("Volume", dict(GCNV_VOLUME, restore_parameters=restore))
    assert _ours(errors) == [
        "restore_parameters: source_snapshot, source_backup are members of the oneof source; "
        "set one"
    ]
    assert any("oneof" in e for e in errors if e.startswith("json_format: "))


def test_gcnv_enum_values_and_unknown_names() -> None:
    assert gcnv_enum_values("Volume", "protocols") == {
        "PROTOCOLS_UNSPECIFIED",
        "NFSV3",
        "NFSV4",
        "SMB",
        "ISCSI",
        "NVME",
    }
    assert "NO_ROOT_SQUASH" in gcnv_enum_values("SimpleExportPolicyRule", "squash_mode")
    with pytest.raises(ValueError, match="share_name"):
        gcnv_enum_values("Volume", "share_name")
    with pytest.raises(ValueError, match="Volumes"):
        gcnv_message_errors("Volumes", {})

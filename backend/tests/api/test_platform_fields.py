"""The flat table of platform answers (domain/platform_fields.py), from which the front end's field
checks are generated, says what the API itself enforces: each limit and pattern in the table is
one the model refuses to cross, with the table's own message."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import ValidationError

from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.domain.platform_fields import FieldRow, platform_fields

ROWS = platform_fields()
# Answers that need a sibling before the model reads them (a RAC node count needs RAC, a cloud
# capacity a cloud vendor, a path's address its interface).
CONTEXT: dict[str, dict[str, Any]] = {
    "oracle.rac_nodes": {"oracle": {"rac": True}},
    "filer.capacity_tib": {"filer": {"vendor": "azure_anf", "service_level": "premium"}},
}


def _with(path: str, value: object) -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE_PLATFORM)
    for section, answers in CONTEXT.get(path, {}).items():
        data.setdefault(section, {}).update(answers)
    keys = path.replace("[]", "").split(".")
    node: dict[str, Any] = data
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    if path.startswith("handover.paths[]."):
        data["handover"]["paths"] = [{keys[-1]: value}]
    elif path.endswith("[]"):
        node[keys[-1]] = [value]
    else:
        node[keys[-1]] = value
    return data


def _refused(path: str, value: object) -> str:
    with pytest.raises(ValidationError) as caught:
        Platform.model_validate(_with(path, value))
    return str(caught.value)


def test_every_typed_answer_is_in_the_table() -> None:
    paths = {row.path for row in ROWS}
    assert {"network.router_hops", "layout.db_name", "handover.paths[].host_address"} <= paths
    assert {"sizing.growth_pct_per_year", "handover.cluster_nodes[]", "oracle.version"} <= paths


@pytest.mark.parametrize("row", [r for r in ROWS if r.maximum is not None], ids=lambda r: r.path)
def test_each_maximum_is_the_models(row: FieldRow) -> None:
    assert row.maximum is not None
    over = int(row.maximum) + 1
    assert f"less than or equal to {int(row.maximum)}" in _refused(row.path, over)
    assert row.what, "a number the wizard asks for says what it is"


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r.pattern is not None and r.error], ids=lambda r: r.path
)
def test_each_pattern_and_message_is_the_models(row: FieldRow) -> None:
    assert row.error is not None
    # Long enough for every minimum length, short enough for every maximum: only the syntax fails.
    bad = "!" * min(row.max_length or 9, 9)
    assert row.error in _refused(row.path, bad)


INTERFACE_FIELDS = [
    "host.nic_interface",
    "filer.interface",
    "handover.paths[].host_interface",
    "handover.paths[].filer_interface",
]


@pytest.mark.parametrize("path", INTERFACE_FIELDS)
@pytest.mark.parametrize(
    "name",
    # ONTAP VLAN and interface group ports, Linux VLAN, bond and predictable names, Solaris,
    # AIX and HP-UX names, and a 15-character Linux name (IFNAMSIZ).
    [
        "e0a",
        "a0a-100",
        "e1c-80",
        "bond0.100",
        "eth1",
        "ens3f0_1",
        "ce0",
        "en1",
        "lan900",
        "abcdefghijklmno",
    ],
)
def test_interface_and_port_names_as_the_systems_allow_them(path: str, name: str) -> None:
    Platform.model_validate(_with(path, name))


@pytest.mark.parametrize("path", INTERFACE_FIELDS)
@pytest.mark.parametrize(
    "name", ["0eth", "eth 0", "eth0;reboot", "-e0a", "e0a/1", "abcdefghijklmnop", "eth0:1"]
)
def test_interface_names_that_could_become_code_are_refused(path: str, name: str) -> None:
    with pytest.raises(
        ValidationError, match=r"use an interface or port name|at most 15 characters"
    ):
        Platform.model_validate(_with(path, name))

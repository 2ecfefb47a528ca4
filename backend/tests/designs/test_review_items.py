"""A comment on exactly one item of a revision's plan: a mount, an option on a mount, a setting
or a finding (`item`), checked against the revision's plan like `item_rule`, kept, exported and
imported."""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from nasplan.designs.schemas import ReviewCreate
from nasplan.domain.platform import EXAMPLE_PLATFORM

DESIGNS = "/api/v1/designs"


def _mount_key(mount: dict[str, Any]) -> str:
    return f"{'+'.join(mount['serves'])} {mount['mount_point']}"


def _setting_key(setting: dict[str, Any]) -> str:
    where = f" [{', '.join(setting['applies_to'])}]" if setting["applies_to"] else ""
    scope = f" ({setting['scope']})" if setting.get("scope") else ""
    return f"{setting['target']} {setting['key']}{where}{scope}"


@pytest.fixture()
def design(designs_client: TestClient) -> dict[str, Any]:
    created = designs_client.post(DESIGNS, json={"name": "items", "platform": EXAMPLE_PLATFORM})
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    body["plan"] = designs_client.get(f"{DESIGNS}/{body['id']}").json()["latest"]["plan"]
    return body


def _review(client: TestClient, design: dict[str, Any], **fields: Any) -> Any:
    body = {"revision": 1, "reviewer": "Ann", "decision": "comment", "comment": "why?", **fields}
    return client.post(
        f"{DESIGNS}/{design['id']}/reviews",
        json=body,
        headers={"X-Review-Token": design["review_token"]},
    )


def _option_with_rule(plan: dict[str, Any]) -> tuple[dict[str, Any], str, str]:
    """A mount, one of its options and the first rule behind that option."""
    for mount in plan["mounts"]:
        for option in mount["options"]:
            rules = mount["option_rules"].get(option, [])
            if rules:
                return mount, option, rules[0]
    raise AssertionError("no option with a rule in the plan")


def test_a_comment_on_one_option_is_kept_with_its_item(
    designs_client: TestClient, design: dict[str, Any]
) -> None:
    mount, option, rule = _option_with_rule(design["plan"])
    item = {"kind": "option", "key": _mount_key(mount), "option": option}
    answer = _review(designs_client, design, item=item, item_rule=rule)
    assert answer.status_code == 201, answer.text
    assert answer.json()["item"] == item and answer.json()["item_rule"] == rule
    [kept] = designs_client.get(f"{DESIGNS}/{design['id']}/revisions/1").json()["reviews"]
    assert kept["item"] == item
    assert kept["decision"] == "comment" and kept["comment"] == "why?"


def test_every_kind_of_item_is_taken(designs_client: TestClient, design: dict[str, Any]) -> None:
    plan = design["plan"]
    mount, setting, finding = plan["mounts"][0], plan["settings"][0], plan["findings"][0]
    items = [
        {"kind": "mount", "key": _mount_key(mount)},
        {"kind": "setting", "key": _setting_key(setting)},
        {"kind": "finding", "key": f"{finding['rule']}: {finding['message']}"},
    ]
    for item in items:
        answer = _review(designs_client, design, item=item, decision="request_changes")
        assert answer.status_code == 201, answer.text
    reviews = designs_client.get(f"{DESIGNS}/{design['id']}/revisions/1").json()["reviews"]
    # Items the API was not given come back as null, the option too.
    assert [r["item"] for r in reviews] == [{**item, "option": None} for item in items]
    assert designs_client.get(f"{DESIGNS}/{design['id']}").json()["state"] == "changes_requested"


def test_a_review_without_an_item_has_none(
    designs_client: TestClient, design: dict[str, Any]
) -> None:
    assert _review(designs_client, design).json()["item"] is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"key": "data /nowhere"}, ["body", "item", "key"]),
        ({"kind": "setting"}, ["body", "item", "option"]),
        ({"option": "noac"}, ["body", "item", "option"]),
        ({"option": None}, ["body", "item", "option"]),
        ({"kind": "mount", "option": None, "key": "host nowhere"}, ["body", "item", "key"]),
    ],
)
def test_an_item_not_in_the_plan_is_a_422_naming_the_field(
    designs_client: TestClient, design: dict[str, Any], change: dict[str, Any], field: list[str]
) -> None:
    mount, option, _ = _option_with_rule(design["plan"])
    assert "noac" not in mount["options"]
    item = {"kind": "option", "key": _mount_key(mount), "option": option, **change}
    answer = _review(designs_client, design, item=item)
    assert answer.status_code == 422, answer.text
    assert [d["loc"] for d in answer.json()["detail"]] == [field]
    assert designs_client.get(f"{DESIGNS}/{design['id']}/revisions/1").json()["reviews"] == []


def test_the_rule_must_be_behind_the_item(
    designs_client: TestClient, design: dict[str, Any]
) -> None:
    mount, option, _ = _option_with_rule(design["plan"])
    elsewhere = next(r for r in design["plan"]["rules"] if r not in mount["option_rules"][option])
    item = {"kind": "option", "key": _mount_key(mount), "option": option}
    answer = _review(designs_client, design, item=item, item_rule=elsewhere)
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == ["body", "item_rule"]
    assert elsewhere in answer.json()["detail"][0]["msg"]


def test_an_approval_names_no_item(designs_client: TestClient, design: dict[str, Any]) -> None:
    item = {"kind": "mount", "key": _mount_key(design["plan"]["mounts"][0])}
    answer = _review(designs_client, design, item=item, decision="approve")
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == ["body", "item"]
    assert designs_client.get(f"{DESIGNS}/{design['id']}").json()["state"] == "draft"


def test_export_and_import_keep_the_item(
    designs_client: TestClient, design: dict[str, Any]
) -> None:
    mount, option, rule = _option_with_rule(design["plan"])
    item = {"kind": "option", "key": _mount_key(mount), "option": option}
    assert _review(designs_client, design, item=item, item_rule=rule).status_code == 201
    document = designs_client.get(f"{DESIGNS}/{design['id']}/export").json()
    assert document["revisions"][0]["reviews"][0]["item"] == item

    imported = designs_client.post(f"{DESIGNS}/import", json=document)
    assert imported.status_code == 201, imported.text
    reviews = designs_client.get(f"{DESIGNS}/{imported.json()['id']}").json()["latest"]["reviews"]
    assert [(r["item"], r["imported"]) for r in reviews] == [(item, True)]

    document["revisions"][0]["reviews"][0]["item"]["option"] = "noac"
    refused = designs_client.post(f"{DESIGNS}/import", json=document)
    assert refused.status_code == 422
    loc = ["body", "revisions", "0", "reviews", "0", "item", "option"]
    assert refused.json()["detail"][0]["loc"] == loc


ITEM = {"kind": "option", "key": "data /u02/oradata/PROD", "option": "hard"}
BODIES = [
    {"decision": "comment", "item": ITEM},
    {"decision": "comment", "item": {**ITEM, "option": None}},
    {"decision": "comment", "item": {"kind": "option", "key": "data /u02"}},
    {"decision": "comment", "item": {"kind": "mount", "key": "data /u02"}},
    {"decision": "comment", "item": {"kind": "mount", "key": "data /u02", "option": "hard"}},
    {"decision": "comment", "item": {"kind": "mount", "key": "data /u02", "option": None}},
    {"decision": "approve", "item": ITEM},
    {"decision": "approve", "item": None},
]


@pytest.mark.parametrize("body", BODIES)
def test_the_schema_states_the_item_rules(client: TestClient, body: dict[str, Any]) -> None:
    """What the model takes, the published schema takes, and nothing else."""
    components = client.get("/api/v1/openapi.json").json()["components"]
    schema = jsonschema_rs.validator_for(
        {"$ref": "#/components/schemas/ReviewCreate", "components": components}
    )
    full = {"revision": 1, "reviewer": "Ann", **body}
    try:
        ReviewCreate.model_validate_json(json.dumps(full))
        model_says = True
    except ValidationError:
        model_says = False
    assert schema.is_valid(full) == model_says, full

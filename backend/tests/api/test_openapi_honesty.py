"""The OpenAPI document says what the API does: the errors an operation with a body can answer,
the rules between fields (where JSON Schema can state them), the range of every date, and the
methods each path allows (OPTIONS and the ``Allow`` of a 405)."""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError

from nasplan.api import docs
from nasplan.api.schemas import CompareRequest, WhatIfVariant
from nasplan.designs.schemas import DesignAuditCreate, DesignCreate, ReviewCreate
from nasplan.domain import platform as platform_module
from nasplan.domain.platform import EXAMPLE_PLATFORM, Filer, Oracle, Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.conftest import sqlite_settings

API = "/api/v1"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")


@pytest.fixture(scope="module")
def api(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = sqlite_settings(tmp_path_factory.mktemp("honesty"))
    # Without rate limits (rate_limit_compute is newer than this test).
    fields = ("rate_limit_writes", "rate_limit_compute")
    limits: dict[str, Any] = {f: "" for f in fields if f in Settings.model_fields}
    with TestClient(create_app(settings.model_copy(update=limits), kb=kb)) as client:
        yield client


@pytest.fixture(scope="module")
def openapi(api: TestClient) -> dict[str, Any]:
    document: dict[str, Any] = api.get(f"{API}/openapi.json").json()
    return document


def _validator(openapi: dict[str, Any], name: str) -> Any:
    """The OpenAPI document's schema ``name``, as a JSON Schema validator."""
    return jsonschema_rs.validator_for(
        {"$ref": f"#/components/schemas/{name}", "components": openapi["components"]}
    )


def _operations(openapi: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in openapi["paths"].items():
        for method, operation in item.items():
            yield path, method.upper(), operation


# ------------------------------------------------------------------ 413 and 422
def test_every_operation_with_a_body_documents_413_and_422(openapi: dict[str, Any]) -> None:
    with_body = [(p, m, o) for p, m, o in _operations(openapi) if "requestBody" in o]
    assert len(with_body) >= 12
    for path, method, operation in with_body:
        responses = operation["responses"]
        for status, model in (("413", "Message"), ("422", "HTTPValidationError")):
            assert status in responses, (method, path, status)
            assert responses[status]["description"], (method, path, status)
            schema = responses[status]["content"]["application/json"]["schema"]
            assert schema == {"$ref": f"#/components/schemas/{model}"}, (method, path, status)


class Thing(BaseModel):
    x: int


def test_a_route_that_declares_no_errors_still_documents_them() -> None:
    app = FastAPI(docs_url=None, openapi_url="/openapi.json")

    @app.post("/things", responses={422: {"description": "Not a thing."}})
    def things(body: Thing) -> int:
        return body.x

    @app.get("/things")
    def list_things() -> list[int]:
        return []

    docs.install_docs(app, prefix="")
    item = app.openapi()["paths"]["/things"]
    assert {"200", "413", "422"} <= set(item["post"]["responses"])
    assert item["post"]["responses"]["422"]["description"] == "Not a thing."
    assert "413" not in item["get"]["responses"]


def test_the_guard_answers_as_documented(api: TestClient, openapi: dict[str, Any]) -> None:
    limit = api.app.state.settings.max_body_bytes  # type: ignore[attr-defined]
    too_large = api.post(f"{API}/plans", json={"pad": "x" * limit})
    assert too_large.status_code == 413
    assert _validator(openapi, "Message").is_valid(too_large.json())
    not_json = api.post(
        f"{API}/designs", content=b"{", headers={"content-type": "application/json"}
    )
    assert not_json.status_code == 422
    assert _validator(openapi, "HTTPValidationError").is_valid(not_json.json())


# ------------------------------------------------------------------ rules between fields
def _valid(model: type[BaseModel], body: dict[str, Any]) -> bool:
    try:
        model.model_validate(body)
    except ValidationError:
        return False
    return True


def _agree(openapi: dict[str, Any], name: str, model: type[BaseModel], body: Any) -> None:
    schema_says = _validator(openapi, name).is_valid(body)
    assert schema_says == _valid(model, body), (name, "schema says", schema_says, body)


FILER_VALUES: dict[str, list[Any]] = {
    "vendor": ["netapp", "sun", "oracle_zfssa", "azure_anf", "gcp_gcnv", "aws_fsxn", "generic"],
    "os_version": [None, "9.14.1"],
    "service_level": [None, "standard", "ultra", "extreme"],
    "capacity_tib": [None, 4.0],
    "throughput_mb_s": [None, 128],
}


def test_the_filer_schema_states_the_vendor_rules(openapi: dict[str, Any]) -> None:
    for values in itertools.product(*FILER_VALUES.values()):
        filer = {k: v for k, v in zip(FILER_VALUES, values, strict=True) if v is not None}
        _agree(openapi, "Filer", Filer, filer)


def test_the_oracle_schema_states_that_rac_nodes_need_rac(openapi: dict[str, Any]) -> None:
    for rac, nodes in itertools.product([None, False, True], [None, 2, 4]):
        oracle: dict[str, Any] = {"version": "19.21"}
        if rac is not None:
            oracle["rac"] = rac
        if nodes is not None:
            oracle["rac_nodes"] = nodes
        _agree(openapi, "Oracle", Oracle, oracle)


FILERS: dict[str, dict[str, Any]] = {
    "netapp": {"vendor": "netapp", "os_version": "9.14.1"},
    "aws_fsxn": {"vendor": "aws_fsxn", "throughput_mb_s": 512},
    "azure_anf": {"vendor": "azure_anf", "service_level": "premium", "capacity_tib": 4},
    "sun": {"vendor": "sun"},
}
PATH = {"host_interface": "eth1", "filer_address": "192.168.10.21"}


def test_the_platform_schema_states_what_the_handover_fits(openapi: dict[str, Any]) -> None:
    """Every combination of NIC count and paths, RAC and node names, vendor and ONTAP or cloud
    names, the FSx SVM id: the schema and the model agree on each."""
    for nic_count, paths, rac, nodes, vendor, svm, pool, svm_id in itertools.product(
        [None, 1, 2, 4],
        range(5),
        [None, True],
        [0, 2],
        FILERS,
        [None, "svm1"],
        [None, "pool1"],
        [None, "svm-0123456789abcdef0"],
    ):
        platform = copy.deepcopy(EXAMPLE_PLATFORM)
        platform["filer"] = FILERS[vendor]
        if nic_count is None:
            del platform["network"]["nic_count"]
        else:
            platform["network"]["nic_count"] = nic_count
        platform["oracle"].pop("rac_nodes")
        if rac is not None:
            platform["oracle"]["rac"] = rac
        handover: dict[str, Any] = {"paths": [PATH] * paths}
        if nodes:
            handover["cluster_nodes"] = ["db1", "db2"]
        if svm:
            handover["svm"] = svm
        if pool:
            handover["capacity_pool"] = pool
        if svm_id:
            handover["fsx_svm_id"] = svm_id
        platform["handover"] = handover
        _agree(openapi, "Platform", Platform, platform)


REVIEW = {"revision": 1, "reviewer": "Ann", "decision": "approve"}
COMPARE = {"platform": EXAMPLE_PLATFORM, "from_as_of": "2001-01-01"}
VARIANT = {"label": "dNFS"}


@pytest.mark.parametrize(
    ("name", "model", "body"),
    [
        ("ReviewCreate", ReviewCreate, REVIEW),
        ("ReviewCreate", ReviewCreate, {**REVIEW, "item_rule": "NTAP-NOSNAP"}),
        ("ReviewCreate", ReviewCreate, {**REVIEW, "decision": "comment", "item_rule": "A-B"}),
        ("WhatIfVariant", WhatIfVariant, {**VARIANT, "patch": {}}),
        ("WhatIfVariant", WhatIfVariant, {**VARIANT, "platform": EXAMPLE_PLATFORM}),
        ("WhatIfVariant", WhatIfVariant, VARIANT),
        ("WhatIfVariant", WhatIfVariant, {**VARIANT, "patch": {}, "platform": EXAMPLE_PLATFORM}),
        ("WhatIfVariant", WhatIfVariant, {**VARIANT, "patch": None, "platform": None}),
        ("DesignAuditCreate", DesignAuditCreate, {"revision": 1}),
        ("DesignAuditCreate", DesignAuditCreate, {"revision": 1, "files": {}, "pastes": []}),
        ("DesignAuditCreate", DesignAuditCreate, {"revision": 1, "files": {"fstab": "x"}}),
        (
            "DesignAuditCreate",
            DesignAuditCreate,
            {"revision": 1, "pastes": [{"text": "x", "name": "a"}]},
        ),
        ("CompareRequest", CompareRequest, {**COMPARE, "to_as_of": None}),
        ("CompareRequest", CompareRequest, {**COMPARE, "from": "2001-01-01"}),
        ("DesignCreate", DesignCreate, {"name": " PROD ", "platform": EXAMPLE_PLATFORM}),
        ("DesignCreate", DesignCreate, {"name": " \u3000 ", "platform": EXAMPLE_PLATFORM}),
    ],
)
def test_request_rules_are_in_the_schema(
    openapi: dict[str, Any], name: str, model: type[BaseModel], body: dict[str, Any]
) -> None:
    _agree(openapi, name, model, body)


# ------------------------------------------------------------------ dates
FUTURE = "2999-01-01"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("from_as_of", "0001-01-01", "from_as_of must be 1990-01-01 or later"),
        ("from_as_of", "1989-12-31", "from_as_of must be 1990-01-01 or later"),
        ("to_as_of", "0001-01-01", "to_as_of must be 1990-01-01 or later"),
        ("to_as_of", FUTURE, "to_as_of cannot be in the future"),
    ],
)
def test_compare_dates_are_bounded(api: TestClient, field: str, value: str, message: str) -> None:
    body = {"platform": EXAMPLE_PLATFORM, "from_as_of": "2005-06-01", field: value}
    answer = api.post(f"{API}/plans/compare", json=body)
    assert answer.status_code == 422, answer.text[:300]
    assert answer.json()["detail"] == [
        {"loc": ["body", field], "msg": message, "type": "value_error"}
    ]


def test_compare_takes_the_first_day(api: TestClient) -> None:
    body = {"platform": EXAMPLE_PLATFORM, "from_as_of": "1990-01-01"}
    assert api.post(f"{API}/plans/compare", json=body).status_code == 200


@pytest.fixture(scope="module")
def exported(api: TestClient) -> dict[str, Any]:
    created = api.post(f"{API}/designs", json={"name": "dates", "platform": EXAMPLE_PLATFORM})
    assert created.status_code == 201, created.text
    design = created.json()
    review = api.post(
        f"{API}/designs/{design['id']}/reviews",
        json={"revision": 1, "reviewer": "Ann", "decision": "comment", "comment": "ok"},
        headers={"X-Review-Token": design["review_token"]},
    )
    assert review.status_code == 201, review.text
    document: dict[str, Any] = api.get(f"{API}/designs/{design['id']}/export").json()
    return document


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("exported_at",), "0001-01-01T00:00:00Z"),
        (("exported_at",), "9999-12-31T23:00:00-01:00"),
        (("revisions", 0, "created_at"), "1989-12-31T23:59:59Z"),
        (("revisions", 0, "as_of"), "0001-01-01"),
        (("revisions", 0, "as_of"), FUTURE),
        (("revisions", 0, "reviews", 0, "created_at"), "0001-01-01T00:30:00+01:00"),
        (("revisions", 0, "reviews", 0, "created_at"), "2999-01-01T00:00:00"),
    ],
)
def test_import_dates_are_bounded(
    api: TestClient, exported: dict[str, Any], where: tuple[str | int, ...], value: str
) -> None:
    document = copy.deepcopy(exported)
    holder: Any = document
    for key in where[:-1]:
        holder = holder[key]
    holder[where[-1]] = value
    answer = api.post(f"{API}/designs/import", json=document)
    assert answer.status_code == 422, answer.text[:300]
    detail = answer.json()["detail"]
    assert [d["loc"] for d in detail] == [["body", *where]], detail
    assert re.fullmatch(
        rf"{where[-1]} (must be 1990-01-01 or later|cannot be in the future)", detail[0]["msg"]
    )


def test_import_takes_an_export_as_it_is(api: TestClient, exported: dict[str, Any]) -> None:
    assert api.post(f"{API}/designs/import", json=exported).status_code == 201


def test_platform_as_of_keeps_its_range(api: TestClient) -> None:
    answer = api.post(f"{API}/plans", json={**EXAMPLE_PLATFORM, "as_of": "1989-12-31"})
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == ["body", "as_of"]
    assert answer.json()["detail"][0]["msg"].startswith("as_of must be 1990")


DATE_FORMATS = ("date", "date-time")


def _is_date(schema: dict[str, Any]) -> bool:
    parts = [schema, *schema.get("anyOf", [])]
    return any(part.get("format") in DATE_FORMATS for part in parts)


def _request_dates(openapi: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Each date and date-time property of a request body with its description, but those of
    an imported plan (a record, planned again on import)."""
    components = openapi["components"]["schemas"]
    seen: set[str] = set()

    def walk(schema: dict[str, Any], where: str) -> Iterator[tuple[str, str]]:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            if name not in seen and name != "PlanView":
                seen.add(name)
                yield from walk(components[name], name)
            return
        for name, part in schema.get("properties", {}).items():
            if _is_date(part):
                yield f"{where}.{name}", part.get("description", "")
            else:
                yield from walk(part, f"{where}.{name}")
        for key in ("anyOf", "allOf", "oneOf"):
            for part in schema.get(key, []):
                yield from walk(part, where)
        if isinstance(schema.get("items"), dict):
            yield from walk(schema["items"], f"{where}[]")

    for _, _, operation in _operations(openapi):
        if "requestBody" in operation:
            for content in operation["requestBody"]["content"].values():
                yield from walk(content.get("schema", {}), "")


def test_every_request_date_says_its_range(openapi: dict[str, Any]) -> None:
    dates = dict(_request_dates(openapi))
    assert {"Platform.as_of", "CompareRequest.from_as_of", "ExportRevision.as_of"} <= set(dates)
    assert len(dates) >= 7
    for where, description in dates.items():
        assert platform_module.DATE_RANGE in description, where


# ------------------------------------------------------------------ OPTIONS and Allow
def _concrete(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "1", template)


def test_options_and_405_name_the_documented_methods(
    api: TestClient, openapi: dict[str, Any]
) -> None:
    for template, item in openapi["paths"].items():
        documented = {m.upper() for m in item}
        allow = ", ".join(sorted(documented | {"OPTIONS"}))
        path = _concrete(template)
        options = api.options(path)
        assert (options.status_code, options.headers.get("allow")) == (204, allow), template
        for method in sorted(set(METHODS) - documented):
            answer = api.request(method, path)
            assert (answer.status_code, answer.headers.get("allow")) == (405, allow), (
                method,
                template,
                answer.text[:200],
            )


def test_import_allows_post_only(api: TestClient) -> None:
    """/designs/import is also /designs/{design_id} by its shape; its Allow is its own."""
    for method in ("OPTIONS", "GET", "PUT", "DELETE"):
        answer = api.request(method, f"{API}/designs/import")
        assert answer.headers["allow"] == "OPTIONS, POST", method
    assert api.get(f"{API}/designs/import").status_code == 405
    assert api.options(f"{API}/designs/some-id").headers["allow"] == "GET, OPTIONS"

"""Bad requests get a clear 4xx naming the field (422, 413, 405, 429), never 400 or 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from tests.conftest import sqlite_settings


def test_undecodable_body_is_422(client: TestClient) -> None:
    response = client.post(
        "/api/v1/plans",
        content=b'{"host": "\xff\xfe"}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body"]
    assert "UTF-8" in response.json()["detail"][0]["msg"]


@pytest.mark.parametrize("depth", [40, 100_000])
def test_too_deep_body_is_422(client: TestClient, depth: int) -> None:
    body = "[" * depth + "]" * depth
    response = client.post(
        "/api/v1/plans", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "json_depth"


def test_control_characters_are_422_naming_the_field(client: TestClient) -> None:
    platform = {**EXAMPLE_PLATFORM, "layout": {**EXAMPLE_PLATFORM["layout"], "db_name": "P\u0000"}}
    response = client.post("/api/v1/plans", json=platform)
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "layout", "db_name"]


def test_chunked_over_size_body_is_413(client: TestClient) -> None:
    limit = client.app.state.settings.max_body_bytes  # type: ignore[attr-defined]

    def chunks() -> Iterator[bytes]:
        yield b'{"x": "'
        for _ in range(limit // 65536 + 2):
            yield b"a" * 65536
        yield b'"}'

    response = client.post(
        "/api/v1/plans", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_wrong_method_on_an_api_path_is_405_with_allow(client: TestClient) -> None:
    response = client.get("/api/v1/plans")
    assert response.status_code == 405
    assert response.headers["allow"] == "OPTIONS, POST"
    assert response.headers["content-type"] == "application/json"
    design_path = client.delete("/api/v1/designs/abc")
    assert design_path.status_code == 405 and "GET" in design_path.headers["allow"]


def test_unknown_api_paths_are_json_404_for_every_method(client: TestClient) -> None:
    for method in ("GET", "POST", "PUT", "DELETE"):
        response = client.request(method, "/api/v1/no/such/thing")
        assert response.status_code == 404
        assert response.json() == {"detail": "not found"}


def test_writes_are_rate_limited_per_client(kb: KnowledgeBase, tmp_path: Path) -> None:
    settings = sqlite_settings(tmp_path).model_copy(update={"rate_limit_writes": "3/minute"})
    with TestClient(create_app(settings, kb=kb)) as c:
        answers = [
            c.post("/api/v1/designs", json={"name": "x", "platform": EXAMPLE_PLATFORM})
            for _ in range(4)
        ]
        assert [a.status_code for a in answers] == [201, 201, 201, 429]
        assert 1 <= int(answers[-1].headers["retry-after"]) <= 60
        # Reading and planning are not writes to designs.
        assert c.post("/api/v1/plans", json=EXAMPLE_PLATFORM).status_code == 200
        assert c.get("/api/v1/designs/" + answers[0].json()["id"]).status_code == 200


def test_head_on_the_web_page_is_not_405(client: TestClient) -> None:
    assert client.head("/").status_code in (200, 404)
    # The API's GET operations do not take HEAD, and say so.
    head = client.head("/api/v1/health")
    assert head.status_code == 405 and head.headers["allow"] == "GET, OPTIONS"


def test_cloud_nas_needs_its_service_level_and_capacity(client: TestClient) -> None:
    platform = {
        **EXAMPLE_PLATFORM,
        "filer": {"vendor": "azure_anf", "service_level": "extreme"},
    }
    answer = client.post("/api/v1/plans", json=platform)
    assert answer.status_code == 422
    assert "service_level" in answer.json()["detail"][0]["msg"]
    netapp = {**EXAMPLE_PLATFORM, "filer": {**EXAMPLE_PLATFORM["filer"], "capacity_tib": 4}}
    assert client.post("/api/v1/plans", json=netapp).status_code == 422

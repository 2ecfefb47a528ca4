"""Request ids, JSON access logs and Prometheus metrics (nasplan.api.observability)."""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import re
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from starlette.types import Message, Receive, Scope, Send

from nasplan.api.observability import (
    UNMATCHED,
    JsonFormatter,
    Metrics,
    ObservabilityMiddleware,
    configure_logging,
    current_request_id,
)
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings

MAX_BODY = 4096
GENERATED_ID = re.compile(r"[0-9a-f]{32}")
DESIGN_ROUTE = "/api/v1/designs/{design_id}"
ACCESS_KEYS = {"ts", "level", "request_id", "method", "route", "status", "duration_ms"}


@pytest.fixture(scope="module")
def app(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    """The real app, with a built front end of its own and a route that fails."""
    root = tmp_path_factory.mktemp("observability")
    dist = root / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>nasplan</title>")
    (dist / "assets" / "app.js").write_text("console.log('nasplan');\n")
    settings = Settings(
        DATABASE_URL=f"sqlite:///{root / 'nasplan.db'}",
        NASPLAN_FRONTEND_DIST=dist,
        NASPLAN_MAX_BODY_BYTES=MAX_BODY,
    )
    application = create_app(settings, kb=kb)

    def boom() -> None:
        raise RuntimeError("boom")

    application.add_api_route("/api/v1/_boom", boom, include_in_schema=False)
    # Ahead of the /api fallback and the page's catch-all.
    application.router.routes.insert(0, application.router.routes.pop())
    return application


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """What the ``nasplan`` loggers (access lines included) write, through JsonFormatter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("nasplan")
    previous = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)


def parsed(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def scrape(client: TestClient) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200
    return response.text


def sample(text: str, name: str, **labels: str) -> float:
    """The value of the sample ``name{labels}`` in the exposition ``text``; 0 when absent."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return float(found.value)
    return 0.0


def metric(client: TestClient, name: str, **labels: str) -> float:
    return sample(scrape(client), name, **labels)


# --- request id -------------------------------------------------------------------------------


def test_request_id_is_generated_and_echoed(client: TestClient) -> None:
    first = client.get("/api/v1/health")
    second = client.get("/api/v1/health")
    assert first.status_code == second.status_code == 200
    assert GENERATED_ID.fullmatch(first.headers["x-request-id"])
    assert GENERATED_ID.fullmatch(second.headers["x-request-id"])
    assert first.headers["x-request-id"] != second.headers["x-request-id"]


@pytest.mark.parametrize("incoming", ["client-1.2_3", "A" * 64, "0"])
def test_valid_incoming_id_is_kept(client: TestClient, incoming: str) -> None:
    response = client.get("/api/v1/health", headers={"X-Request-ID": incoming})
    assert response.headers["x-request-id"] == incoming


@pytest.mark.parametrize(
    "hostile", ["A" * 65, "x" * 200, "two words", "id;drop", "a/b", "<script>", ""]
)
def test_hostile_incoming_id_is_replaced(client: TestClient, hostile: str) -> None:
    response = client.get("/api/v1/health", headers={"X-Request-ID": hostile})
    assert response.status_code == 200
    assert response.headers["x-request-id"] != hostile
    assert GENERATED_ID.fullmatch(response.headers["x-request-id"])


async def _call_with_raw_header(raw: bytes) -> tuple[str | None, list[tuple[bytes, bytes]]]:
    """Run the middleware on a raw ASGI scope (no HTTP client would send such a header)."""
    seen: list[str | None] = []
    sent: list[Message] = []

    async def inner(_scope: Scope, _receive: Receive, send: Send) -> None:
        seen.append(current_request_id())
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "method": "GET",
        "path": "/x",
        "root_path": "",
        "headers": [(b"x-request-id", raw)],
    }
    await ObservabilityMiddleware(inner, Metrics())(scope, receive, send)
    return seen[0], sent[0]["headers"]


@pytest.mark.parametrize("raw", [b"abc\ndef", b"abc\n", b"abc\r\nX-Evil: 1", b"ab\x00c"])
def test_id_with_control_characters_is_replaced(raw: bytes) -> None:
    seen, headers = anyio.run(_call_with_raw_header, raw)
    assert seen is not None and GENERATED_ID.fullmatch(seen)
    assert headers == [(b"x-request-id", seen.encode())]
    assert current_request_id() is None  # reset once the request is over


# --- logs -------------------------------------------------------------------------------------


def test_access_line_is_json_with_the_route_template(
    client: TestClient, json_lines: io.StringIO
) -> None:
    response = client.get("/api/v1/designs/no-such-design", headers={"X-Request-ID": "log-1"})
    assert response.status_code == 404
    [line] = [e for e in parsed(json_lines) if e["logger"] == "nasplan.access"]
    assert line.keys() >= ACCESS_KEYS
    assert line["request_id"] == "log-1"
    assert line["level"] == "INFO"
    assert line["method"] == "GET"
    assert line["route"] == DESIGN_ROUTE
    assert line["status"] == 404
    assert isinstance(line["duration_ms"], float)
    assert 0 <= line["duration_ms"] < 60_000
    assert round(line["duration_ms"], 2) == line["duration_ms"]
    ts = dt.datetime.fromisoformat(line["ts"])
    assert ts.utcoffset() == dt.timedelta(0)
    assert abs(dt.datetime.now(dt.UTC) - ts) < dt.timedelta(minutes=5)


def test_formatter_renders_exceptions_on_one_line() -> None:
    try:
        raise ValueError("bad\nvalue")
    except ValueError:
        record = logging.getLogger("nasplan.test").makeRecord(
            "nasplan.test",
            logging.ERROR,
            __file__,
            1,
            "failed for %s",
            ("x",),
            sys.exc_info(),
            extra={"design": "d1"},
        )
    text = JsonFormatter().format(record)
    assert "\n" not in text
    entry = json.loads(text)
    assert entry["message"] == "failed for x"
    assert entry["level"] == "ERROR"
    assert entry["design"] == "d1"
    assert entry["request_id"] is None
    assert entry["exc_info"].startswith("Traceback")
    assert entry["exc_info"].endswith("ValueError: bad\nvalue")


def test_configure_logging_is_idempotent() -> None:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    root.handlers = []
    try:
        configure_logging("debug")
        configure_logging("debug")
        assert len(root.handlers) == 1
        assert isinstance(root.handlers[0].formatter, JsonFormatter)
        assert root.level == logging.DEBUG
    finally:
        root.handlers = handlers
        root.setLevel(level)


# --- metrics ----------------------------------------------------------------------------------


def test_metrics_count_requests_by_route_template(client: TestClient, app: FastAPI) -> None:
    labels = {"method": "GET", "route": DESIGN_ROUTE, "status": "404"}
    before = scrape(client)
    for design_id in ("m-one", "m-two", "m-three"):
        assert client.get(f"/api/v1/designs/{design_id}").status_code == 404
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    after = response.text
    assert "# TYPE nasplan_http_requests_total counter" in after
    assert (
        sample(after, "nasplan_http_requests_total", **labels)
        - sample(before, "nasplan_http_requests_total", **labels)
        == 3
    )
    duration = {"method": "GET", "route": DESIGN_ROUTE}
    name = "nasplan_http_request_duration_seconds_count"
    assert sample(after, name, **duration) - sample(before, name, **duration) == 3
    assert "m-one" not in after and "m-two" not in after
    # A registry per app: another app starts from nothing.
    assert isinstance(app.state.metrics, Metrics)
    assert app.state.metrics.registry is not Metrics().registry


def test_metrics_route_is_not_in_the_schema_nor_the_pages(client: TestClient) -> None:
    assert "/metrics" not in client.get("/api/v1/openapi.json").json()["paths"]
    response = client.get("/metrics")
    assert "nasplan_plans_total" in response.text
    assert not response.headers["content-type"].startswith("text/html")


def test_unknown_methods_and_mounts_do_not_make_new_series(client: TestClient) -> None:
    client.request("BREW", "/api/v1/health")
    assert client.get("/assets/app.js").status_code == 200
    text = scrape(client)
    assert 'method="BREW"' not in text
    assert sample(
        text, "nasplan_http_requests_total", method="GET", route="/assets/{path}", status="200"
    ) == pytest.approx(1)
    assert "/assets/app.js" not in text


def test_a_plan_counts_once(client: TestClient) -> None:
    before = metric(client, "nasplan_plans_total")
    assert client.post("/api/v1/plans", json=EXAMPLE_PLATFORM).status_code == 200
    assert metric(client, "nasplan_plans_total") - before == 1
    # Refused input is not a plan.
    assert client.post("/api/v1/plans", json={}).status_code == 422
    assert metric(client, "nasplan_plans_total") - before == 1


def test_designs_and_bundles_are_counted(client: TestClient) -> None:
    designs = metric(client, "nasplan_designs_created_total")
    bundles = metric(client, "nasplan_bundles_total")
    created = client.post("/api/v1/designs", json={"name": "metrics", "platform": EXAMPLE_PLATFORM})
    assert created.status_code == 201
    design = created.json()
    bundle = client.get(f"/api/v1/designs/{design['id']}/revisions/{design['revision']}/bundle")
    assert bundle.status_code == 200
    assert client.post("/api/v1/plans/bundle", json=EXAMPLE_PLATFORM).status_code == 200
    assert metric(client, "nasplan_designs_created_total") - designs == 1
    assert metric(client, "nasplan_bundles_total") - bundles == 2


@pytest.mark.parametrize(
    ("method", "route", "counter"),
    [
        ("POST", "/api/v1/plans", "plans"),
        ("POST", "/api/v1/plans/what-if", "plans"),
        ("POST", "/api/v1/plans/compare", None),
        ("POST", "/api/v1/designs", "designs_created"),
        ("POST", "/api/v1/designs/import", None),
        ("GET", "/api/v1/designs/{design_id}/revisions/{number}/bundle", "bundles"),
        ("POST", "/api/v1/plans/bundle", "bundles"),
        ("GET", "/api/v1/bundles/{bundle_id}", "bundles"),
        ("GET", "/api/v1/designs/{design_id}", None),
        ("GET", "/bundle", None),
    ],
)
def test_domain_counter_of_each_route(method: str, route: str, counter: str | None) -> None:
    metrics = Metrics()
    expected = getattr(metrics, counter) if counter else None
    assert metrics.domain_counter(method, route) is expected


# --- errors -----------------------------------------------------------------------------------


def test_server_error_names_its_request_id(client: TestClient, json_lines: io.StringIO) -> None:
    errors = {"route": "/api/v1/_boom", "status": "500"}
    before = metric(client, "nasplan_http_errors_total", **errors)
    quoted = client.get("/api/v1/_boom", headers={"X-Request-ID": "boom-42"})
    assert quoted.status_code == 500
    assert quoted.headers["x-request-id"] == "boom-42"
    assert quoted.json() == {
        "detail": "internal error; it has been logged",
        "request_id": "boom-42",
    }
    generated = client.get("/api/v1/_boom")
    assert generated.status_code == 500
    assert GENERATED_ID.fullmatch(generated.headers["x-request-id"])
    assert generated.json()["request_id"] == generated.headers["x-request-id"]
    assert metric(client, "nasplan_http_errors_total", **errors) - before == 2
    # The handler's log line carries the id and the traceback.
    logged = next(e for e in parsed(json_lines) if e["message"] == "unhandled error")
    assert logged["request_id"] == "boom-42"
    assert logged["level"] == "ERROR"
    assert "RuntimeError: boom" in logged["exc_info"]
    access = [e for e in parsed(json_lines) if e.get("route") == "/api/v1/_boom"]
    assert [(e["request_id"], e["status"]) for e in access] == [
        ("boom-42", 500),
        (generated.headers["x-request-id"], 500),
    ]


def test_the_middleware_is_outermost(client: TestClient) -> None:
    """Answers the inner middleware gives itself (413, security headers) get an id and count."""
    labels = {"method": "POST", "route": UNMATCHED, "status": "413"}
    before = metric(client, "nasplan_http_requests_total", **labels)
    response = client.post("/api/v1/plans", json={"pad": "x" * MAX_BODY})
    assert response.status_code == 413
    assert GENERATED_ID.fullmatch(response.headers["x-request-id"])
    assert response.headers["x-frame-options"] == "DENY"
    assert metric(client, "nasplan_http_requests_total", **labels) - before == 1

"""HTTP hardening found by probing: one reading of the body's headers, JSON depth, slow bodies,
500s that close the connection, and no caching of tokens or capability URLs."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.types import Message, Receive, Scope, Send

from nasplan.api import errors
from nasplan.api.limits import MAX_DEPTH, BadBody, RequestBodyGuard, check_json_body
from nasplan.api.security import SecurityHeaders
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings

SECRET = "secret-detail-of-the-failure"


@pytest.fixture(scope="module")
def app(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    """The real app, without rate limits (these tests send many requests), with a route that
    fails."""
    root = tmp_path_factory.mktemp("hardening")
    settings = Settings(DATABASE_URL=f"sqlite:///{root / 'nasplan.db'}")
    limits = {"rate_limit_writes", "rate_limit_compute"} & set(Settings.model_fields)
    application = create_app(settings.model_copy(update=dict.fromkeys(limits, "")), kb=kb)

    def boom() -> None:
        raise RuntimeError(SECRET)

    application.add_api_route("/api/v1/_boom", boom, include_in_schema=False)
    # Ahead of the /api fallback and the page's catch-all.
    application.router.routes.insert(0, application.router.routes.pop())
    return application


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def design(client: TestClient) -> dict[str, Any]:
    created = client.post(
        "/api/v1/designs", json={"name": "hardening", "platform": EXAMPLE_PLATFORM}
    )
    assert created.status_code == 201
    answer: dict[str, Any] = created.json()
    return answer


def _refused_header(response: Any, name: str) -> None:
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert len(detail) == 1
    assert detail[0]["loc"] == ["header", name]
    assert detail[0]["msg"] and detail[0]["type"]


# ------------------------------------------------------------ 1. one reading of the headers


@pytest.mark.parametrize(
    "content_types",
    [
        ("application/json", "text/plain"),
        ("text/plain", "application/json"),
        ("application/json", "application/json"),
    ],
)
def test_a_second_content_type_is_refused(
    client: TestClient, design: dict[str, Any], content_types: tuple[str, str]
) -> None:
    review = {
        "revision": 1,
        "reviewer": "ann",
        "decision": "comment",
        "comment": "ok\u0000\u001b[2J",
    }
    response = client.post(
        f"/api/v1/designs/{design['id']}/reviews",
        content=json.dumps(review).encode(),
        headers=[
            ("x-review-token", design["review_token"]),
            *(("content-type", value) for value in content_types),
        ],
    )
    _refused_header(response, "content-type")
    assert "Content-Type" in response.json()["detail"][0]["msg"]
    stored = client.get(f"/api/v1/designs/{design['id']}").json()
    assert stored["latest"]["reviews"] == []


def test_one_content_type_still_gets_the_body_checks(
    client: TestClient, design: dict[str, Any]
) -> None:
    review = {"revision": 1, "reviewer": "ann", "decision": "comment", "comment": "ok\u0000"}
    response = client.post(
        f"/api/v1/designs/{design['id']}/reviews",
        json=review,
        headers={"x-review-token": design["review_token"]},
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "comment"]


@pytest.mark.parametrize("lengths", [("2", "3"), ("two",), ("2, 3",), ("",), ("+2",), ("2", "2x")])
def test_content_length_must_be_one_number(client: TestClient, lengths: tuple[str, ...]) -> None:
    response = client.post(
        "/api/v1/plans",
        content=b"{}",
        headers=[("content-type", "application/json"), *(("content-length", v) for v in lengths)],
    )
    _refused_header(response, "content-length")
    assert response.headers["connection"] == "close"


@pytest.mark.parametrize("lengths", [("2", "2"), ("2, 2",), ("002",)])
def test_content_lengths_that_agree_are_accepted(
    client: TestClient, lengths: tuple[str, ...]
) -> None:
    response = client.post(
        "/api/v1/plans",
        content=b"{}",
        headers=[("content-type", "application/json"), *(("content-length", v) for v in lengths)],
    )
    assert response.status_code == 422  # the route's own answer: {} is not a platform
    assert response.json()["detail"][0]["loc"][0] == "body"


def test_an_absurd_content_length_is_413_not_500(client: TestClient) -> None:
    response = client.post(
        "/api/v1/plans",
        content=b"{}",
        headers=[("content-type", "application/json"), ("content-length", "9" * 5000)],
    )
    assert response.status_code == 413
    assert response.headers["connection"] == "close"


# ------------------------------------------------------------------------- 2. nesting depth


def _nested(depth: int, kind: str) -> bytes:
    if kind == "array":
        return b"[" * depth + b"]" * depth
    return b'{"a":' * depth + b"1" + b"}" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 999, 1000, 2000, 100_000])
@pytest.mark.parametrize("kind", ["array", "object"])
@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json; charset=utf-8", "application/problem+json", None],
)
def test_any_nesting_depth_is_422_naming_the_body(
    client: TestClient, depth: int, kind: str, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    response = client.post("/api/v1/plans", content=_nested(depth, kind), headers=headers)
    assert response.status_code == 422, response.text
    assert response.json()["detail"] == [
        {"loc": ["body"], "msg": f"nested deeper than {MAX_DEPTH} levels", "type": "json_depth"}
    ]


def test_a_deep_body_behind_a_second_content_type_is_422_not_400(client: TestClient) -> None:
    response = client.post(
        "/api/v1/plans",
        content=_nested(2000, "array"),
        headers=[("content-type", "application/json"), ("content-type", "text/plain")],
    )
    _refused_header(response, "content-type")


def test_depth_is_counted_outside_strings_only() -> None:
    check_json_body(_nested(MAX_DEPTH, "array"))
    check_json_body(_nested(MAX_DEPTH, "object"))
    check_json_body(json.dumps({"text": "[{" * 10_000, "quote": '"\\[[['}).encode())
    with pytest.raises(BadBody) as raised:
        check_json_body(_nested(MAX_DEPTH + 1, "object"))
    assert (raised.value.loc, raised.value.kind) == (["body"], "json_depth")


@pytest.mark.parametrize(
    ("raw", "loc"),
    [
        (rb'{"a": [{"b": "x\b"}]}', ["body", "a", 0, "b"]),
        (rb'{"a": ["ok", "\f"]}', ["body", "a", 1]),
        (rb'{"a": {"k\u001Bey": 1}}', ["body", "a", "k\x1bey"]),
        (b'["\\u007f"]', ["body", 0]),
        (b'["\x7f"]', ["body", 0]),
        (b'"\\u0000"', ["body"]),
    ],
)
def test_control_characters_are_found_however_written(raw: bytes, loc: list[str | int]) -> None:
    with pytest.raises(BadBody) as raised:
        check_json_body(raw)
    assert (raised.value.loc, raised.value.kind) == (loc, "control_character")


@pytest.mark.parametrize("code", [c for c in [*range(0x20), 0x7F] if chr(c) not in "\t\n\r"])
def test_every_forbidden_character_is_found_in_every_escape(code: int) -> None:
    escaped = json.dumps(chr(code))  # \b, \f or \u00xx: the forms a client sends
    for raw in {escaped, f'"\\u{code:04x}"', f'"\\u{code:04X}"'}:
        with pytest.raises(BadBody) as raised:
            check_json_body(raw.encode())
        assert raised.value.kind == "control_character", raw


def test_escapes_of_allowed_characters_pass() -> None:
    check_json_body(rb'{"text": "tab\t, line\n\r, \\b and \\f are text, \u00e9"}')


def test_a_number_too_long_to_read_is_422_not_500(client: TestClient) -> None:
    response = client.post(
        "/api/v1/plans",
        content=b'{"n": ' + b"1" * 5000 + b"}",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["body"]


# ------------------------------------------------------------------- 3. bodies arriving slowly


class _Recorder:
    """An inner ASGI app that records the body it was handed."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            self.messages.append(message)
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        await PlainTextResponse("handled")(scope, receive, send)


def _run_guard(guard: RequestBodyGuard, receive: Receive) -> list[Message]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/plans",
        "headers": [(b"content-type", b"application/json")],
    }

    async def main() -> None:
        await guard(scope, receive, send)

    anyio.run(main)
    return sent


def _trickle(chunks: list[bytes], pause: float, then: Callable[[], Awaitable[Message]]) -> Receive:
    """Send ``chunks`` ``pause`` seconds apart (each but the last with more_body), then ``then``."""
    queue = list(chunks)

    async def receive() -> Message:
        if queue:
            await anyio.sleep(pause)
            chunk = queue.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": True}
        return await then()

    return receive


async def _stall() -> Message:
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


def _assert_timed_out(sent: list[Message]) -> None:
    start, body = sent
    assert start["status"] == 408
    assert (b"connection", b"close") in start["headers"]
    assert json.loads(body["body"]) == {"detail": "request body not received in time"}


def test_a_body_that_stalls_is_408_and_the_route_never_runs() -> None:
    inner = _Recorder()
    guard = RequestBodyGuard(inner, max_bytes=1000, body_timeout_s=0.05)
    sent = _run_guard(guard, _trickle([b'{"a": '], 0, _stall))
    _assert_timed_out(sent)
    assert inner.messages == []


def test_a_body_that_trickles_past_the_deadline_is_408() -> None:
    # Every chunk comes soon after the last, but the whole body is not in by the deadline.
    inner = _Recorder()
    guard = RequestBodyGuard(inner, max_bytes=1000, body_timeout_s=0.1)
    sent = _run_guard(guard, _trickle([b" "] * 100, 0.01, _stall))
    _assert_timed_out(sent)
    assert inner.messages == []


def test_a_body_in_time_is_handed_on_whole() -> None:
    inner = _Recorder()
    guard = RequestBodyGuard(inner, max_bytes=1000, body_timeout_s=5)

    async def last() -> Message:
        return {"type": "http.request", "body": b"2]", "more_body": False}

    sent = _run_guard(guard, _trickle([b"[1", b","], 0.001, last))
    assert sent[0]["status"] == 200
    assert inner.messages == [{"type": "http.request", "body": b"[1,2]", "more_body": False}]


def test_a_client_that_leaves_mid_body_is_not_handed_a_partial_body() -> None:
    inner = _Recorder()
    guard = RequestBodyGuard(inner, max_bytes=1000, body_timeout_s=5)

    async def gone() -> Message:
        return {"type": "http.disconnect"}

    _run_guard(guard, _trickle([b"123"], 0, gone))
    assert inner.messages == [{"type": "http.disconnect"}]


def test_the_body_deadline_defaults_to_30_seconds() -> None:
    assert RequestBodyGuard(_Recorder(), max_bytes=1).body_timeout_s == 30.0


def test_a_body_over_the_limit_is_413_as_it_streams() -> None:
    inner = _Recorder()
    guard = RequestBodyGuard(inner, max_bytes=10, body_timeout_s=5)
    sent = _run_guard(guard, _trickle([b"x" * 6, b"x" * 6], 0, _stall))
    assert sent[0]["status"] == 413
    assert (b"connection", b"close") in sent[0]["headers"]
    assert inner.messages == []


# ------------------------------------------------------------------------------------ 4. 500s


def _assert_no_trace(text: str) -> None:
    for leak in ("Traceback", SECRET, "RuntimeError", ".py"):
        assert leak not in text


def test_a_500_closes_the_connection_and_shows_no_trace(client: TestClient) -> None:
    response = client.get("/api/v1/_boom")
    assert response.status_code == 500
    assert response.headers["connection"] == "close"
    assert response.json() == {
        "detail": "internal error; it has been logged",
        "request_id": response.headers["x-request-id"],
    }
    _assert_no_trace(response.text)


def test_the_500_handler_alone_closes_the_connection() -> None:
    bare = FastAPI()
    errors.install(bare)

    @bare.get("/boom")
    def boom() -> None:
        raise RuntimeError(SECRET)

    response = TestClient(bare, raise_server_exceptions=False).get("/boom")
    assert response.status_code == 500
    assert response.headers["connection"] == "close"
    _assert_no_trace(response.text)


async def _raises(_scope: Scope, _receive: Receive, _send: Send) -> None:
    raise RuntimeError(SECRET)


async def _answers_500(scope: Scope, receive: Receive, send: Send) -> None:
    await JSONResponse({"detail": "upstream failed"}, status_code=500)(scope, receive, send)


@pytest.mark.parametrize("inner", [_raises, _answers_500])
def test_every_500_through_the_security_middleware_closes_the_connection(
    inner: Callable[[Scope, Receive, Send], Awaitable[None]],
) -> None:
    response = TestClient(SecurityHeaders(inner), raise_server_exceptions=False).get("/x")
    assert response.status_code == 500
    assert response.headers["connection"] == "close"
    _assert_no_trace(response.text)


def test_other_answers_keep_the_connection(client: TestClient) -> None:
    assert "connection" not in client.get("/api/v1/health").headers


# --------------------------------------------------------------------------- 5. Cache-Control


def test_answers_with_tokens_are_not_stored(client: TestClient, design: dict[str, Any]) -> None:
    created = client.post("/api/v1/designs", json={"name": "tokens", "platform": EXAMPLE_PLATFORM})
    assert created.status_code == 201 and created.json()["edit_token"]
    assert created.headers["cache-control"] == "no-store"
    document = client.get(f"/api/v1/designs/{design['id']}/export").json()
    imported = client.post("/api/v1/designs/import", json=document)
    assert imported.status_code == 201 and imported.json()["review_token"]
    assert imported.headers["cache-control"] == "no-store"
    refused = client.post("/api/v1/designs", json={"name": "x"})
    assert refused.status_code == 422
    assert refused.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    ("method", "suffix", "status"),
    [
        ("GET", "", 200),
        ("GET", "/revisions/1", 200),
        ("GET", "/revisions/1/bundle", 200),
        ("GET", "/revisions/1/runbook?format=html", 200),
        ("GET", "/export", 200),
        ("GET", "/audits", 200),
        ("POST", "/reviews", 403),
        ("DELETE", "", 405),
        ("GET", "/revisions/99", 404),
    ],
)
def test_capability_urls_are_private_and_not_stored(
    client: TestClient, design: dict[str, Any], method: str, suffix: str, status: int
) -> None:
    body = {"revision": 1, "reviewer": "ann", "decision": "comment"} if method == "POST" else None
    response = client.request(method, f"/api/v1/designs/{design['id']}{suffix}", json=body)
    assert response.status_code == status
    assert response.headers["cache-control"] == "private, no-store"


def test_an_unknown_design_is_private_too(client: TestClient) -> None:
    response = client.get("/api/v1/designs/no-such-design")
    assert response.status_code == 404
    assert response.headers["cache-control"] == "private, no-store"


def test_other_answers_get_no_cache_control_added(client: TestClient) -> None:
    assert "cache-control" not in client.get("/api/v1/health").headers
    assert "cache-control" not in client.post("/api/v1/plans", json=EXAMPLE_PLATFORM).headers


def _answer_with(cache_control: str) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        response = PlainTextResponse("ok", headers={"Cache-Control": cache_control})
        await response(scope, receive, send)

    return app


@pytest.mark.parametrize(
    ("route", "path", "sent"),
    [
        ("no-store, max-age=0", "/api/v1/designs/abc", "no-store, max-age=0"),
        ("private, no-store", "/api/v1/designs/abc", "private, no-store"),
        ("public, max-age=300", "/api/v1/designs/abc", "private, no-store"),
        ("no-cache", "/api/v1/designs/abc/export", "private, no-store"),
        ("public, max-age=300", "/api/v1/knowledge/rules/X-1", "public, max-age=300"),
    ],
)
def test_a_routes_own_stricter_cache_control_is_kept(route: str, path: str, sent: str) -> None:
    response = TestClient(SecurityHeaders(_answer_with(route))).get(path)
    assert response.headers.get_list("cache-control") == [sent]


def _best_of_three(raw: bytes) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        with pytest.raises(BadBody):
            check_json_body(raw)
        times.append(time.perf_counter() - started)
    return min(times)


@pytest.mark.parametrize(
    "hostile",
    [
        pytest.param(lambda n: b'"' + b'\\"' * n, id="unterminated string of escaped quotes"),
        pytest.param(lambda n: b"[" * n, id="unclosed brackets"),
        pytest.param(lambda n: b'{"a": "' + b"\\u0001" * n + b'"}', id="escaped controls"),
    ],
)
def test_the_body_checks_take_time_in_proportion_to_the_body(hostile: Any) -> None:
    # A 40 KB body of escaped quotes once took 14 s (a backtracking pattern over the raw text).
    small, large = _best_of_three(hostile(300_000)), _best_of_three(hostile(600_000))
    assert large < 10.0  # the quadratic pattern took minutes at this size
    if small > 0.02:  # below that, the ratio measures the machine's noise, not the check
        assert large / small < 3.0

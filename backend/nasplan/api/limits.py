"""Checks every API request body before a route sees it.

- Bodies above the limit are refused with 413, whether they declare a Content-Length or arrive
  chunked: the body is read here (up to the limit) and handed on only when complete, so an
  over-size body never reaches the JSON parser (which would answer 400).
- A JSON body must be UTF-8, well formed, at most ``MAX_DEPTH`` levels deep, and free of control
  characters other than tab, newline and carriage return (NUL cannot be stored by PostgreSQL
  and none of them belongs in a name, a comment or a pasted file). Each problem is a 422 whose
  ``loc`` names the field, like every other validation error.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_DEPTH = 32
FORBIDDEN_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WITH_BODY = {"POST", "PUT", "PATCH"}


class BodyTooLarge(Exception):
    pass


class BadBody(Exception):
    def __init__(self, loc: list[str | int], msg: str, kind: str) -> None:
        super().__init__(msg)
        self.loc = loc
        self.msg = msg
        self.kind = kind


def check_json_body(raw: bytes) -> None:
    """Raise BadBody naming the field when ``raw`` is not an acceptable JSON document."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadBody(
            ["body"], f"the body is not UTF-8 (byte {exc.start})", "body_encoding"
        ) from exc
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadBody(
            ["body"], f"the body is not JSON: {exc.msg} at line {exc.lineno}", "json_invalid"
        ) from exc
    except RecursionError as exc:
        raise BadBody(["body"], f"nested deeper than {MAX_DEPTH} levels", "json_depth") from exc
    _walk(document, ["body"], 0)


def _walk(value: Any, loc: list[str | int], depth: int) -> None:
    if depth > MAX_DEPTH:
        raise BadBody(loc, f"nested deeper than {MAX_DEPTH} levels", "json_depth")
    if isinstance(value, str):
        _text(value, loc)
    elif isinstance(value, dict):
        for key, item in value.items():
            _text(key, [*loc, key])
            _walk(item, [*loc, key], depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, [*loc, index], depth + 1)


def _text(value: str, loc: list[str | int]) -> None:
    found = FORBIDDEN_CONTROL.search(value)
    if found:
        code = f"U+{ord(found.group()):04X}"
        raise BadBody(
            loc,
            f"control character {code} at position {found.start()}: only tab, newline and "
            "carriage return are allowed in text",
            "control_character",
        )


class RequestBodyGuard:
    def __init__(self, app: ASGIApp, max_bytes: int, prefix: str = "/api/") -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _WITH_BODY:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await _answer(send, 413, {"detail": "request body too large"})
            return
        try:
            body = await self._read(receive)
        except BodyTooLarge:
            await _answer(send, 413, {"detail": "request body too large"})
            return
        if body and scope["path"].startswith(self.prefix) and _is_json(headers):
            try:
                check_json_body(body)
            except BadBody as exc:
                detail = [{"loc": exc.loc, "msg": exc.msg, "type": exc.kind}]
                await _answer(send, 422, {"detail": detail})
                return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                raise BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _is_json(headers: dict[bytes, bytes]) -> bool:
    kind = headers.get(b"content-type", b"application/json").split(b";")[0].strip().lower()
    return kind == b"application/json" or kind.endswith(b"+json")


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _answer(send: Send, status: int, content: dict[str, Any]) -> None:
    body = json.dumps(content).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})

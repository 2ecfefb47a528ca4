"""Checks every request's body headers, and every API request body, before a route sees them.

- One reading of the headers: a request with more than one ``Content-Type`` header is refused
  (the guard and FastAPI could otherwise judge the body by different ones), and so is one whose
  ``Content-Length`` values are not numbers or disagree. Each is a 422 naming the header.
- Bodies above the limit are refused with 413, whether they declare a Content-Length or arrive
  chunked: the body is counted as it arrives, read here (up to the limit) and handed on only
  when complete, so an over-size body never reaches the JSON parser (which would answer 400).
- The whole body must arrive within ``body_timeout_s`` seconds, else 408: a client cannot hold
  a request (and the part of the body it sent) open by sending slowly.
- A client that leaves before its body is complete is not handed on as a complete request: the
  route sees the disconnect.
- A JSON body must be UTF-8, well formed, at most ``MAX_DEPTH`` levels deep, and free of control
  characters other than tab, newline and carriage return (NUL cannot be stored by PostgreSQL
  and none of them belongs in a name, a comment or a pasted file). Each problem is a 422 whose
  ``loc`` names the field, like every other validation error. A body is JSON when FastAPI would
  parse it as JSON (its own test of the Content-Type, on the same header), or when it has no
  Content-Type. The checks are linear in the body's size and, for a large body, run on a
  worker thread, so the server goes on answering meanwhile.

The guard's refusals before the whole body was read carry ``Connection: close``: the rest of the
body may still be on its way, and the connection cannot carry another request after it.
"""

from __future__ import annotations

import email.message
import json
import re
from collections.abc import Iterator
from typing import Any

import anyio
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_DEPTH = 32
FORBIDDEN_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WITH_BODY = {"POST", "PUT", "PATCH"}
_CLOSE = {"Connection": "close"}
#: Bodies up to this size are checked on the event loop (well under a millisecond); larger
#: ones on a worker thread.
_CHECK_ON_LOOP_BYTES = 65_536
_DIGITS = re.compile(r"[0-9]+")
#: Declared lengths of more digits are read as this (int() refuses thousands of digits).
_HUGE_LENGTH = 10**18
#: Where a forbidden character can come from once the body has parsed as JSON: DEL written as
#: itself, or an escape that may decode to one (json.loads refuses every other control
#: character written as itself, in a string or between tokens). Substring tests: a megabyte
#: takes about a millisecond each with the GIL held, where one regular expression took 20.
_MAY_HOLD_CONTROL = (b"\x7f", b"\\u00", b"\\b", b"\\f")


class BodyTooLarge(Exception):
    pass


class BadBody(Exception):
    def __init__(self, loc: list[str | int], msg: str, kind: str) -> None:
        super().__init__(msg)
        self.loc = loc
        self.msg = msg
        self.kind = kind


def check_json_body(raw: bytes) -> None:
    """Raise BadBody naming the field when ``raw`` is not an acceptable JSON document.

    Linear in the body's size: the C parser reads it (it raises RecursionError at about a
    thousand levels, answered as too deep, never a crash), then one walk with a stack of its
    own measures the depth and, when the text may hold one, finds a forbidden character.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadBody(
            ["body"], f"the body is not UTF-8 (byte {exc.start})", "body_encoding"
        ) from exc
    try:
        document = json.loads(text)
    except RecursionError as exc:
        raise _too_deep() from exc
    except json.JSONDecodeError as exc:
        raise BadBody(
            ["body"], f"the body is not JSON: {exc.msg} at line {exc.lineno}", "json_invalid"
        ) from exc
    except ValueError as exc:  # a number of more digits than Python converts
        raise BadBody(["body"], f"the body is not acceptable JSON: {exc}", "json_invalid") from exc
    _walk(document, check_text=any(token in raw for token in _MAY_HOLD_CONTROL))


def _too_deep() -> BadBody:
    return BadBody(["body"], f"nested deeper than {MAX_DEPTH} levels", "json_depth")


def _children(value: Any) -> Iterator[tuple[str | int, Any]]:
    if isinstance(value, dict):
        return iter(value.items())
    if isinstance(value, list):
        return enumerate(value)
    return iter(())


def _walk(document: Any, check_text: bool) -> None:
    """Raise BadBody when ``document`` nests deeper than ``MAX_DEPTH`` or (``check_text``) a
    key or string holds a forbidden character, naming the first one found.

    A walk with a stack of its own: no recursion, whatever the depth.
    """
    if check_text and isinstance(document, str):
        _text(document, ["body"])
    path: list[str | int] = ["body"]
    stack = [_children(document)]
    while stack:
        for key, value in stack[-1]:
            if check_text and isinstance(key, str):
                _text(key, path, key)
            if check_text and isinstance(value, str):
                _text(value, path, key)
            elif isinstance(value, dict | list):
                if len(stack) >= MAX_DEPTH:
                    raise _too_deep()
                path.append(key)
                stack.append(_children(value))
                break
        else:
            stack.pop()
            path.pop()


def _text(value: str, path: list[str | int], key: str | int | None = None) -> None:
    found = FORBIDDEN_CONTROL.search(value)
    if found:
        code = f"U+{ord(found.group()):04X}"
        raise BadBody(
            path if key is None else [*path, key],
            f"control character {code} at position {found.start()}: only tab, newline and "
            "carriage return are allowed in text",
            "control_character",
        )


def content_type(headers: Headers) -> str | None:
    """The request's one Content-Type; BadBody when it has more than one."""
    values = headers.getlist("content-type")
    if len(values) > 1:
        raise BadBody(
            ["header", "content-type"],
            f"{len(values)} Content-Type headers: send one",
            "header_repeated",
        )
    return values[0] if values else None


def declared_length(headers: Headers) -> int | None:
    """The request's Content-Length, if it declares one (at most ``_HUGE_LENGTH``); BadBody
    unless every value (repeated headers, comma-separated lists) is the same number of bytes."""
    values = [v.strip() for header in headers.getlist("content-length") for v in header.split(",")]
    if not values:
        return None
    if not all(_DIGITS.fullmatch(v) for v in values):
        raise BadBody(
            ["header", "content-length"],
            "Content-Length is not a number of bytes",
            "header_invalid",
        )
    numbers = {v.lstrip("0") or "0" for v in values}
    if len(numbers) > 1:
        raise BadBody(
            ["header", "content-length"],
            f"the Content-Length values disagree: {', '.join(sorted(numbers))}",
            "header_invalid",
        )
    (number,) = numbers
    return int(number) if len(number) < len(str(_HUGE_LENGTH)) else _HUGE_LENGTH


def is_json(kind: str | None) -> bool:
    """Whether a body of Content-Type ``kind`` is checked as JSON: when FastAPI would parse it
    as JSON (``fastapi.routing``'s test, repeated here), and when there is no Content-Type
    (a route with ``strict_content_type=False`` parses that as JSON too)."""
    if not kind:
        return True
    message = email.message.Message()
    message["content-type"] = kind
    if message.get_content_maintype() != "application":
        return False
    subtype = message.get_content_subtype()
    return subtype == "json" or subtype.endswith("+json")


class RequestBodyGuard:
    """The checks of this module's docstring, on every HTTP request of ``app``.

    ``max_bytes`` limits a body; ``body_timeout_s`` is how long a body may take to arrive, from
    its first byte asked for to its last; the JSON checks apply to paths under ``prefix``.
    """

    def __init__(
        self, app: ASGIApp, max_bytes: int, prefix: str = "/api/", body_timeout_s: float = 30.0
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.prefix = prefix
        self.body_timeout_s = body_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        try:
            declared = declared_length(headers)
            kind = content_type(headers)
        except BadBody as exc:
            await _refuse(exc, close=True)(scope, receive, send)
            return
        if scope["method"] not in _WITH_BODY:
            await self.app(scope, receive, send)
            return
        if declared is not None and declared > self.max_bytes:
            await _too_large()(scope, receive, send)
            return
        refusal: JSONResponse | None = None
        body: bytes | None = None
        try:
            body = await self._read(receive)
        except BodyTooLarge:
            refusal = _too_large()
        except TimeoutError:
            refusal = JSONResponse(
                {"detail": "request body not received in time"}, status_code=408, headers=_CLOSE
            )
        # Answered after the except block: the traceback, and with it what was read, is gone.
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        if body is None:
            await self.app(scope, _replay({"type": "http.disconnect"}, receive), send)
            return
        if body and scope["path"].startswith(self.prefix) and is_json(kind):
            try:
                if len(body) > _CHECK_ON_LOOP_BYTES:
                    await anyio.to_thread.run_sync(check_json_body, body)
                else:
                    check_json_body(body)
            except BadBody as exc:
                await _refuse(exc)(scope, receive, send)
                return
        message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _replay(message, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        """The whole body; None if the client left before sending all of it. Raises
        BodyTooLarge past ``max_bytes`` and TimeoutError past ``body_timeout_s``."""
        chunks: list[bytes] = []
        size = 0
        with anyio.fail_after(self.body_timeout_s):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_bytes:
                    raise BodyTooLarge
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return b"".join(chunks)


def _replay(first: Message, receive: Receive) -> Receive:
    """``receive`` that answers ``first`` once, then what ``receive`` answers."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return first
        return await receive()

    return replay


def _refuse(exc: BadBody, close: bool = False) -> JSONResponse:
    detail = [{"loc": exc.loc, "msg": exc.msg, "type": exc.kind}]
    return JSONResponse({"detail": detail}, status_code=422, headers=_CLOSE if close else None)


def _too_large() -> JSONResponse:
    return JSONResponse({"detail": "request body too large"}, status_code=413, headers=_CLOSE)

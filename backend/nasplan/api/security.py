"""Security headers on every HTTP response: a pure ASGI middleware.

Every response gets a strict Content-Security-Policy (no inline script, nothing from another
origin), ``nosniff``, no referrer, no framing, no powerful browser features and a
same-origin opener policy.

Inline styles are allowed only by hash, never by ``'unsafe-inline'``: HTML responses (the
runbook print page, and the single-page app that opens that page from a ``blob:`` URL, which
inherits the app's policy) may apply the runbook template's one ``<style>`` block, named by its
SHA-256. A route may send its own policy; the middleware keeps it but always forbids framing.

Secrets are not cached: the answers that carry a new design's tokens (``POST /api/v1/designs``
and ``/api/v1/designs/import``) get ``Cache-Control: no-store``, and every answer under a
capability URL (``/api/v1/designs/{id}…``, whose id is the permission to read) gets
``private, no-store``, errors included. A route's own Cache-Control is kept when it already
says ``no-store``, and replaced otherwise.

Every 500 answer carries ``Connection: close``: after an unhandled error the server closes the
connection, and a proxy must not send another request on it.

The app's 500 handler runs in Starlette's ``ServerErrorMiddleware``, outside every user
middleware, so its response would go out without these headers. The middleware therefore
renders that handler's response itself when an exception escapes before the response started,
sends it with the headers, and re-raises so that the server, telemetry and test clients still
see the error. ``ServerErrorMiddleware`` then calls the handler again but sends nothing, as the
response has started; a handler that logs therefore logs such an error twice.
"""

from __future__ import annotations

import base64
import hashlib
import inspect
import re
from collections.abc import Collection, Iterable, Mapping
from functools import cache
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from nasplan.renderers.common import TEMPLATES

CSP = "Content-Security-Policy"

#: The policy of every response, in order. No source allows inline script or eval.
BASE_POLICY: tuple[tuple[str, str], ...] = (
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data:"),
    ("font-src", "'self'"),
    ("connect-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'self'"),
    ("frame-ancestors", "'none'"),
)

#: Set on every response unless the route set the header itself (X-Frame-Options is forced).
HEADERS: Mapping[str, str] = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": (
        "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
        "microphone=(), payment=(), usb=()"
    ),
    "Cross-Origin-Opener-Policy": "same-origin",
}

#: (method, path) of the answers that carry a new design's tokens: never stored.
TOKEN_ANSWERS: frozenset[tuple[str, str]] = frozenset(
    {("POST", "/api/v1/designs"), ("POST", "/api/v1/designs/import")}
)
#: Every path under this is a capability URL: private, never stored.
CAPABILITY_PREFIX = "/api/v1/designs/"
TOKEN_CACHE_CONTROL = "no-store"
CAPABILITY_CACHE_CONTROL = "private, no-store"

_STYLE_RE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.IGNORECASE | re.DOTALL)
_JINJA_RE = re.compile(r"\{[{%#]")


def hash_source(text: str) -> str:
    """The CSP hash source for an inline ``<style>``/``<script>`` whose content is ``text``."""
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


def inline_styles(html: str) -> list[str]:
    """The text of each ``<style>`` element in ``html``, exactly as a browser hashes it."""
    return _STYLE_RE.findall(html)


@cache
def runbook_style_hashes() -> tuple[str, ...]:
    """Hash sources of the runbook template's ``<style>`` blocks.

    The blocks must be plain CSS (no Jinja), so the rendered page carries them verbatim.
    """
    source = (TEMPLATES / "runbook.html.j2").read_text(encoding="utf-8")
    styles = inline_styles(source)
    if any(_JINJA_RE.search(style) for style in styles):
        raise ValueError(
            "runbook.html.j2: a <style> block has template syntax; it cannot be hashed"
        )
    return tuple(hash_source(style) for style in styles)


def content_security_policy(style_hashes: Iterable[str] = ()) -> str:
    """The base policy, with ``style_hashes`` (``'sha256-…'`` sources) added to style-src."""
    extra = " ".join(dict.fromkeys(style_hashes))
    return "; ".join(
        f"{name} {value} {extra}" if name == "style-src" and extra else f"{name} {value}"
        for name, value in BASE_POLICY
    )


def forbid_framing(policy: str) -> str:
    """``policy`` with its frame-ancestors directive, if any, replaced by ``'none'``."""
    directives = [
        d.strip()
        for d in policy.split(";")
        if d.strip() and d.split()[0].lower() != "frame-ancestors"
    ]
    return "; ".join([*directives, "frame-ancestors 'none'"])


class SecurityHeaders:
    """Add the security headers to every HTTP response of ``app``.

    ``csp`` is the policy of non-HTML responses; ``html_csp`` that of ``text/html`` ones
    (by default: the base policy plus the runbook's style hashes). ``token_answers`` (method,
    path) are not stored; paths under ``capability_prefix`` are private and not stored.
    """

    def __init__(
        self,
        app: ASGIApp,
        csp: str | None = None,
        html_csp: str | None = None,
        headers: Mapping[str, str] = HEADERS,
        token_answers: Collection[tuple[str, str]] = TOKEN_ANSWERS,
        capability_prefix: str = CAPABILITY_PREFIX,
    ) -> None:
        self.app = app
        self.csp = csp or content_security_policy()
        self.html_csp = html_csp or content_security_policy(runbook_style_hashes())
        self.headers = dict(headers)
        self.token_answers = frozenset(token_answers)
        self.capability_prefix = capability_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        cache_control = self.cache_control(scope["method"], scope["path"])

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                secured = self.secure(message.get("headers", []), message["status"], cache_control)
                message = {**message, "headers": secured}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as exc:
            response = None if started else await _error_response(scope, exc)
            if response is not None:
                await response(scope, receive, send_with_headers)
            raise

    def cache_control(self, method: str, path: str) -> str | None:
        """The Cache-Control the answer to ``method`` ``path`` must have, if any."""
        if (method, path) in self.token_answers:
            return TOKEN_CACHE_CONTROL
        if path.startswith(self.capability_prefix):
            return CAPABILITY_CACHE_CONTROL
        return None

    def secure(
        self,
        raw: Iterable[tuple[bytes, bytes]],
        status: int = 200,
        cache_control: str | None = None,
    ) -> list[tuple[bytes, bytes]]:
        """A copy of the raw response headers ``raw`` of a ``status`` answer with the security
        headers added, and ``cache_control`` unless the answer is already ``no-store``."""
        headers = MutableHeaders(raw=list(raw))
        if cache_control is not None and not _is_no_store(headers.get("cache-control", "")):
            headers["Cache-Control"] = cache_control
        if status == 500:
            headers["Connection"] = "close"
        policy = headers.get(CSP)
        if policy:
            headers[CSP] = forbid_framing(policy)
        elif headers.get("content-type", "").lower().startswith("text/html"):
            headers[CSP] = self.html_csp
        else:
            headers[CSP] = self.csp
        for name, value in self.headers.items():
            headers.setdefault(name, value)
        headers["X-Frame-Options"] = "DENY"
        return headers.raw


def _is_no_store(cache_control: str) -> bool:
    directives = (d.split("=", 1)[0].strip().lower() for d in cache_control.split(","))
    return "no-store" in directives


async def _error_response(scope: Scope, exc: Exception) -> Response | None:
    """The response the app's 500 handler gives for ``exc``; None in debug mode.

    In debug mode ``ServerErrorMiddleware`` renders its traceback page itself (without these
    headers: it is for development only).
    """
    app: Any = scope.get("app")
    if app is not None and getattr(app, "debug", False):
        return None
    handlers: Mapping[Any, Any] = getattr(app, "exception_handlers", {})
    handler = handlers.get(500) or handlers.get(Exception)
    if handler is None:
        return PlainTextResponse("Internal Server Error", status_code=500)
    if inspect.iscoroutinefunction(handler):
        response = await handler(Request(scope), exc)
    else:
        response = await run_in_threadpool(handler, Request(scope), exc)
    if not isinstance(response, Response):
        raise TypeError(f"the 500 handler returned {type(response).__name__}, not a Response")
    return response

"""Operations: a request id on every request, one JSON access line each, Prometheus metrics.

``ObservabilityMiddleware`` is a pure ASGI middleware and must be the outermost one, so that
what it measures and logs is what the client got (413, 429 and the 500 that ``SecurityHeaders``
renders included) and so that the request id is set for everything the request runs:

- The request id is the incoming ``X-Request-ID`` when it is 1 to 64 of ``A-Z a-z 0-9 . _ -``,
  else a new uuid4 hex. It is in a context variable (``current_request_id()``) for the request's
  logs and error answers, and it goes back in the response's ``X-Request-ID`` header.
- One line per request on the ``nasplan.access`` logger: method, route template, status and
  duration. ``JsonFormatter`` renders every record as one JSON object per line;
  ``configure_logging`` puts it on the root handler.
- Metrics go to a registry of the app's own (``app.state.metrics``), served at ``GET /metrics``.
  Labels name the route template (``/api/v1/designs/{design_id}``), never the raw path, and
  methods outside the HTTP standard set are counted as ``other``, so a client cannot make new
  time series at will.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import re
import time
import uuid
from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI
from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

API_PREFIX = "/api/v1"
REQUEST_ID_HEADER = "X-Request-ID"
METRICS_PATH = "/metrics"
#: The metrics' route label of a request that matched no route.
UNMATCHED = "<unmatched>"

_VALID_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_HEADER_KEY = REQUEST_ID_HEADER.lower().encode("latin-1")
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "nasplan_request_id", default=None
)

access_log = logging.getLogger("nasplan.access")


def current_request_id() -> str | None:
    """The id of the HTTP request being handled; None outside one."""
    return _request_id.get()


def accepted_request_id(value: str | None) -> str | None:
    """``value`` when it is a request id we can take as is, else None."""
    if value is not None and _VALID_ID.fullmatch(value):
        return value
    return None


def _incoming_request_id(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    for key, value in headers:
        if key.lower() == _HEADER_KEY:
            return accepted_request_id(value.decode("latin-1"))
    return None


def route_template(scope: Scope, root_path: str = "") -> str | None:
    """The template of the route the request matched (``/api/v1/designs/{design_id}``), read
    from ``scope`` after the app handled it; ``root_path`` is the scope's before that.

    FastAPI keeps the routes of an included router as they are, without the include's prefix
    (``scope["route"].path_format`` is ``/designs/{design_id}``), and records the full template
    in its effective route context; that is taken first. A request that a mount (``/assets``)
    answered has no route: its template is the mount's path and ``/{path}``.
    """
    fastapi_scope = scope.get("fastapi")
    if isinstance(fastapi_scope, dict):
        context = fastapi_scope.get("effective_route_context")
        template = getattr(context, "path_format", None)
        if isinstance(template, str) and template:
            return template
    route = scope.get("route")
    template = getattr(route, "path_format", None) or getattr(route, "path", None)
    if isinstance(template, str) and template:
        return template
    mount = scope.get("root_path", "")
    if isinstance(mount, str) and mount.startswith(root_path) and mount != root_path:
        return mount.removeprefix(root_path) + "/{path}"
    return None


# --- logs -----------------------------------------------------------------------------------

_RECORD_ATTRIBUTES = frozenset(
    logging.LogRecord("", logging.INFO, "", 0, "", (), None).__dict__
) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """Each record as one JSON object on one line: ts (ISO-8601 UTC), level, logger, message,
    request_id, the record's ``extra`` fields, and exc_info / stack_info as text when present."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or current_request_id(),
        }
        for key, value in record.__dict__.items():
            if key not in _RECORD_ATTRIBUTES and key not in payload:
                payload[key] = value
        if record.exc_info and record.exc_info[0] is not None:
            payload["exc_info"] = self.formatException(record.exc_info)
        elif record.exc_text:
            payload["exc_info"] = record.exc_text
        if record.stack_info:
            payload["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(payload, default=str)


def configure_logging(level: str = "INFO") -> None:
    """JSON lines on the root logger's handlers (a stderr one if it has none) at ``level``.

    Calling it again changes only the level."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
    for handler in root.handlers:
        if not isinstance(handler.formatter, JsonFormatter):
            handler.setFormatter(JsonFormatter())
    root.setLevel(level.upper())


# --- metrics --------------------------------------------------------------------------------


class Metrics:
    """The app's metrics, in a registry of their own (an app per test must not share them)."""

    def __init__(self, api_prefix: str = API_PREFIX) -> None:
        self.registry = CollectorRegistry()
        self.api_prefix = api_prefix
        self.requests = Counter(
            "nasplan_http_requests_total",
            "HTTP requests answered, by method, route template and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.duration = Histogram(
            "nasplan_http_request_duration_seconds",
            "Time to answer an HTTP request, by method and route template.",
            ["method", "route"],
            registry=self.registry,
        )
        self.errors = Counter(
            "nasplan_http_errors_total",
            "HTTP requests answered with a server error (status 500 and above).",
            ["route", "status"],
            registry=self.registry,
        )
        self.plans = Counter(
            "nasplan_plans_total",
            "Plans made (POST /plans and /plans/what-if answered 2xx).",
            registry=self.registry,
        )
        self.bundles = Counter(
            "nasplan_bundles_total",
            "Config bundles served (an unsaved plan's or a saved revision's).",
            registry=self.registry,
        )
        self.designs_created = Counter(
            "nasplan_designs_created_total",
            "Designs saved (POST /designs answered 2xx).",
            registry=self.registry,
        )

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.duration.labels(method, route).observe(seconds)
        if status >= 500:
            self.errors.labels(route, str(status)).inc()
        if 200 <= status < 300:
            domain = self.domain_counter(method, route)
            if domain is not None:
                domain.inc()

    def domain_counter(self, method: str, route: str) -> Counter | None:
        """The domain counter a successful ``method`` on ``route`` counts in, if any."""
        prefix = self.api_prefix
        if method == "POST" and route in (f"{prefix}/plans", f"{prefix}/plans/what-if"):
            return self.plans
        if method == "POST" and route == f"{prefix}/designs":
            return self.designs_created
        if route.startswith(prefix) and _is_bundle(method, route.removeprefix(prefix)):
            return self.bundles
        return None


def _is_bundle(method: str, route: str) -> bool:
    # GET /designs/{design_id}/revisions/{number}/bundle: a saved revision's bundle.
    # POST /plans/bundle: an unsaved plan's bundle (a POST because the platform is the body).
    if route.endswith(("/bundle", "/bundle.zip")):
        return method in ("GET", "POST")
    return method == "GET" and (route == "/bundles" or route.startswith("/bundles/"))


# --- the middleware and its installation ------------------------------------------------------


class ObservabilityMiddleware:
    """Request id, access line and metrics for every HTTP request of ``app``."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        root_path = scope.get("root_path", "")
        request_id = _incoming_request_id(scope.get("headers", ())) or uuid.uuid4().hex
        id_header = (_HEADER_KEY, request_id.encode("latin-1"))
        token = _request_id.set(request_id)
        # An exception that escapes before the response started is the server's 500.
        status = 500
        start = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), id_header]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - start
            self._record(scope, root_path, status, seconds, request_id)
            _request_id.reset(token)

    def _record(
        self, scope: Scope, root_path: str, status: int, seconds: float, request_id: str
    ) -> None:
        method = scope["method"] if scope["method"] in _METHODS else "other"
        template = route_template(scope, root_path)
        self.metrics.observe(method, template or UNMATCHED, status, seconds)
        if access_log.isEnabledFor(logging.INFO):
            route = template or scope.get("path", "")
            access_log.info(
                "%s %s %d",
                method,
                route,
                status,
                extra={
                    "request_id": request_id,
                    "method": method,
                    "route": route,
                    "status": status,
                    "duration_ms": round(seconds * 1000, 2),
                },
            )


def install_metrics_route(app: FastAPI, metrics: Metrics) -> None:
    """``GET /metrics``: the app's registry in the Prometheus text format (not in the schema).
    Register it before any catch-all route."""

    async def prometheus_metrics() -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_PLAIN_0_0_4)

    app.add_api_route(METRICS_PATH, prometheus_metrics, methods=["GET"], include_in_schema=False)


def install_observability(app: FastAPI, api_prefix: str = API_PREFIX) -> None:
    """Add the metrics route and the middleware to ``app``; the metrics are ``app.state.metrics``.

    Call it after every other ``add_middleware`` (the middleware must be the outermost) and
    before the single-page app's catch-all route is added.
    """
    metrics = Metrics(api_prefix)
    app.state.metrics = metrics
    install_metrics_route(app, metrics)
    app.add_middleware(ObservabilityMiddleware, metrics=metrics)

"""The interactive API docs (Swagger UI), served by the app itself: no CDN, no inline script.

The page at ``{prefix}/docs`` loads three files from ``{prefix}/docs/assets/``: Swagger UI's
bundle and stylesheet, which come from the pinned ``fastapi-offline`` package, and ``init.js``,
which starts Swagger UI on the app's OpenAPI document. The strict Content-Security-Policy of
``nasplan.api.security`` therefore holds on this page too. Create the app with
``docs_url=None`` so that FastAPI's CDN page does not take the path.

The OpenAPI document those docs show is completed here too: what every operation that takes a
body may answer besides its own responses (see ``document_body_errors``).
"""

from __future__ import annotations

import html
import json
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import (
    validation_error_definition,
    validation_error_response_definition,
)
from fastapi.responses import FileResponse, HTMLResponse, Response

#: Where the Swagger UI release files are: fastapi-offline ships them as package data.
SWAGGER_UI_DIR = Path(str(files("fastapi_offline") / "static"))

_FILES = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
}
# Revalidate on every load: the names carry no version, the ETag does.
_CACHE = {"Cache-Control": "no-cache"}


def install_docs(app: FastAPI, prefix: str = "/api/v1") -> None:
    """Serve Swagger UI at ``{prefix}/docs`` and its files under ``{prefix}/docs/assets``.

    Call it before any catch-all route (the single-page app's) is added, so these match first.
    None of the routes is in the OpenAPI schema.
    """
    if app.openapi_url is None:
        raise ValueError("the API docs need the app's openapi_url")
    document_body_errors(app)
    missing = [name for name in _FILES if not (SWAGGER_UI_DIR / name).is_file()]
    if missing:
        raise RuntimeError(f"Swagger UI files missing from {SWAGGER_UI_DIR}: {missing}")

    assets = f"{prefix}/docs/assets"
    page = _page(app.title, assets)
    init_js = _init_js(app.openapi_url)

    def docs_page() -> HTMLResponse:
        return HTMLResponse(page, headers=_CACHE)

    def docs_init() -> Response:
        return Response(init_js, media_type="text/javascript; charset=utf-8", headers=_CACHE)

    def docs_bundle() -> FileResponse:
        return _asset("swagger-ui-bundle.js")

    def docs_css() -> FileResponse:
        return _asset("swagger-ui.css")

    # Plain routes on the app (not an included router), each with its own path.
    for path, endpoint in (
        (f"{prefix}/docs", docs_page),
        (f"{assets}/init.js", docs_init),
        (f"{assets}/swagger-ui-bundle.js", docs_bundle),
        (f"{assets}/swagger-ui.css", docs_css),
    ):
        app.add_api_route(path, endpoint, methods=["GET"], include_in_schema=False)


BODY_TOO_LARGE = (
    "The body is larger than the server's limit (`NASPLAN_MAX_BODY_BYTES`); it was not read."
)
BAD_INPUT = "Bad input; `detail` names the field of each problem (`loc`)."
_MESSAGE: dict[str, Any] = {
    "title": "Message",
    "type": "object",
    "properties": {"detail": {"type": "string", "title": "Detail"}},
    "required": ["detail"],
}


def document_body_errors(app: FastAPI) -> None:
    """Document on every operation that takes a body what the request guard
    (``nasplan.api.limits``) and the models may answer before the route runs: 413, the body is
    too large; 422, it is not UTF-8 JSON, nests too deep, holds a control character or does not
    fit the model, with `detail` naming the field. A route's own description of either stays."""
    build = app.openapi
    completed = False

    def openapi() -> dict[str, Any]:
        nonlocal completed
        schema = build()
        if not completed:
            _add_body_errors(schema)
            completed = True
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _add_body_errors(schema: dict[str, Any]) -> None:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("ValidationError", validation_error_definition)
    components.setdefault("HTTPValidationError", validation_error_response_definition)
    components.setdefault("Message", _MESSAGE)
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            responses = operation.setdefault("responses", {})
            _complete(responses, "413", BODY_TOO_LARGE, "Message")
            _complete(responses, "422", BAD_INPUT, "HTTPValidationError")


def _complete(responses: dict[str, Any], status: str, description: str, model: str) -> None:
    response = responses.setdefault(status, {"description": description})
    response.setdefault("description", description)
    response.setdefault(
        "content",
        {"application/json": {"schema": {"$ref": f"#/components/schemas/{model}"}}},
    )


def _asset(name: str) -> FileResponse:
    return FileResponse(SWAGGER_UI_DIR / name, media_type=_FILES[name], headers=_CACHE)


def _page(title: str, assets: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} API docs</title>
<link rel="stylesheet" href="{html.escape(assets)}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{html.escape(assets)}/swagger-ui-bundle.js"></script>
<script src="{html.escape(assets)}/init.js"></script>
</body>
</html>
"""


def _init_js(openapi_url: str) -> str:
    # FastAPI's default Swagger UI parameters; no validator badge (it would call another site).
    return f""""use strict";
window.ui = SwaggerUIBundle({{
  url: {json.dumps(openapi_url)},
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
}});
"""

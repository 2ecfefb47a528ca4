"""Unknown paths under /api answer JSON 404, and known paths asked with the wrong method 405
with ``Allow`` — never the web page's catch-all."""

from __future__ import annotations

import re
from functools import cache

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

_ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
_PARAMETER = re.compile(r"\{[^}/]+\}")


def install_api_fallback(app: FastAPI, prefix: str) -> None:
    """Call after every API route is registered and before the web page's catch-all. The
    methods a path allows are read from the OpenAPI schema, which lists every API operation."""

    @cache
    def operations() -> list[tuple[re.Pattern[str], frozenset[str]]]:
        table = []
        for template, item in app.openapi()["paths"].items():
            pattern = re.compile(
                _PARAMETER.sub("[^/]+", re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
            )
            methods = {m.upper() for m in item if m.upper() in _ALL_METHODS}
            table.append((pattern, frozenset(methods)))
        return table

    async def fallback(request: Request) -> Response:
        path = request.url.path
        allowed = set().union(*(m for p, m in operations() if p.fullmatch(path)))
        if allowed:
            return JSONResponse(
                status_code=405,
                content={"detail": f"method {request.method} is not allowed on {path}"},
                headers={"Allow": ", ".join(sorted(allowed))},
            )
        return JSONResponse(status_code=404, content={"detail": "not found"})

    app.add_api_route(
        f"{prefix}/{{rest:path}}", fallback, methods=_ALL_METHODS, include_in_schema=False
    )

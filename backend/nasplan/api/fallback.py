"""Unknown paths under /api answer JSON 404, known paths asked with the wrong method 405 with
``Allow``, and OPTIONS on a known path 204 with ``Allow`` — never the web page's catch-all."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.routing import Match, Route
from starlette.types import Scope

_ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
_PARAMETER = re.compile(r"\{[^}/]+\}")


class _LiteralPathRoute(Route):
    """Ahead of every other route: a method a literal path does not have, on that path.

    Routes match in the order they were added, so GET /designs/import would otherwise reach
    GET /designs/{design_id} and answer "no design 'import'" where the method is not allowed.
    """

    def __init__(
        self,
        path: str,
        endpoint: Callable[[Request], object],
        prefix: str,
        literal_paths: Callable[[], Mapping[str, frozenset[str]]],
    ) -> None:
        super().__init__(path, endpoint, include_in_schema=False)
        self._prefix = prefix
        self._literal_paths = literal_paths

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http" or not scope["path"].startswith(self._prefix):
            return Match.NONE, {}
        methods = self._literal_paths().get(scope["path"])
        if methods is None or scope["method"] in methods:
            return Match.NONE, {}
        return super().matches(scope)


def install_api_fallback(app: FastAPI, prefix: str) -> None:
    """Call after every API route is registered and before the web page's catch-all. The
    methods a path allows are read from the OpenAPI schema, which lists every API operation."""

    @cache
    def operations() -> list[tuple[str, re.Pattern[str], frozenset[str]]]:
        table = []
        for template, item in app.openapi()["paths"].items():
            pattern = re.compile(
                _PARAMETER.sub("[^/]+", re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
            )
            methods = {m.upper() for m in item if m.upper() in _ALL_METHODS}
            table.append((template, pattern, frozenset(methods)))
        return table

    @cache
    def literal_paths() -> dict[str, frozenset[str]]:
        return {t: m | {"OPTIONS"} for t, _, m in operations() if not _PARAMETER.search(t)}

    def allowed_methods(path: str) -> frozenset[str]:
        # The templates with the fewest parameters: a literal segment wins over a parameter, so
        # /designs/import is POST /designs/import, not also GET /designs/{design_id}.
        found = [(t.count("{"), m) for t, p, m in operations() if p.fullmatch(path)]
        if not found:
            return frozenset()
        fewest = min(count for count, _ in found)
        return frozenset({"OPTIONS"}).union(*(m for count, m in found if count == fewest))

    async def fallback(request: Request) -> Response:
        path = request.url.path
        allowed = allowed_methods(path)
        if not allowed:
            return JSONResponse(status_code=404, content={"detail": "not found"})
        headers = {"Allow": ", ".join(sorted(allowed))}
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=headers)
        return JSONResponse(
            status_code=405,
            content={"detail": f"method {request.method} is not allowed on {path}"},
            headers=headers,
        )

    path = f"{prefix}/{{rest:path}}"
    app.router.routes.insert(0, _LiteralPathRoute(path, fallback, f"{prefix}/", literal_paths))
    app.add_api_route(path, fallback, methods=_ALL_METHODS, include_in_schema=False)

"""Security headers on every kind of response, and the self-hosted API docs page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.responses import PlainTextResponse
from starlette.types import Receive, Scope, Send

from nasplan.api.security import (
    HEADERS,
    SecurityHeaders,
    content_security_policy,
    forbid_framing,
    hash_source,
    inline_styles,
    runbook_style_hashes,
)
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings

STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
MAX_BODY = 4096


@pytest.fixture(scope="module")
def app(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    """The real app, with a small built front end of its own and a route that fails."""
    root = tmp_path_factory.mktemp("security")
    dist = root / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text(
        '<!doctype html><html><head><script type="module" src="/assets/app.js"></script>'
        '</head><body><div id="root"></div></body></html>'
    )
    (dist / "assets" / "app.js").write_text("console.log('nasplan');\n")
    settings = Settings(
        DATABASE_URL=f"sqlite:///{root / 'nasplan.db'}",
        NASPLAN_FRONTEND_DIST=dist,
        NASPLAN_MAX_BODY_BYTES=MAX_BODY,
        NASPLAN_PUBLIC_URL="https://nasplan.example.com",
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


def assert_secure(response: httpx.Response, csp: str | None = STRICT_CSP) -> None:
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, name
    policy = response.headers["content-security-policy"]
    if csp is not None:
        assert policy == csp
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def runbook_csp() -> str:
    return content_security_policy(runbook_style_hashes())


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/api/v1/health", None, 200),
        ("POST", "/api/v1/plans", EXAMPLE_PLATFORM, 200),
        ("GET", "/api/v1/openapi.json", None, 200),
        ("GET", "/api/v1/no-such-thing", None, 404),
        ("DELETE", "/api/v1/health", None, 405),
        ("POST", "/api/v1/plans", {}, 422),
        ("POST", "/api/v1/plans", {"pad": "x" * MAX_BODY}, 413),
        ("GET", "/api/v1/_boom", None, 500),
        ("GET", "/assets/app.js", None, 200),
        ("GET", "/assets/missing.js", None, 404),
        ("GET", "/api/v1/docs/assets/init.js", None, 200),
        ("GET", "/api/v1/docs/assets/swagger-ui-bundle.js", None, 200),
        ("GET", "/api/v1/docs/assets/swagger-ui.css", None, 200),
        ("POST", "/api/v1/plans/runbook?format=md", EXAMPLE_PLATFORM, 200),
        ("POST", "/api/v1/plans/bundle", EXAMPLE_PLATFORM, 200),
    ],
)
def test_every_response_is_secured(
    client: TestClient, method: str, path: str, body: object, status: int
) -> None:
    response = client.request(method, path, json=body)
    assert response.status_code == status
    assert_secure(response)


def test_server_error_keeps_the_apps_body(client: TestClient) -> None:
    response = client.get("/api/v1/_boom")
    assert response.status_code == 500
    assert response.json() == {
        "detail": "internal error; it has been logged",
        "request_id": response.headers["x-request-id"],
    }


def test_server_error_still_reaches_the_server(app: FastAPI) -> None:
    with TestClient(app) as raising, pytest.raises(RuntimeError, match="boom"):
        raising.get("/api/v1/_boom")


@pytest.mark.parametrize("path", ["/", "/designs/abc", "/index.html", "/api/v1/docs"])
def test_html_pages_may_apply_only_the_runbook_style(client: TestClient, path: str) -> None:
    # The app opens the runbook print view from a blob: URL, which inherits the app's policy.
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert_secure(response, csp=runbook_csp())


def test_zip_download_is_secured(client: TestClient) -> None:
    response = client.post("/api/v1/plans/bundle", json=EXAMPLE_PLATFORM)
    assert response.headers["content-type"] == "application/zip"
    assert response.content.startswith(b"PK")


def _style_hashes(policy: str) -> list[str]:
    style_src = next(d for d in policy.split(";") if d.split()[0] == "style-src").split()[1:]
    assert style_src[0] == "'self'"
    assert all(source.startswith("'sha256-") for source in style_src[1:])
    return style_src[1:]


def _assert_runbook_page(response: httpx.Response) -> None:
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert_secure(response, csp=runbook_csp())
    styles = inline_styles(response.text)
    assert styles, "the runbook page has its own stylesheet"
    assert _style_hashes(response.headers["content-security-policy"]) == [
        hash_source(style) for style in styles
    ]
    assert "<script" not in response.text.lower()
    assert not re.search(r"\sstyle\s*=", response.text, re.IGNORECASE)  # no style attributes


def test_plan_runbook_html_allows_its_style_by_hash(client: TestClient) -> None:
    _assert_runbook_page(client.post("/api/v1/plans/runbook?format=html", json=EXAMPLE_PLATFORM))


def test_revision_runbook_html_allows_its_style_by_hash(client: TestClient) -> None:
    created = client.post("/api/v1/designs", json={"name": "CSP", "platform": EXAMPLE_PLATFORM})
    assert created.status_code == 201
    assert_secure(created)
    design_id = created.json()["id"]
    _assert_runbook_page(
        client.get(f"/api/v1/designs/{design_id}/revisions/1/runbook", params={"format": "html"})
    )


def test_docs_page_loads_only_its_own_files(client: TestClient) -> None:
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    page = response.text
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script\s*>", page, re.IGNORECASE | re.DOTALL)
    assert scripts, "the page loads Swagger UI"
    assert all(not body.strip() for _, body in scripts), "no inline script"
    assert not re.search(r"\son[a-z]+\s*=", page, re.IGNORECASE), "no inline event handler"
    assert inline_styles(page) == [] and not re.search(r"\sstyle\s*=", page, re.IGNORECASE)
    assert "http://" not in page and "https://" not in page
    sources = re.findall(r'\s(?:src|href)="([^"]+)"', page)
    assert sorted(sources) == [
        "/api/v1/docs/assets/init.js",
        "/api/v1/docs/assets/swagger-ui-bundle.js",
        "/api/v1/docs/assets/swagger-ui.css",
    ]


@pytest.mark.parametrize(
    ("name", "content_type", "marker"),
    [
        ("swagger-ui-bundle.js", "text/javascript", b"SwaggerUIBundle"),
        ("swagger-ui.css", "text/css", b".swagger-ui"),
        ("init.js", "text/javascript", b'url: "/api/v1/openapi.json"'),
    ],
)
def test_docs_assets(client: TestClient, name: str, content_type: str, marker: bytes) -> None:
    response = client.get(f"/api/v1/docs/assets/{name}")
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] == content_type
    assert marker in response.content
    assert_secure(response)


def test_docs_are_not_in_the_schema_and_fastapis_page_is_gone(client: TestClient) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert not [p for p in paths if "docs" in p]
    assert client.get("/api/v1/docs/assets/swagger-ui.css.map").status_code == 404
    assert client.get("/api/v1/docs/oauth2-redirect").status_code == 404
    assert client.get("/docs").headers["content-type"].startswith("text/html")  # the SPA's page


def test_runbook_style_hash_is_of_the_template_text() -> None:
    template = Path(__file__).parents[2] / "nasplan/renderers/templates/runbook.html.j2"
    styles = inline_styles(template.read_text(encoding="utf-8"))
    assert len(styles) == 1
    assert runbook_style_hashes() == (hash_source(styles[0]),)
    assert hash_source("") == "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"


# ------------------------------------------------------------------ the middleware alone
async def _route_policy(scope: Scope, receive: Receive, send: Send) -> None:
    headers = {
        "Content-Security-Policy": "default-src 'none'; frame-ancestors https://example.org",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "SAMEORIGIN",
    }
    await PlainTextResponse("ok", headers=headers)(scope, receive, send)


def test_a_routes_own_policy_is_kept_but_never_framable() -> None:
    response = TestClient(SecurityHeaders(_route_policy)).get("/")
    assert response.headers["content-security-policy"] == (
        "default-src 'none'; frame-ancestors 'none'"
    )
    assert response.headers["referrer-policy"] == "same-origin"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_forbid_framing_adds_the_directive() -> None:
    assert forbid_framing("default-src 'self';") == "default-src 'self'; frame-ancestors 'none'"
    assert forbid_framing(STRICT_CSP) == STRICT_CSP
    assert content_security_policy() == STRICT_CSP

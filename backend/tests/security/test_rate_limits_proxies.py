"""Rate limits per client address: forwarded headers cannot fake the address, and the
expensive endpoints (plans, audits, rendered bundles and runbooks) have a limit of their own."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from fastapi.testclient import TestClient

from nasplan import main
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app, server_options
from nasplan.settings import Settings
from tests.security.test_server_timeouts import running_server, server_settings

DESIGN = {"name": "spoof", "platform": EXAMPLE_PLATFORM}
FSTAB = "filer01:/vol/prod_data /u02/oradata/PROD nfs rw,bg,hard,vers=3,proto=tcp 0 0\n"


def _spoofed(address: str) -> dict[str, str]:
    return {
        "X-Forwarded-For": address,
        "X-Real-IP": address,
        "Forwarded": f"for={address}",
    }


# ------------------------------------------------------------------ forwarded headers
def test_spoofed_forwarded_headers_do_not_escape_the_write_limit(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    """No proxy configured: a client on the server's own host (uvicorn's default trusted
    address) sending a new X-Forwarded-For each time is still one client."""
    settings = server_settings(tmp_path, NASPLAN_RATE_LIMIT_WRITES="3/minute")
    with (
        running_server(create_app(settings, kb=kb), settings) as running,
        httpx2.Client(base_url=running.base, timeout=30) as client,
    ):
        statuses = [
            client.post("/api/v1/designs", json=DESIGN, headers=_spoofed(f"203.0.113.{i}"))
            for i in range(1, 7)
        ]
    assert [s.status_code for s in statuses] == [201, 201, 201, 429, 429, 429]
    assert 1 <= int(statuses[-1].headers["retry-after"]) <= 60


def test_forwarded_headers_are_honoured_from_a_configured_proxy(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    """With the proxy's address in NASPLAN_TRUSTED_PROXIES each forwarded client counts alone."""
    settings = server_settings(
        tmp_path, NASPLAN_RATE_LIMIT_WRITES="2/minute", NASPLAN_TRUSTED_PROXIES="127.0.0.1"
    )
    with (
        running_server(create_app(settings, kb=kb), settings) as running,
        httpx2.Client(base_url=running.base, timeout=30) as client,
    ):

        def write(address: str) -> int:
            headers = {"X-Forwarded-For": address}
            return client.post("/api/v1/designs", json=DESIGN, headers=headers).status_code

        assert [write("198.51.100.1") for _ in range(3)] == [201, 201, 429]
        assert [write("198.51.100.2") for _ in range(2)] == [201, 201]


@pytest.mark.parametrize(
    ("trusted", "proxy_headers"),
    [("", False), ("10.0.0.5", True), ("10.0.0.5, 10.1.0.0/16", True)],
)
def test_forwarded_headers_are_trusted_only_from_configured_proxies(
    tmp_path: Path, trusted: str, proxy_headers: bool
) -> None:
    options = server_options(server_settings(tmp_path, NASPLAN_TRUSTED_PROXIES=trusted))
    assert options["proxy_headers"] is proxy_headers
    assert options["forwarded_allow_ips"] == trusted.replace(" ", "")


def test_no_forwarded_header_is_believed_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("NASPLAN_TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(DATABASE_URL=f"sqlite:///{tmp_path / 'nasplan.db'}")
    config = uvicorn.Config(
        "nasplan.main:create_worker_app", factory=True, **server_options(settings)
    )
    assert config.proxy_headers is False


def test_uvicorns_forwarded_allow_ips_is_read_when_ours_is_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sites that followed uvicorn's documentation (and docker-compose.yml) keep working."""
    monkeypatch.delenv("NASPLAN_TRUSTED_PROXIES", raising=False)
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.5")
    settings = Settings(DATABASE_URL=f"sqlite:///{tmp_path / 'nasplan.db'}")
    assert server_options(settings)["forwarded_allow_ips"] == "10.0.0.5"
    monkeypatch.setenv("NASPLAN_TRUSTED_PROXIES", "10.0.0.6")
    settings = Settings(DATABASE_URL=f"sqlite:///{tmp_path / 'nasplan.db'}")
    assert server_options(settings)["forwarded_allow_ips"] == "10.0.0.6"


def test_an_invalid_trusted_proxy_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="NASPLAN_TRUSTED_PROXIES"):
        server_settings(tmp_path, NASPLAN_TRUSTED_PROXIES="10.0.0.5, proxy.example.com")


@pytest.mark.parametrize("workers", [1, 3])
def test_serve_passes_the_server_options_to_uvicorn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """``nasplan serve``, one process or several, runs uvicorn with ``server_options``."""
    settings = server_settings(
        tmp_path, NASPLAN_MIGRATE_ON_START="false", NASPLAN_TRUSTED_PROXIES="10.0.0.5"
    )
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(main, "get_settings", lambda: settings)
    monkeypatch.setattr(main, "configure_logging", lambda level: None)
    monkeypatch.setattr(main, "create_app", lambda settings: object())
    monkeypatch.setattr(gc, "freeze", lambda: None)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    main.run(workers=workers)
    [options] = calls
    expected = server_options(settings)
    assert options["proxy_headers"] is True and options["forwarded_allow_ips"] == "10.0.0.5"
    for key in ("limit_concurrency", "h11_max_incomplete_event_size", "host", "port"):
        assert options[key] == expected[key]
    assert options["http"].keywords == expected["http"].keywords
    assert options.get("workers", 1) == workers


# ------------------------------------------------------------------ expensive endpoints
Request = Callable[[TestClient], Any]


def _design_audit(client: TestClient) -> Any:
    created = client.post("/api/v1/designs", json=DESIGN).json()
    return client.post(
        f"/api/v1/designs/{created['id']}/audits",
        json={"revision": 1, "files": {"fstab": FSTAB}},
        headers={"X-Edit-Token": created["edit_token"]},
    )


FAMILIES: dict[str, Request] = {
    "plan": lambda c: c.post("/api/v1/plans", json=EXAMPLE_PLATFORM),
    "compare": lambda c: c.post(
        "/api/v1/plans/compare", json={"platform": EXAMPLE_PLATFORM, "from_as_of": "2005-06-01"}
    ),
    "what-if": lambda c: c.post(
        "/api/v1/plans/what-if",
        json={
            "base": EXAMPLE_PLATFORM,
            "variants": [{"label": "dNFS", "patch": {"oracle": {"dnfs": True}}}],
        },
    ),
    "bundle": lambda c: c.post("/api/v1/plans/bundle", json=EXAMPLE_PLATFORM),
    "runbook": lambda c: c.post("/api/v1/plans/runbook?format=html", json=EXAMPLE_PLATFORM),
    "audit": lambda c: c.post(
        "/api/v1/audits", json={"platform": EXAMPLE_PLATFORM, "files": {"fstab": FSTAB}}
    ),
    "design audit": _design_audit,
}


@pytest.fixture()
def limited(kb: KnowledgeBase, tmp_path: Path) -> Iterator[TestClient]:
    """An app allowing two expensive requests a minute per client (and any number of writes).
    What the routes answer is not the point here: server errors are answers, not exceptions."""
    settings = server_settings(
        tmp_path, NASPLAN_RATE_LIMIT_COMPUTE="2/minute", NASPLAN_RATE_LIMIT_WRITES=""
    )
    with TestClient(create_app(settings, kb=kb), raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize("family", FAMILIES)
def test_expensive_endpoints_are_rate_limited(limited: TestClient, family: str) -> None:
    answers = [FAMILIES[family](limited) for _ in range(3)]
    assert all(a.status_code != 429 for a in answers[:2])
    refused = answers[2]
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert refused.headers["content-type"] == "application/json"
    detail = refused.json()["detail"]
    assert "plans, audits and bundles" in detail and "2 per 1 minute" in detail


def test_the_expensive_endpoints_share_one_count(limited: TestClient) -> None:
    assert FAMILIES["plan"](limited).status_code == 200
    assert FAMILIES["bundle"](limited).status_code == 200
    assert FAMILIES["audit"](limited).status_code == 429


def test_the_limit_is_per_client(limited: TestClient) -> None:
    for _ in range(3):
        FAMILIES["plan"](limited)
    assert FAMILIES["plan"](limited).status_code == 429
    other = TestClient(limited.app, client=("192.0.2.7", 50000))
    assert FAMILIES["plan"](other).status_code == 200


def test_reads_and_health_are_not_limited(limited: TestClient) -> None:
    created = limited.post("/api/v1/designs", json=DESIGN).json()
    for _ in range(3):
        FAMILIES["plan"](limited)
    assert FAMILIES["plan"](limited).status_code == 429
    design = f"/api/v1/designs/{created['id']}"
    paths = [
        "/api/v1/health",
        "/api/v1/catalog",
        "/api/v1/knowledge",
        design,
        f"{design}/audits",
        f"{design}/revisions/1/bundle",
        "/",
        "/d/" + created["id"],
    ]
    for path in paths:
        for _ in range(4):
            answer = limited.get(path)
            assert answer.status_code != 429, path
            assert answer.status_code < 500, path
    # Not expensive, not a write: a HEAD of the page, and a POST to an unknown API path.
    assert limited.head("/").status_code != 429
    assert limited.post("/api/v1/nothing/here", json={}).status_code == 404


def test_writes_keep_their_own_limit(kb: KnowledgeBase, tmp_path: Path) -> None:
    settings = server_settings(
        tmp_path, NASPLAN_RATE_LIMIT_COMPUTE="100/minute", NASPLAN_RATE_LIMIT_WRITES="1/minute"
    )
    with TestClient(create_app(settings, kb=kb)) as client:
        assert client.post("/api/v1/designs", json=DESIGN).status_code == 201
        refused = client.post("/api/v1/designs", json=DESIGN)
        assert refused.status_code == 429 and "writes" in refused.json()["detail"]
        assert FAMILIES["plan"](client).status_code == 200


def test_an_empty_compute_limit_switches_it_off(kb: KnowledgeBase, tmp_path: Path) -> None:
    settings = server_settings(tmp_path, NASPLAN_RATE_LIMIT_COMPUTE="")
    with TestClient(create_app(settings, kb=kb)) as client:
        assert all(FAMILIES["plan"](client).status_code == 200 for _ in range(5))


def test_the_default_compute_limit_is_above_the_write_limit() -> None:
    fields = Settings.model_fields
    assert fields["rate_limit_compute"].default == "120/minute;3000/hour"
    assert fields["rate_limit_writes"].default == "60/minute;600/hour"

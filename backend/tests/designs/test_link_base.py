"""The permalink base of a revision's files is fixed when the revision is saved: the configured
public URL, else the Host the save came to when it is on the allow-list, else none. Nobody who
downloads or approves the revision later changes its files, whatever Host they send."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import select

from nasplan.data.models import RevisionRow
from nasplan.designs.files import allowed_hosts, link_base
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings


@contextmanager
def _client(
    kb: KnowledgeBase, settings: Settings, base_url: str = "http://testserver", **changes: Any
) -> Iterator[TestClient]:
    configured = settings.model_copy(update=changes)
    with TestClient(create_app(configured, kb=kb), base_url=base_url) as client:
        yield client


def _save(c: TestClient, host: str | None = None) -> dict[str, Any]:
    headers = {"Host": host} if host else {}
    created = c.post(
        "/api/v1/designs", json={"name": "link", "platform": EXAMPLE_PLATFORM}, headers=headers
    )
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return body


def _files(content: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {
            name.split("/", 1)[1]: archive.read(name).decode()
            for name in archive.namelist()
            if not name.endswith("/")
        }


def _stored_base(c: TestClient, design_id: str) -> str | None:
    with c.app.state.session_factory() as session:  # type: ignore[attr-defined]
        row: RevisionRow = session.scalars(
            select(RevisionRow).where(RevisionRow.design_id == design_id)
        ).one()
        return row.link_base


def _bundle(c: TestClient, design_id: str, host: str) -> tuple[bytes, str]:
    response = c.get(f"/api/v1/designs/{design_id}/revisions/1/bundle", headers={"Host": host})
    assert response.status_code == 200, response.text
    return response.content, response.headers["X-Bundle-SHA256"]


def test_downloads_with_different_hosts_give_the_same_bytes(
    kb: KnowledgeBase, app_settings: Settings
) -> None:
    with _client(kb, app_settings) as c:
        # Not a plain host name: nothing was ever stored for it.
        design = _save(c, host="odd_host.example")
        first, first_digest = _bundle(c, design["id"], "one.example")
        second, second_digest = _bundle(c, design["id"], "two.example:8080")
        assert first == second and first_digest == second_digest
        runbooks = {
            c.get(
                f"/api/v1/designs/{design['id']}/revisions/1/runbook", headers={"Host": host}
            ).text
            for host in ("one.example", "two.example:8080")
        }
        assert len(runbooks) == 1
        text = "".join(_files(first).values())
        assert not any(h in text for h in ("one.example", "two.example", "odd_host"))


def test_a_host_off_the_allow_list_stores_no_link_base(
    kb: KnowledgeBase, app_settings: Settings
) -> None:
    with _client(kb, app_settings) as c:
        design = _save(c, host="evil.example")
        assert _stored_base(c, design["id"]) is None
        for text in _files(_bundle(c, design["id"], "evil.example")[0]).values():
            assert f"/d/{design['id']}/r/1" not in text
            assert "evil.example" not in text
        runbook = c.get(f"/api/v1/designs/{design['id']}/revisions/1/runbook").text
        assert f"/d/{design['id']}/r/1" not in runbook


def test_an_allowed_host_is_the_link_base(kb: KnowledgeBase, app_settings: Settings) -> None:
    with _client(
        kb,
        app_settings,
        base_url="https://plans.example:8443",
        allowed_hosts="127.0.0.1:8000, Plans.Example:8443",
    ) as c:
        design = _save(c)
        assert _stored_base(c, design["id"]) == "https://plans.example:8443"
        readme = _files(_bundle(c, design["id"], "other.example")[0])["README.md"]
        assert f"https://plans.example:8443/d/{design['id']}/r/1" in readme
        # The same name on another port is another host.
        other = _save(c, host="plans.example:9000")
        assert _stored_base(c, other["id"]) is None


def test_the_configured_public_url_wins(kb: KnowledgeBase, app_settings: Settings) -> None:
    with _client(
        kb,
        app_settings,
        base_url="http://plans.example",
        public_url="https://nasplan.corp/",
        allowed_hosts="plans.example",
    ) as c:
        design = _save(c)
        assert _stored_base(c, design["id"]) == "https://nasplan.corp"
        unlisted = _save(c, host="evil.example")
        assert _stored_base(c, unlisted["id"]) == "https://nasplan.corp"
        readme = _files(_bundle(c, unlisted["id"], "evil.example")[0])["README.md"]
        assert f"https://nasplan.corp/d/{unlisted['id']}/r/1" in readme


def test_an_approval_records_the_digest_every_downloader_saw(
    kb: KnowledgeBase, app_settings: Settings
) -> None:
    with _client(kb, app_settings) as c:
        design = _save(c, host="unlisted_host")
        _, digest = _bundle(c, design["id"], "reader.example")
        approved = c.post(
            f"/api/v1/designs/{design['id']}/reviews",
            json={"revision": 1, "reviewer": "Ann", "decision": "approve", "bundle_sha256": digest},
            headers={"X-Review-Token": design["review_token"], "Host": "reviewer.example"},
        )
        assert approved.status_code == 201, approved.text
        assert approved.json()["bundle_sha256"] == digest
        assert _bundle(c, design["id"], "late.example")[1] == digest


def test_revisions_and_imports_fix_their_link_base_the_same_way(
    kb: KnowledgeBase, app_settings: Settings
) -> None:
    with _client(kb, app_settings, allowed_hosts="plans.example") as c:
        design = _save(c, host="plans.example")
        revised = c.post(
            f"/api/v1/designs/{design['id']}/revisions",
            json={"platform": EXAMPLE_PLATFORM, "base_revision": 1},
            headers={"X-Edit-Token": design["edit_token"], "Host": "evil.example"},
        )
        assert revised.status_code == 201, revised.text
        with c.app.state.session_factory() as session:  # type: ignore[attr-defined]
            bases = session.scalars(
                select(RevisionRow.link_base)
                .where(RevisionRow.design_id == design["id"])
                .order_by(RevisionRow.number)
            ).all()
        assert bases == ["http://plans.example", None]
        document = c.get(f"/api/v1/designs/{design['id']}/export").json()
        imported = c.post("/api/v1/designs/import", json=document, headers={"Host": "evil.example"})
        assert imported.status_code == 201, imported.text
        with c.app.state.session_factory() as session:  # type: ignore[attr-defined]
            copies = session.scalars(
                select(RevisionRow.link_base).where(RevisionRow.design_id == imported.json()["id"])
            ).all()
        assert copies and all(base is None for base in copies)


def test_link_base_rules() -> None:
    listed = allowed_hosts("127.0.0.1:8000, LocalHost:8000,,")
    assert listed == frozenset({"127.0.0.1:8000", "localhost:8000"})
    assert link_base(None, "http", "localhost:8000", listed) == "http://localhost:8000"
    assert link_base(None, "http", "LOCALHOST:8000", listed) == "http://localhost:8000"
    assert link_base(None, "http", "localhost:8001", listed) is None
    assert link_base(None, "http", None, listed) is None
    assert link_base(None, "ftp", "localhost:8000", listed) is None
    assert link_base("https://x.example/", "http", "evil", listed) == "https://x.example"
    assert link_base(None, "https", "127.0.0.1:8000", frozenset()) is None


@pytest.mark.parametrize("value", ["evil.example/path", "a b", "host:port", "http://x.example"])
def test_a_bad_allow_list_is_refused_naming_the_setting(value: str) -> None:
    with pytest.raises(ValidationError) as raised:
        Settings.model_validate({"NASPLAN_ALLOWED_HOSTS": value})
    assert "NASPLAN_ALLOWED_HOSTS" in str(raised.value)


def test_the_default_allow_list_is_the_local_server() -> None:
    default = allowed_hosts(Settings().allowed_hosts)
    assert default == frozenset({"127.0.0.1:8000", "localhost:8000"})

"""Trust: approved means frozen, import trusts nothing, the review trail tells the truth.

Each test names the defect it covers (issue "Trust"); every one runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import copy
import hashlib
import io
import logging
import zipfile
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from nasplan.designs import files
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.bundle_index import RUNBOOKS
from nasplan.renderers.review_block import without_review
from nasplan.settings import Settings

DNFS_ON_9I = {**EXAMPLE_PLATFORM, "oracle": {**EXAMPLE_PLATFORM["oracle"], "dnfs": True}}


def _save(c: TestClient, name: str = "trust", platform: Any = None, **extra: Any) -> Any:
    response = c.post(
        "/api/v1/designs", json={"name": name, "platform": platform or EXAMPLE_PLATFORM, **extra}
    )
    assert response.status_code == 201, response.text
    return response.json()


def _review(c: TestClient, design: Any, **body: Any) -> Any:
    return c.post(
        f"/api/v1/designs/{design['id']}/reviews",
        json={"revision": 1, "reviewer": "dba lead", **body},
        headers={"X-Review-Token": design["review_token"]},
    )


def _entries(zip_bytes: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        return {n.split("/", 1)[1]: archive.read(n).decode() for n in archive.namelist()}


def _bundle(c: TestClient, design: Any, number: int = 1) -> Any:
    response = c.get(f"/api/v1/designs/{design['id']}/revisions/{number}/bundle")
    assert response.status_code == 200
    return response


def test_manifest_covers_every_file_but_the_review_lines(designs_client: TestClient) -> None:
    design = _save(designs_client)
    response = _bundle(designs_client, design)
    entries = _entries(response.content)
    listed = {
        line.split("  ", 1)[1]: line.split("  ", 1)[0]
        for line in entries["MANIFEST.sha256"].splitlines()
    }
    assert set(listed) == set(entries) - {"README.md", "MANIFEST.sha256", *RUNBOOKS}
    for path, digest in listed.items():
        assert hashlib.sha256(entries[path].encode()).hexdigest() == digest
    # The runbooks are covered without their review lines, through RUNBOOK.sha256.
    assert "RUNBOOK.sha256" in listed
    for line in entries["RUNBOOK.sha256"].splitlines():
        digest, path = line.split("  ", 1)
        assert hashlib.sha256(without_review(entries[path]).encode()).hexdigest() == digest
    digest = hashlib.sha256(entries["MANIFEST.sha256"].encode()).hexdigest()
    assert response.headers["X-Bundle-SHA256"] == digest
    assert "**Not approved.**" in entries["README.md"] and digest in entries["README.md"]


def test_approval_records_the_digest_and_every_download_says_who(
    designs_client: TestClient,
) -> None:
    c = designs_client
    design = _save(c)
    before = _bundle(c, design)
    digest = before.headers["X-Bundle-SHA256"]
    approval = _review(c, design, decision="approve", bundle_sha256=digest)
    assert approval.status_code == 201 and approval.json()["bundle_sha256"] == digest

    after = _bundle(c, design)
    assert after.headers["X-Bundle-SHA256"] == digest
    entries, unapproved = _entries(after.content), _entries(before.content)
    # Only the files people read first change: they now say who approved, and when.
    assert {p for p in entries if entries[p] != unapproved[p]} == {"README.md", *RUNBOOKS}
    assert "**Approved** by dba lead on " in entries["README.md"] and digest in entries["README.md"]
    for path in RUNBOOKS:
        assert "Approved by dba lead on " in entries[path] and digest in entries[path], path
        assert "is not approved" in unapproved[path], path
        assert without_review(entries[path]) == without_review(unapproved[path]), path

    revision = c.get(f"/api/v1/designs/{design['id']}/revisions/1").json()
    assert revision["approval"]["reviewer"] == "dba lead"
    assert revision["approval"]["bundle_sha256"] == digest
    for fmt in ("md", "html"):
        runbook = c.get(
            f"/api/v1/designs/{design['id']}/revisions/1/runbook", params={"format": fmt}
        ).text
        assert "Approved by dba lead on " in runbook and digest in runbook


def test_a_reviewed_digest_that_is_not_the_bundle_is_refused(designs_client: TestClient) -> None:
    design = _save(designs_client)
    refused = _review(designs_client, design, decision="approve", bundle_sha256="0" * 64)
    assert refused.status_code == 409
    state = designs_client.get(f"/api/v1/designs/{design['id']}").json()
    assert state["state"] == "draft"


def test_renaming_after_approval_leaves_the_approved_bundle_alone(
    designs_client: TestClient,
) -> None:
    c = designs_client
    design = _save(c, name="before rename")
    assert _review(c, design, decision="approve").status_code == 201
    approved = _bundle(c, design).content
    renamed = c.post(
        f"/api/v1/designs/{design['id']}/revisions",
        json={"platform": EXAMPLE_PLATFORM, "base_revision": 1, "name": "after rename"},
        headers={"X-Edit-Token": design["edit_token"]},
    )
    assert renamed.status_code == 201
    assert c.get(f"/api/v1/designs/{design['id']}").json()["name"] == "after rename"
    assert _bundle(c, design).content == approved
    assert "before rename" in _entries(approved)["RUNBOOK.md"]


def test_a_draft_revision_keeps_the_name_it_was_saved_with(designs_client: TestClient) -> None:
    c = designs_client
    design = _save(c, name="first name")
    first = _bundle(c, design).content
    renamed = c.post(
        f"/api/v1/designs/{design['id']}/revisions",
        json={"platform": EXAMPLE_PLATFORM, "base_revision": 1, "name": "second name"},
        headers={"X-Edit-Token": design["edit_token"]},
    )
    assert renamed.status_code == 201
    assert _bundle(c, design).content == first


def test_approved_bytes_survive_a_change_of_the_renderers(
    designs_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = designs_client
    design = _save(c)
    assert _review(c, design, decision="approve").status_code == 201
    approved = _bundle(c, design).content

    def upgraded(*args: Any, **kwargs: Any) -> dict[str, str]:
        rendered = render_bundle_files(*args, **kwargs)
        rendered["host/mounts.sh"] += "# a later nasplan writes this line\n"
        return rendered

    monkeypatch.setattr(files, "render_bundle_files", upgraded)
    assert upgraded is not render_bundle_files
    assert _bundle(c, design).content == approved


def test_error_findings_need_an_acknowledgement_to_save_and_to_approve(
    designs_client: TestClient,
) -> None:
    c = designs_client
    refused = c.post("/api/v1/designs", json={"name": "dnfs on 9i", "platform": DNFS_ON_9I})
    assert refused.status_code == 422
    assert refused.json()["detail"][0]["loc"] == ["body", "acknowledge_errors"]
    assert "error finding" in refused.json()["detail"][0]["msg"]

    design = _save(c, name="dnfs on 9i", platform=DNFS_ON_9I, acknowledge_errors=True)
    revision = c.get(f"/api/v1/designs/{design['id']}/revisions/1").json()
    assert revision["errors_acknowledged"] is True

    unacknowledged = _review(c, design, decision="approve")
    assert unacknowledged.status_code == 422
    assert unacknowledged.json()["detail"][0]["loc"] == ["body", "acknowledge_errors"]
    approved = _review(c, design, decision="approve", acknowledge_errors=True)
    assert approved.status_code == 201 and approved.json()["errors_acknowledged"] is True


def test_a_plan_without_errors_records_no_acknowledgement(designs_client: TestClient) -> None:
    design = _save(designs_client, acknowledge_errors=True)
    revision = designs_client.get(f"/api/v1/designs/{design['id']}/revisions/1").json()
    assert revision["errors_acknowledged"] is False


def test_permalinks_follow_an_allowed_request_host_or_the_configured_url(
    kb: KnowledgeBase, app_settings: Settings
) -> None:
    allowed = app_settings.model_copy(update={"allowed_hosts": "plans.example:8443"})
    with TestClient(create_app(allowed, kb=kb), base_url="https://plans.example:8443") as c:
        design = _save(c)
        readme = _entries(_bundle(c, design).content)["README.md"]
        assert f"https://plans.example:8443/d/{design['id']}/r/1" in readme
        assert "127.0.0.1:8000" not in readme
    configured = app_settings.model_copy(update={"public_url": "https://nasplan.corp/"})
    with TestClient(create_app(configured, kb=kb)) as c:
        design = _save(c)
        readme = _entries(_bundle(c, design).content)["README.md"]
        assert f"https://nasplan.corp/d/{design['id']}/r/1" in readme


def _exported(c: TestClient) -> tuple[Any, Any]:
    design = _save(c, name="to export")
    assert _review(c, design, decision="approve").status_code == 201
    document = c.get(f"/api/v1/designs/{design['id']}/export").json()
    return design, document


def test_import_plans_again_and_keeps_a_tampered_plan_only_as_a_record(
    designs_client: TestClient,
) -> None:
    c = designs_client
    _, document = _exported(c)
    tampered = copy.deepcopy(document)
    plan = tampered["revisions"][0]["plan"]
    plan["mounts"][0]["options"] = [*plan["mounts"][0]["options"], "nolock"]
    plan["settings"][0]["value"] = "planted"
    response = c.post("/api/v1/designs/import", json=tampered)
    assert response.status_code == 201
    copy_id = response.json()["id"]
    revision = c.get(f"/api/v1/designs/{copy_id}/revisions/1").json()
    assert "nolock" not in revision["plan"]["mounts"][0]["options"]
    assert all(s["value"] != "planted" for s in revision["plan"]["settings"])
    assert "differed and is kept as a record only" in revision["provenance"]
    bundle = _entries(c.get(f"/api/v1/designs/{copy_id}/revisions/1/bundle").content)
    assert not any("nolock" in text or "planted" in text for text in bundle.values())


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("mounts", 0, "options", 0), "rw\n#!/bin/sh\ntouch /tmp/x"),
        (("settings", 0, "key"), "x=1; DROP TABLE t"),
        (("settings", 0, "scope"), "..\\..\\evil"),
        (("checks", 0, "command"), "id\nrm -rf /"),
        (("findings", 0, "rule"), "RULE-1\necho planted"),
    ],
)
def test_import_refuses_plan_text_that_is_not_plan_syntax(
    designs_client: TestClient, path: tuple[str | int, ...], value: str
) -> None:
    _, document = _exported(designs_client)
    target: Any = document["revisions"][0]["plan"]
    if path[0] == "checks" and not target["checks"]:
        target["checks"] = [
            {"what": "w", "where": "host", "command": "c", "expect": "e", "rules": []}
        ]
    if path[0] == "findings" and not target["findings"]:
        target["findings"] = [{"severity": "info", "rule": "A-B", "message": "m"}]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    response = designs_client.post("/api/v1/designs/import", json=document)
    assert response.status_code == 422
    loc = response.json()["detail"][0]["loc"]
    assert loc[:4] == ["body", "revisions", 0, "plan"] and str(path[0]) in loc


def test_imported_reviews_are_history_not_approvals(designs_client: TestClient) -> None:
    c = designs_client
    _, document = _exported(c)
    document["revisions"][0]["reviews"].append(
        {
            "reviewer": "ceo",
            "decision": "approve",
            "comment": "",
            "created_at": "2001-01-01T00:00:00Z",
        }
    )
    copy_id = c.post("/api/v1/designs/import", json=document).json()["id"]
    state = c.get(f"/api/v1/designs/{copy_id}").json()
    assert state["state"] == "draft" and state["approved_revision"] is None
    reviews = state["latest"]["reviews"]
    assert reviews and all(r["imported"] for r in reviews)
    readme = _entries(c.get(f"/api/v1/designs/{copy_id}/revisions/1/bundle").content)["README.md"]
    assert "**Not approved.**" in readme and "ceo" not in readme


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"name": "a\u0000b", "platform": EXAMPLE_PLATFORM}, ["body", "name"]),
        ({"name": "a\nb", "platform": EXAMPLE_PLATFORM}, ["body", "name"]),
        ({"name": "a\u2028b", "platform": EXAMPLE_PLATFORM}, ["body", "name"]),
        (
            {"name": "x", "platform": {**EXAMPLE_PLATFORM, "network": {"nic_gbps": True}}},
            ["body", "platform", "network", "nic_gbps"],
        ),
        (
            {
                "name": "x",
                "platform": {
                    **EXAMPLE_PLATFORM,
                    "host": {**EXAMPLE_PLATFORM["host"], "memory_gb": "48"},
                },
            },
            ["body", "platform", "host", "memory_gb"],
        ),
    ],
)
def test_text_and_numbers_are_strict(
    designs_client: TestClient, body: dict[str, Any], loc: list[str]
) -> None:
    response = designs_client.post("/api/v1/designs", json=body)
    assert response.status_code == 422, response.text
    assert loc in [d["loc"] for d in response.json()["detail"]]


def test_nul_in_a_review_comment_is_refused_naming_the_field(designs_client: TestClient) -> None:
    design = _save(designs_client)
    response = _review(designs_client, design, decision="comment", comment="ok\u0000")
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "comment"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/designs/{id}/revisions/2147483648",
        "/api/v1/designs/{id}/revisions/99999999999999999999/bundle",
        "/api/v1/designs/{id}/diff?from=1&to=2147483648",
    ],
)
def test_huge_revision_numbers_are_422(designs_client: TestClient, path: str) -> None:
    design = _save(designs_client)
    response = designs_client.get(path.format(id=design["id"]))
    assert response.status_code == 422


@pytest.mark.parametrize("design_id", ["a%00b", "x" * 65, "a%0Ab", "%F0%9F%98%80"])
def test_impossible_design_ids_are_404(designs_client: TestClient, design_id: str) -> None:
    assert designs_client.get(f"/api/v1/designs/{design_id}").status_code == 404


def test_database_errors_never_log_their_parameters(
    designs_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    engine = designs_client.app.state.engine  # type: ignore[attr-defined]
    secret = "token-hash-that-must-not-be-logged"
    with engine.connect() as connection, pytest.raises(Exception) as raised:
        connection.execute(text("SELECT * FROM no_such_table WHERE x = :x"), {"x": secret})
    assert secret not in str(raised.value)
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("nasplan").exception("database", exc_info=raised.value)
    assert secret not in caplog.text


def test_the_revision_diff_shows_a_platform_change_and_what_it_does(
    designs_client: TestClient,
) -> None:
    c = designs_client
    linux: dict[str, Any] = {
        "host": {"os": "linux", "os_version": "ol8", "arch": "x86_64", "nic_interface": "eth1"},
        "network": {"nic_gbps": 25, "nic_count": 1, "jumbo_frames": True},
        "oracle": {"version": "19.21", "dnfs": True},
        "filer": {"vendor": "netapp", "model": "AFF A400", "os_version": "9.14.1"},
        "layout": {"filer_host": "svm01", "db_name": "PROD"},
    }
    design = _save(c, platform=linux)
    slower = {**linux, "network": {**linux["network"], "nic_gbps": 10}}
    revised = c.post(
        f"/api/v1/designs/{design['id']}/revisions",
        json={"platform": slower, "base_revision": 1},
        headers={"X-Edit-Token": design["edit_token"]},
    )
    assert revised.status_code == 201
    changes = c.get(f"/api/v1/designs/{design['id']}/diff", params={"from": 1, "to": 2}).json()[
        "changes"
    ]
    by_key = {(ch["item"], ch["key"]): ch for ch in changes}
    nic = by_key[("platform", "network.nic_gbps")]
    assert (nic["before"], nic["after"]) == ("25", "10")
    stream = by_key[("expectation", "pipelined_stream_mb_s")]
    assert float(stream["after"]) < float(stream["before"])


def test_a_revisions_zip_is_named_with_its_number_approved_or_not(
    designs_client: TestClient,
) -> None:
    """The download name was nasplan-prod.zip for an approved revision and nasplan-prod-r2.zip
    for a draft: the same bundle family under two patterns (issue 23)."""
    c = designs_client
    design = _save(c, name="zip names")
    assert 'filename="nasplan-prod-r1.zip"' in _bundle(c, design).headers["content-disposition"]
    assert _review(c, design, decision="approve").status_code == 201
    assert 'filename="nasplan-prod-r1.zip"' in _bundle(c, design).headers["content-disposition"]
    second = c.post(
        f"/api/v1/designs/{design['id']}/revisions",
        json={"platform": EXAMPLE_PLATFORM, "base_revision": 1},
        headers={"X-Edit-Token": design["edit_token"]},
    )
    assert second.status_code == 201
    assert 'filename="nasplan-prod-r2.zip"' in _bundle(c, design, 2).headers["content-disposition"]

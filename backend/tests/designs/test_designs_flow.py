"""The whole life of a design, on SQLite and PostgreSQL."""

from __future__ import annotations

import copy
import io
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.loader import DEFAULT_KNOWLEDGE_DIR, load_knowledge
from nasplan.main import create_app
from nasplan.settings import Settings


def _platform(**changes: dict[str, Any]) -> dict[str, Any]:
    body = copy.deepcopy(EXAMPLE_PLATFORM)
    for section, values in changes.items():
        body[section].update(values)
    return body


CURRENT = load_knowledge().version  # the release in knowledge/kb.yaml
NEXT = "2099.1.0"  # a later release, for the drift test


def _changed_kb(tmp_path: Path) -> Path:
    """A knowledge base whose next release changes one value: nosnapdir goes off."""
    root = tmp_path / "knowledge"
    shutil.copytree(DEFAULT_KNOWLEDGE_DIR, root)
    rule = root / "rules/filer/NTAP7-NOSNAP.yaml"
    rule.write_text(
        rule.read_text().replace('key: nosnapdir, value: "on"', 'key: nosnapdir, value: "off"')
    )
    release = root / "kb.yaml"
    current = f'version: "{CURRENT}"'
    assert current in release.read_text()
    release.write_text(release.read_text().replace(current, f'version: "{NEXT}"'))
    changelog = root / "CHANGELOG.md"
    changelog.write_text(changelog.read_text() + f"\n## {NEXT} — test release\n")
    return root


def test_design_life(designs_client: TestClient, app_settings: Settings, tmp_path: Path) -> None:
    c = designs_client
    created = c.post("/api/v1/designs", json={"name": "PROD move", "platform": EXAMPLE_PLATFORM})
    assert created.status_code == 201
    design = created.json()
    design_id, edit, review = design["id"], design["edit_token"], design["review_token"]
    assert design["revision"] == 1 and design["permalink"] == f"/d/{design_id}"

    read = c.get(f"/api/v1/designs/{design_id}").json()
    assert read["state"] == "draft" and read["latest"]["number"] == 1
    assert "edit_token" not in read and "review_token" not in str(read)
    assert read["latest"]["plan"]["kb_version"] == CURRENT

    revised = c.post(
        f"/api/v1/designs/{design_id}/revisions",
        json={"platform": _platform(network={"nic_count": 1}), "base_revision": 1},
        headers={"X-Edit-Token": edit},
    )
    assert revised.status_code == 201 and revised.json()["number"] == 2

    stale = c.post(
        f"/api/v1/designs/{design_id}/revisions",
        json={"platform": EXAMPLE_PLATFORM, "base_revision": 1},
        headers={"X-Edit-Token": edit},
    )
    assert stale.status_code == 409 and stale.json()["latest_revision"] == 2

    wrong_edit = c.post(
        f"/api/v1/designs/{design_id}/revisions",
        json={"platform": EXAMPLE_PLATFORM, "base_revision": 2},
        headers={"X-Edit-Token": review},
    )
    assert wrong_edit.status_code == 403

    unauthorised = c.post(
        f"/api/v1/designs/{design_id}/reviews",
        json={"revision": 2, "reviewer": "dba lead", "decision": "approve"},
    )
    assert unauthorised.status_code == 403
    assert c.get(f"/api/v1/designs/{design_id}/revisions/2").json()["reviews"] == []

    on_one_item = c.post(
        f"/api/v1/designs/{design_id}/reviews",
        json={
            "revision": 2,
            "reviewer": "dba lead",
            "decision": "approve",
            "comment": "ok",
            "item_rule": "NTAP-MINRA-OFF",
        },
        headers={"X-Review-Token": review},
    )
    # An approval is of the whole revision, never "approve · on one item".
    assert on_one_item.status_code == 422
    assert on_one_item.json()["detail"][0]["loc"] == ["body", "item_rule"]
    approved = c.post(
        f"/api/v1/designs/{design_id}/reviews",
        json={"revision": 2, "reviewer": "dba lead", "decision": "approve", "comment": "ok"},
        headers={"X-Review-Token": review},
    )
    assert approved.status_code == 201
    state = c.get(f"/api/v1/designs/{design_id}").json()
    assert (state["state"], state["state_label"], state["approved_revision"]) == (
        "approved",
        "approved r2",
        2,
    )
    frozen = c.get(f"/api/v1/designs/{design_id}/revisions/2").content

    third = c.post(
        f"/api/v1/designs/{design_id}/revisions",
        json={"platform": EXAMPLE_PLATFORM, "base_revision": 2},
        headers={"X-Edit-Token": edit},
    )
    assert third.status_code == 201 and third.json()["status"] == "draft"
    state = c.get(f"/api/v1/designs/{design_id}").json()
    assert state["state"] == "draft" and state["state_label"] == "draft (r2 approved)"
    assert c.get(f"/api/v1/designs/{design_id}/revisions/2").content == frozen
    final = c.post(
        f"/api/v1/designs/{design_id}/reviews",
        json={"revision": 2, "reviewer": "storage", "decision": "request_changes"},
        headers={"X-Review-Token": review},
    )
    assert final.status_code == 409

    assert c.get(f"/api/v1/designs/{design_id}/drift").json()["changes"] == []
    diff = c.get(f"/api/v1/designs/{design_id}/diff", params={"from": 1, "to": 2}).json()
    nic_changes = [ch for ch in diff["changes"] if ch["item"] == "finding"]
    assert any(
        "NET-MULTIPATH-SCALING" in ch["key"] and ch["kind"] == "removed" for ch in nic_changes
    )

    # The knowledge base moves on: a second app on the same database, with a new release.
    changed = load_knowledge(_changed_kb(tmp_path))
    with TestClient(create_app(app_settings, kb=changed)) as later:
        assert later.get(f"/api/v1/designs/{design_id}/revisions/2").content == frozen
        drift = later.get(f"/api/v1/designs/{design_id}/drift").json()
        assert (drift["from_kb"], drift["to_kb"], drift["revision"]) == (
            CURRENT,
            NEXT,
            3,
        )
        nosnapdir = [ch for ch in drift["changes"] if "nosnapdir" in ch["key"]]
        assert nosnapdir and (nosnapdir[0]["before"], nosnapdir[0]["after"]) == ("on", "off")
        assert f"{CURRENT} -> {NEXT}" in nosnapdir[0]["reason"]

    exported = c.get(f"/api/v1/designs/{design_id}/export")
    assert exported.status_code == 200
    document = exported.json()
    assert [r["number"] for r in document["revisions"]] == [1, 2, 3]
    assert edit not in exported.text and review not in exported.text
    imported = c.post("/api/v1/designs/import", json=document)
    assert imported.status_code == 201
    copy_id = imported.json()["id"]
    assert copy_id != design_id and imported.json()["edit_token"] != edit
    copy_state = c.get(f"/api/v1/designs/{copy_id}").json()
    # Imported approvals are history: nothing is approved here until a reviewer here approves.
    assert copy_state["approved_revision"] is None and copy_state["state"] == "draft"
    original_plan = c.get(f"/api/v1/designs/{design_id}/revisions/2").json()["plan"]
    copy_revision = c.get(f"/api/v1/designs/{copy_id}/revisions/2").json()
    assert copy_revision["plan"] == original_plan  # planned again here, to the same advice
    assert copy_revision["origin"] == "imported" and copy_revision["approval"] is None
    assert "said the same" in copy_revision["provenance"]
    assert [(r["decision"], r["imported"]) for r in copy_revision["reviews"]] == [("approve", True)]


def test_files_of_a_saved_revision(designs_client: TestClient) -> None:
    design = designs_client.post(
        "/api/v1/designs", json={"name": "files", "platform": EXAMPLE_PLATFORM}
    ).json()
    bundle = designs_client.get(f"/api/v1/designs/{design['id']}/revisions/1/bundle")
    assert bundle.status_code == 200 and bundle.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(bundle.content))
    readme = next(n for n in archive.namelist() if n.endswith("README.md"))
    text = archive.read(readme).decode()
    # Saved through a Host off NASPLAN_ALLOWED_HOSTS ("testserver"): no permalink.
    assert design["id"] in text and "testserver" not in text
    runbook = designs_client.get(
        f"/api/v1/designs/{design['id']}/revisions/1/runbook", params={"format": "html"}
    )
    assert runbook.status_code == 200 and design["id"] in runbook.text
    assert (
        designs_client.get(f"/api/v1/designs/{design['id']}/revisions/9/bundle").status_code == 404
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "", "platform": EXAMPLE_PLATFORM}, ["body", "name"]),
        ({"name": "x" * 121, "platform": EXAMPLE_PLATFORM}, ["body", "name"]),
        ({"name": "ok"}, ["body", "platform"]),
        (
            {"name": "ok", "platform": _platform(layout={"db_name": "bad name"})},
            ["body", "platform", "layout", "db_name"],
        ),
    ],
)
def test_bad_design_input_writes_nothing(
    designs_client: TestClient, body: dict[str, Any], field: list[str]
) -> None:
    response = designs_client.post("/api/v1/designs", json=body)
    assert response.status_code == 422
    assert field in [d["loc"] for d in response.json()["detail"]]


def test_review_limits_and_item_rule(designs_client: TestClient) -> None:
    design = designs_client.post(
        "/api/v1/designs", json={"name": "limits", "platform": EXAMPLE_PLATFORM}
    ).json()
    headers = {"X-Review-Token": design["review_token"]}
    url = f"/api/v1/designs/{design['id']}/reviews"
    too_long = designs_client.post(
        url,
        json={"revision": 1, "reviewer": "a", "decision": "comment", "comment": "x" * 4001},
        headers=headers,
    )
    assert too_long.status_code == 422
    unknown = designs_client.post(
        url,
        json={"revision": 1, "reviewer": "a", "decision": "comment", "item_rule": "NO-SUCH"},
        headers=headers,
    )
    assert unknown.status_code == 422 and unknown.json()["detail"][0]["loc"] == [
        "body",
        "item_rule",
    ]
    assert designs_client.get(f"/api/v1/designs/{design['id']}/revisions/1").json()["reviews"] == []
    comment = designs_client.post(
        url,
        json={"revision": 1, "reviewer": "a", "decision": "comment", "comment": "<b>hi</b>"},
        headers=headers,
    )
    assert comment.status_code == 201 and comment.json()["comment"] == "<b>hi</b>"
    assert designs_client.get(f"/api/v1/designs/{design['id']}").json()["state"] == "in_review"


def test_import_validates_everything(designs_client: TestClient) -> None:
    design = designs_client.post(
        "/api/v1/designs", json={"name": "to copy", "platform": EXAMPLE_PLATFORM}
    ).json()
    document = designs_client.get(f"/api/v1/designs/{design['id']}/export").json()
    broken = copy.deepcopy(document)
    broken["revisions"][0]["platform"]["layout"]["filer_host"] = "a b"
    response = designs_client.post("/api/v1/designs/import", json=broken)
    assert response.status_code == 422
    assert ["body", "revisions", 0, "platform", "layout", "filer_host"] in [
        d["loc"] for d in response.json()["detail"]
    ]
    gap = copy.deepcopy(document)
    gap["revisions"][0]["number"] = 2
    assert designs_client.post("/api/v1/designs/import", json=gap).status_code == 422

"""GET /designs/{id} reuses the answer it built while the design has no new revision or review:
a write through any server process (here a second app on the same database) is seen at once."""

from __future__ import annotations

from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings


def test_a_write_elsewhere_is_seen_by_the_next_read(
    designs_client: TestClient, app_settings: Settings, kb: KnowledgeBase
) -> None:
    reader = designs_client
    platform = kb.presets["current-linux-ontap"].platform
    created = reader.post("/api/v1/designs", json={"name": "cached", "platform": platform}).json()
    url = f"/api/v1/designs/{created['id']}"
    first = reader.get(url)
    assert first.status_code == 200 and first.json()["state"] == "draft"
    assert reader.get(url).content == first.content

    with TestClient(create_app(app_settings, kb=kb)) as writer:
        review = writer.post(
            f"{url}/reviews",
            json={"revision": 1, "reviewer": "Ann", "decision": "approve", "comment": "ok"},
            headers={"X-Review-Token": created["review_token"]},
        )
        assert review.status_code == 201, review.text
        after_review = reader.get(url).json()
        assert after_review["state"] == "approved"
        assert after_review["approved_revision"] == 1

        revised = writer.post(
            f"{url}/revisions",
            json={
                "platform": {**platform, "oracle": {**platform["oracle"], "dnfs": False}},
                "base_revision": 1,
            },
            headers={"X-Edit-Token": created["edit_token"]},
        )
        assert revised.status_code == 201, revised.text
    after_revision = reader.get(url).json()
    assert after_revision["latest"]["number"] == 2
    assert [r["number"] for r in after_revision["revisions"]] == [1, 2]
    assert reader.get("/api/v1/designs/no-such-design").status_code == 404
    assert reader.get("/api/v1/designs/%00bad").status_code == 404

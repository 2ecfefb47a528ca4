"""A design carries an audit of what ran before it as its "before": the same audit, checked
against the revision's platform and advice date, kept with the design."""

from __future__ import annotations

from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase

OLD_FSTAB = (
    "filer01:/vol/ora_data  /u02/oradata  nfs  "
    "rw,bg,soft,intr,rsize=8192,wsize=8192,vers=3,proto=udp,actimeo=0  0 0\n"
)


def _design(c: TestClient, kb: KnowledgeBase) -> tuple[str, str]:
    platform = kb.presets["example-linux-knfs-7mode"].platform
    created = c.post("/api/v1/designs", json={"name": "before", "platform": platform}).json()
    return created["id"], created["edit_token"]


def test_an_audit_is_kept_on_the_design_with_its_findings(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    design_id, edit = _design(c, kb)
    url = f"/api/v1/designs/{design_id}/audits"
    body = {"revision": 1, "files": {"fstab": OLD_FSTAB}}
    assert c.post(url, json=body).status_code == 403
    assert c.post(url, json=body, headers={"X-Edit-Token": "nope"}).status_code == 403
    assert c.get(url).json()["items"] == []

    kept = c.post(url, json=body, headers={"X-Edit-Token": edit})
    assert kept.status_code == 201, kept.text
    out = kept.json()
    assert out["revision"] == 1 and out["label"] == "before"
    rules = {f["rule"] for f in out["report"]["findings"] if f["severity"] == "error"}
    direct = c.post(
        "/api/v1/audits",
        json={
            "platform": c.get(f"/api/v1/designs/{design_id}").json()["latest"]["platform"],
            "files": {"fstab": OLD_FSTAB},
        },
    ).json()
    # The same audit as /audits, for the design's platform: one engine.
    assert rules == {f["rule"] for f in direct["findings"] if f["severity"] == "error"}
    assert rules, "UDP and soft on a datafile mount are errors"
    assert out["report"]["score"] == 0

    c.post(
        url,
        json={**body, "label": "after the fix", "files": {"fstab": direct["corrected"]["fstab"]}},
        headers={"X-Edit-Token": edit},
    )
    listed = c.get(url).json()["items"]
    assert [a["label"] for a in listed] == ["after the fix", "before"]
    assert listed[0]["score"] == 100


def test_bad_design_audits_are_refused_and_nothing_is_kept(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    design_id, edit = _design(c, kb)
    url = f"/api/v1/designs/{design_id}/audits"
    headers = {"X-Edit-Token": edit}
    missing = c.post(url, json={"revision": 7, "files": {"fstab": OLD_FSTAB}}, headers=headers)
    assert missing.status_code == 404
    empty = c.post(url, json={"revision": 1}, headers=headers)
    assert empty.status_code == 422
    unknown = c.post(
        url,
        json={"revision": 1, "pastes": [{"name": "notes.txt", "text": "hello there"}]},
        headers=headers,
    )
    assert unknown.status_code == 422
    assert unknown.json()["detail"][0]["loc"] == ["body", "pastes", 0, "kind"]
    label = c.post(
        url,
        json={"revision": 1, "label": "two\nlines", "files": {"fstab": OLD_FSTAB}},
        headers=headers,
    )
    assert label.status_code == 422 and label.json()["detail"][0]["loc"][-1] == "label"
    assert c.get(url).json()["total"] == 0
    assert c.get("/api/v1/designs/nosuchdesign/audits").status_code == 404

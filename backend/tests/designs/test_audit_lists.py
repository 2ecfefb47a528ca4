"""The audits and as-built checks kept on a design are listed as summaries, a page at a time,
newest first; each full report is read on its own. A kept audit stores its findings and
figures, not an echo of every pasted line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import Connection, event, select, text

from nasplan.audit.compare import audit
from nasplan.data.db import make_engine
from nasplan.data.migrate import MIGRATIONS
from nasplan.data.models import DesignAuditRow
from nasplan.designs.as_built import compare_verify_report
from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.postgres import throwaway_database
from tests.renderers.matrix import preset_plan

PRESET = "example-linux-knfs-7mode"
BAD_LINE = (
    "filer01:/vol/ora_data{n}  /u02/oradata{n}  nfs  "
    "rw,bg,soft,intr,rsize=8192,wsize=8192,vers=3,proto=udp,actimeo=0  0 0"
)
AUDIT_KEYS = {
    "id",
    "revision",
    "created_at",
    "label",
    "kb_version",
    "as_of",
    "score",
    "severity_counts",
    "checked",
    "ignored_count",
}


def _fstab(lines: int, garbage: int = 0) -> str:
    rows = [BAD_LINE.format(n=n) for n in range(lines)]
    rows += [f"this is not an fstab line {n}" for n in range(garbage)]
    return "\n".join(rows) + "\n"


def _design(c: TestClient, kb: KnowledgeBase) -> tuple[str, str]:
    platform = kb.presets[PRESET].platform
    created = c.post("/api/v1/designs", json={"name": "kept", "platform": platform})
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["edit_token"]


def _keep(c: TestClient, design_id: str, edit: str, label: str, fstab: str) -> dict[str, Any]:
    kept = c.post(
        f"/api/v1/designs/{design_id}/audits",
        json={"revision": 1, "label": label, "files": {"fstab": fstab}},
        headers={"X-Edit-Token": edit},
    )
    assert kept.status_code == 201, kept.text
    body: dict[str, Any] = kept.json()
    return body


def _record(c: TestClient, design_id: str, edit: str, report: str) -> dict[str, Any]:
    recorded = c.post(
        f"/api/v1/designs/{design_id}/as-built",
        json={"revision": 1, "report": report},
        headers={"X-Edit-Token": edit},
    )
    assert recorded.status_code == 201, recorded.text
    body: dict[str, Any] = recorded.json()
    return body


def _severities(findings: list[dict[str, Any]]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in findings:
        counts[finding["severity"]] += 1
    return counts


def test_audits_are_listed_as_summaries_a_page_at_a_time(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    design_id, edit = _design(c, kb)
    url = f"/api/v1/designs/{design_id}/audits"
    assert c.get(url).json() == {"items": [], "next": None, "total": 0}
    kept = [_keep(c, design_id, edit, f"audit {n}", _fstab(1 + n % 3)) for n in range(25)]

    first = c.get(url)
    assert first.status_code == 200
    page = first.json()
    assert page["total"] == 25 and len(page["items"]) == 20 and page["next"] is not None
    assert all(set(item) == AUDIT_KEYS for item in page["items"])
    rest = c.get(url, params={"before": page["next"]}).json()
    assert rest["total"] == 25 and len(rest["items"]) == 5 and rest["next"] is None
    listed = page["items"] + rest["items"]
    assert [a["id"] for a in listed] == [a["id"] for a in reversed(kept)]
    assert [a["label"] for a in listed[:2]] == ["audit 24", "audit 23"]

    small = c.get(url, params={"limit": 2}).json()
    assert [a["id"] for a in small["items"]] == [a["id"] for a in listed[:2]]
    assert small["next"] == listed[1]["id"]

    newest = listed[0]
    full = c.get(f"{url}/{newest['id']}")
    assert full.status_code == 200, full.text
    report = full.json()["report"]
    assert full.json()["label"] == "audit 24" and full.json()["revision"] == 1
    assert newest["severity_counts"] == _severities(report["findings"])
    assert newest["severity_counts"]["error"] > 0
    assert newest["score"] == report["score"] and newest["checked"] == report["checked"]
    assert newest["kb_version"] == report["kb_version"] and newest["as_of"] == report["as_of"]


def test_a_list_answer_stays_small_however_large_the_reports(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    design_id, edit = _design(c, kb)
    fstab = _fstab(150)
    for n in range(12):
        _keep(c, design_id, edit, f"large {n}", fstab)
    listed = c.get(f"/api/v1/designs/{design_id}/audits")
    full = c.get(f"/api/v1/designs/{design_id}/audits/{listed.json()['items'][0]['id']}")
    assert len(full.content) > 50_000
    assert len(listed.content) < 12 * 600, len(listed.content)


def test_listing_reads_no_stored_report(designs_client: TestClient, kb: KnowledgeBase) -> None:
    c = designs_client
    design_id, edit = _design(c, kb)
    _keep(c, design_id, edit, "before", _fstab(3))
    _record(c, design_id, edit, "# host: db01\n")
    statements: list[str] = []

    def seen(_conn: Connection, _cursor: Any, statement: str, *_args: Any, **_kwargs: Any) -> None:
        statements.append(statement)

    engine = c.app.state.engine  # type: ignore[attr-defined]
    event.listen(engine, "before_cursor_execute", seen)
    try:
        assert c.get(f"/api/v1/designs/{design_id}/audits").json()["total"] == 1
        assert c.get(f"/api/v1/designs/{design_id}/as-built").json()["total"] == 1
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert statements
    assert not any("report_json" in s or "result_json" in s for s in statements), statements


def test_a_kept_audit_stores_findings_and_counts_not_every_line(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    design_id, edit = _design(c, kb)
    kept = _keep(c, design_id, edit, "noisy", _fstab(2, garbage=450))
    report = kept["report"]
    assert report["corrected"] == {}
    assert len(report["ignored_lines"]["fstab"]) == 200
    assert kept["ignored_count"] == {"fstab": 450}
    assert report["findings"], "the findings are kept"
    with c.app.state.session_factory() as session:  # type: ignore[attr-defined]
        stored = json.loads(
            session.scalars(
                select(DesignAuditRow.report_json).where(DesignAuditRow.id == kept["id"])
            ).one()
        )
    assert stored["corrected"] == {} and len(stored["ignored_lines"]["fstab"]) == 200
    listed = c.get(f"/api/v1/designs/{design_id}/audits").json()["items"][0]
    assert listed["ignored_count"] == {"fstab": 450}
    again = c.get(f"/api/v1/designs/{design_id}/audits/{kept['id']}").json()
    assert again == kept


def test_one_record_is_read_only_through_its_own_design(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    design_id, edit = _design(c, kb)
    other_id, other_edit = _design(c, kb)
    kept = _keep(c, design_id, edit, "mine", _fstab(1))
    check = _record(c, design_id, edit, "# host: db01\n")
    _keep(c, other_id, other_edit, "theirs", _fstab(1))

    wrong = c.get(f"/api/v1/designs/{other_id}/audits/{kept['id']}")
    assert wrong.status_code == 404
    assert wrong.json()["detail"] == f"design {other_id!r} has no audit {kept['id']}"
    wrong_check = c.get(f"/api/v1/designs/{other_id}/as-built/{check['id']}")
    assert wrong_check.status_code == 404
    no_check = f"design {other_id!r} has no as-built check {check['id']}"
    assert wrong_check.json()["detail"] == no_check
    for path in ("audits", "audits/1", "as-built", "as-built/1"):
        missing = c.get(f"/api/v1/designs/nosuchdesign/{path}")
        assert missing.status_code == 404 and missing.json()["detail"] == "no design 'nosuchdesign'"


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("audits", {"limit": 0}, "limit"),
        ("audits", {"limit": 101}, "limit"),
        ("audits", {"before": 0}, "before"),
        ("audits", {"before": 2**31}, "before"),
        ("as-built", {"limit": "many"}, "limit"),
        ("audits/0", {}, "audit_id"),
        ("audits/2147483648", {}, "audit_id"),
        ("as-built/99999999999", {}, "check_id"),
    ],
)
def test_bad_paging_is_refused_naming_the_field(
    designs_client: TestClient, kb: KnowledgeBase, path: str, params: dict[str, Any], field: str
) -> None:
    c = designs_client
    design_id, _ = _design(c, kb)
    response = c.get(f"/api/v1/designs/{design_id}/{path}", params=params)
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"][-1] == field


def test_as_built_checks_are_listed_as_summaries(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    design_id, edit = _design(c, kb)
    url = f"/api/v1/designs/{design_id}/as-built"
    assert c.get(url).json() == {"items": [], "next": None, "total": 0}
    checks = [_record(c, design_id, edit, f"# host: db{n:02d}\n") for n in range(23)]
    page = c.get(url).json()
    assert page["total"] == 23 and len(page["items"]) == 20
    rest = c.get(url, params={"before": page["next"], "limit": 100}).json()
    assert rest["next"] is None
    listed = page["items"] + rest["items"]
    assert [x["host"] for x in listed] == [f"db{n:02d}" for n in reversed(range(23))]
    assert all(
        set(x) == {"id", "revision", "created_at", "host", "counts", "unreadable_lines"}
        for x in listed
    )
    assert listed[0]["counts"] == checks[-1]["counts"]
    full = c.get(f"{url}/{listed[0]['id']}")
    assert full.status_code == 200 and full.json() == checks[-1]
    assert full.json()["items"], "the full check has its items"


def test_what_a_host_showed_is_kept_short(kb: KnowledgeBase) -> None:
    plan = preset_plan(kb, "current-linux-ontap")
    report = "FAIL /u02/oradata/PROD: rsize=262144 missing (shown: " + "x" * 200_000 + ")\n"
    result = compare_verify_report(plan, report)
    found = [i.found for i in result.items if i.found]
    assert found and all(len(f) <= 1000 for f in found)
    assert any(f.endswith("…") for f in found)


# ---------------------------------------------------------------- the migration's backfill


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "postgresql":
        with throwaway_database("nasplan_lists") as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'old.db'}"


def _old_report(kb: KnowledgeBase) -> dict[str, Any]:
    """A report as kept before the migration: every ignored line listed, the corrected file
    echoed, no counts of its own."""
    platform = Platform.model_validate(kb.presets[PRESET].platform)
    report: dict[str, Any] = json.loads(audit(kb, platform, {"fstab": _fstab(3)}).model_dump_json())
    for newer in ("severity_counts", "ignored_count", "findings_omitted", "assignments_omitted"):
        report.pop(newer, None)
    report["ignored_lines"] = {"fstab": list(range(10, 510))}
    report["corrected"] = {"fstab": "x" * 10_000}
    return report


def test_the_migration_summarises_and_slims_what_was_kept(
    kb: KnowledgeBase, empty_database: str
) -> None:
    engine = make_engine(empty_database)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005")
    old = _old_report(kb)
    result = compare_verify_report(preset_plan(kb, PRESET), "# host: db01\n")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO designs (id, name, edit_token_hash, review_token_hash, created_at) "
                "VALUES ('d1', 'old', 'e', 'r', '2026-01-01 00:00:00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO revisions (design_id, number, name, platform_json, plan_json, "
                "kb_version, as_of, created_at) VALUES ('d1', 1, 'old', '{}', '{}', "
                "'2026.11.0', '2026-01-01', '2026-01-01 00:00:00')"
            )
        )
        for label in ("first", "second"):
            connection.execute(
                text(
                    "INSERT INTO design_audits (revision_id, created_at, label, report_json) "
                    "VALUES (1, '2026-01-02 00:00:00', :label, :report)"
                ),
                {"label": label, "report": json.dumps(old)},
            )
        connection.execute(
            text(
                "INSERT INTO as_built_checks (revision_id, created_at, host, result_json) "
                "VALUES (1, '2026-01-03 00:00:00', 'db01', :result)"
            ),
            {"result": result.model_dump_json()},
        )
    engine.dispose()

    settings = Settings(DATABASE_URL=empty_database)
    with TestClient(create_app(settings, kb=kb)) as c:
        page = c.get("/api/v1/designs/d1/audits").json()
        assert page["total"] == 2 and [a["label"] for a in page["items"]] == ["second", "first"]
        summary = page["items"][0]
        assert summary["severity_counts"] == _severities(old["findings"])
        assert summary["ignored_count"] == {"fstab": 500}
        assert summary["score"] == old["score"] and summary["checked"] == old["checked"]
        full = c.get(f"/api/v1/designs/d1/audits/{summary['id']}").json()
        assert full["report"]["corrected"] == {}
        assert full["report"]["ignored_lines"]["fstab"] == list(range(10, 210))
        assert full["report"]["findings"] == old["findings"]
        checks = c.get("/api/v1/designs/d1/as-built").json()
        assert checks["items"][0]["host"] == "db01"
        assert checks["items"][0]["counts"] == result.model_dump(mode="json")["counts"]
        assert checks["items"][0]["unreadable_lines"] == 0

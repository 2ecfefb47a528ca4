"""Migration 0007: names, reviewers, comments, audit labels and kept findings saved before the
models refused control (Cc) and format (Cf) characters lose them, so that what was kept reads
back through the models: before it, the export of such a design answered 500."""

from __future__ import annotations

import importlib
import json
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from sqlalchemy import Engine, String, text

from nasplan.audit.compare import audit
from nasplan.data.db import make_engine
from nasplan.data.migrate import MIGRATIONS
from nasplan.designs.records import audit_figures
from nasplan.designs.schemas import Comment, DesignName, Label, Reviewer
from nasplan.domain import clean_text as rules
from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.postgres import throwaway_database

MIGRATION = importlib.import_module("nasplan.data.migrations.versions.0007_clean_text")
clean_name: Callable[[str], str] = MIGRATION.clean_name
clean_line: Callable[[str], str] = MIGRATION.clean_line
clean_comment: Callable[[str], str] = MIGRATION.clean_comment

PRESET = "example-linux-knfs-7mode"
OLD_FSTAB = (
    "filer01:/vol/ora_data  /u02/oradata  nfs  "
    "rw,bg,soft,intr,rsize=8192,wsize=8192,vers=3,proto=udp,actimeo=0  0 0\n"
)
# U+1343A is Cf since Unicode 15.0: Python 3.11's unicodedata (14.0) does not know it.
NEW_FORMAT = "\U0001343a"
EVERY_CODE_POINT = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


def _code_points(*groups: tuple[tuple[int, int], ...]) -> set[int]:
    return {c for ranges in groups for low, high in ranges for c in range(low, high + 1)}


ONE_LINE_REFUSED = _code_points(rules.CONTROL_RANGES, rules.FORMAT_RANGES, rules.LINE_SEPARATORS)
COMMENT_REFUSED = _code_points(rules.MULTI_LINE_CONTROLS, rules.FORMAT_RANGES)


# ---------------------------------------------------------------- the migration's rule


def test_it_removes_what_the_models_refuse_and_nothing_else() -> None:
    assert set(MIGRATION.ONE_LINE_REMOVED) == ONE_LINE_REFUSED
    assert set(MIGRATION.COMMENT_REMOVED) == COMMENT_REFUSED
    # Its own lists cover Cc and Cf as this Python knows them.
    known = {c for c in EVERY_CODE_POINT if unicodedata.category(chr(c)) in ("Cc", "Cf")}
    assert known <= set(MIGRATION.COMMENT_REMOVED) | {ord(c) for c in "\t\n\r"}
    assert known <= set(MIGRATION.ONE_LINE_REMOVED)


def test_what_it_leaves_passes_the_models() -> None:
    name = TypeAdapter(DesignName)
    reviewer = TypeAdapter(Reviewer)
    label = TypeAdapter(Label)
    comment = TypeAdapter(Comment)
    for c in map(chr, sorted(ONE_LINE_REFUSED | COMMENT_REFUSED)):
        dirty = f"{c} x{c}y {c}"
        assert name.validate_python(clean_name(dirty)) == "xy", hex(ord(c))
        assert reviewer.validate_python(clean_name(dirty)) == "xy", hex(ord(c))
        assert label.validate_python(clean_line(dirty)) == " xy ", hex(ord(c))
        kept = clean_comment(dirty)
        assert comment.validate_python(kept) == kept
        assert kept == (dirty if c in "\t\n\r\u2028\u2029" else " xy "), hex(ord(c))
    everything = "".join(map(chr, sorted(ONE_LINE_REFUSED)))
    assert name.validate_python(clean_name(everything + " \u00a0")) == "(unnamed)"
    # A name that loses nothing is left as it is, its spaces too.
    assert clean_name(" as it was ") == " as it was "


# ---------------------------------------------------------------- on a database kept at 0006


@pytest.fixture(params=["sqlite", "postgresql"])
def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "postgresql":
        with throwaway_database("nasplan_clean") as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'old.db'}"


def _migrate(engine: Engine, to: str, *, down: bool = False) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, to)


def _settings(url: str, *, migrate: bool) -> Settings:
    return Settings(
        DATABASE_URL=url, NASPLAN_RATE_LIMIT_COMPUTE="", NASPLAN_MIGRATE_ON_START=migrate
    )


def _rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    queries = {
        "designs": "SELECT id, name FROM designs ORDER BY id",
        "revisions": "SELECT id, design_id, name FROM revisions ORDER BY id",
        "reviews": "SELECT id, revision_id, reviewer, comment FROM reviews ORDER BY id",
        "audits": "SELECT id, revision_id, label, report_json FROM design_audits ORDER BY id",
    }
    with engine.connect() as connection:
        return {
            name: [tuple(row) for row in connection.execute(text(query))]
            for name, query in queries.items()
        }


def _create(c: TestClient, kb: KnowledgeBase, name: str, reviews: list[str]) -> str:
    platform = kb.presets[PRESET].platform
    created = c.post("/api/v1/designs", json={"name": name, "platform": platform})
    assert created.status_code == 201, created.text
    design = created.json()
    for reviewer in reviews:
        review = {"revision": 1, "reviewer": reviewer, "decision": "comment", "comment": "ok"}
        answer = c.post(
            f"/api/v1/designs/{design['id']}/reviews",
            json=review,
            headers={"X-Review-Token": design["review_token"]},
        )
        assert answer.status_code == 201, answer.text
    return str(design["id"])


def test_kept_text_is_cleaned_and_the_design_exports_again(
    kb: KnowledgeBase, old_database: str
) -> None:
    engine = make_engine(old_database)
    _migrate(engine, "head")
    # What the application wrote before the models refused these characters, through the app
    # as it is now and then as the older rules let it be; migration 0007 runs on it below.
    with TestClient(create_app(_settings(old_database, migrate=False), kb=kb)) as c:
        dirty = _create(c, kb, "dirty", ["Ann", "Bob"])
        clean = _create(c, kb, "Clean name", ["Cleo"])
    report = audit(kb, Platform.model_validate(kb.presets[PRESET].platform), {"fstab": OLD_FSTAB})
    old_report = json.loads(report.model_dump_json())
    old_report["findings"][0]["message"] = "\u202e" + old_report["findings"][0]["message"] + "\x85"
    comment = "line one\tcol\r\nline two\u202e\u0085\u200b\u2028end\x1b[0m\ufeff"
    with engine.begin() as connection:
        rows = connection.execute(text("SELECT design_id, id FROM revisions"))
        ids = {str(design): int(revision) for design, revision in rows}
        connection.execute(
            text("UPDATE designs SET name = :name WHERE id = :id"),
            {"name": f"\u202eevil\u200b na{NEW_FORMAT}me\u0085", "id": dirty},
        )
        connection.execute(
            text("UPDATE revisions SET name = :name WHERE id = :id"),
            {"name": "\u200b\ufeff\t\u00a0", "id": ids[dirty]},
        )
        connection.execute(
            text("UPDATE reviews SET reviewer = :who, comment = :comment WHERE reviewer = 'Ann'"),
            {"who": "\u00a0Ann\u202e\u009b", "comment": comment},
        )
        connection.execute(
            text("UPDATE reviews SET comment = :comment WHERE reviewer = 'Cleo'"),
            {"comment": "all\tgood\r\nhere\u2028 too"},
        )
        for revision_id, label, kept in (
            (ids[dirty], "\u202ebefore\u0085", old_report),
            (ids[dirty], "  after  ", json.loads(report.model_dump_json())),
            (ids[clean], " spaced\u00a0label ", json.loads(report.model_dump_json())),
        ):
            connection.execute(
                text(
                    "INSERT INTO design_audits (revision_id, created_at, label, report_json, "
                    "summary_json) VALUES (:revision, '2026-01-02 00:00:00', :label, :report, "
                    ":summary)"
                ),
                {
                    "revision": revision_id,
                    "label": label,
                    "report": json.dumps(kept, ensure_ascii=False),
                    "summary": audit_figures(report).model_dump_json(),
                },
            )
        first_audit = connection.execute(text("SELECT min(id) FROM design_audits")).scalar_one()

    before = _rows(engine)
    # Without the migration, the stricter models cannot read the dirty design back.
    old_app = create_app(_settings(old_database, migrate=False), kb=kb)
    with TestClient(old_app, raise_server_exceptions=False) as c:
        assert c.get(f"/api/v1/designs/{dirty}/export").status_code == 500
        assert c.get(f"/api/v1/designs/{dirty}/audits/{first_audit}").status_code == 500
        assert c.get(f"/api/v1/designs/{clean}/export").status_code == 200

    # Back to before 0007 (the later migrations only add columns, 0007 itself undoes nothing),
    # then up again through 0007.
    _migrate(engine, "0006", down=True)
    _migrate(engine, "head")
    after = _rows(engine)

    # The dirty values are cleaned, and nothing else changed: the other rows are as they were,
    # byte for byte.
    cleaned_report = json.loads(report.model_dump_json())
    expected = {
        "designs": [(i, "evil name" if i == dirty else name) for i, name in before["designs"]],
        "revisions": [
            (i, design, "(unnamed)" if i == ids[dirty] else name)
            for i, design, name in before["revisions"]
        ],
        "reviews": [
            (i, revision, "Ann", "line one\tcol\r\nline two\u2028end[0m")
            if who.endswith("\u009b")
            else (i, revision, who, said)
            for i, revision, who, said in before["reviews"]
        ],
        "audits": [
            (i, revision, "before", cleaned_report)
            if i == first_audit
            else (i, revision, label, kept)
            for i, revision, label, kept in before["audits"]
        ],
    }
    after["audits"] = [  # the rewritten report compared as JSON
        (i, revision, label, json.loads(kept) if i == first_audit else kept)
        for i, revision, label, kept in after["audits"]
    ]
    assert after == expected
    assert [row[2:] for row in after["reviews"]][-1] == ("Cleo", "all\tgood\r\nhere\u2028 too")
    assert [row[2] for row in after["audits"]] == ["before", "  after  ", " spaced\u00a0label "]
    engine.dispose()

    with TestClient(create_app(_settings(old_database, migrate=True), kb=kb)) as c:
        exported = c.get(f"/api/v1/designs/{dirty}/export")
        assert exported.status_code == 200, exported.text
        document = exported.json()
        assert document["name"] == "evil name"
        assert document["revisions"][0]["name"] == "(unnamed)"
        assert [(r["reviewer"], r["comment"]) for r in document["revisions"][0]["reviews"]] == [
            ("Ann", "line one\tcol\r\nline two\u2028end[0m"),
            ("Bob", "ok"),
        ]
        detail = c.get(f"/api/v1/designs/{dirty}/audits/{first_audit}")
        assert detail.status_code == 200, detail.text
        assert detail.json()["label"] == "before"
        # The cleaned export is one the site takes back.
        imported = c.post("/api/v1/designs/import", json=document)
        assert imported.status_code == 201, imported.text


def test_it_goes_through_every_batch(old_database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows past the first batches are cleaned too; keys are compared as the database orders
    them (design ids are text)."""
    engine = make_engine(old_database)
    _migrate(engine, "head")
    monkeypatch.setattr(MIGRATION, "BATCH", 2)
    names = {f"d{n:02}": f"name {n}" + ("\u202e" if n % 3 == 0 else "") for n in range(11)}
    with engine.begin() as connection:
        for design_id, name in names.items():
            connection.execute(
                text(
                    "INSERT INTO designs (id, name, edit_token_hash, review_token_hash, "
                    "created_at) VALUES (:id, :name, 'e', 'r', '2026-01-01 00:00:00')"
                ),
                {"id": design_id, "name": name},
            )
        MIGRATION._clean_columns(connection, "designs", ("id", String()), {"name": clean_name})
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT id, name FROM designs"))
        stored = {str(design_id): str(name) for design_id, name in rows}
    assert stored == {design_id: f"name {int(design_id[1:])}" for design_id in names}
    engine.dispose()

"""Saved plans are stored packed (compressed, explanations once per content) and read back byte
for byte; revisions saved before the packing still read as they were."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text

from nasplan.data.db import make_engine, make_session_factory
from nasplan.data.migrate import MIGRATIONS, upgrade
from nasplan.data.models import PlanPartRow, RevisionRow
from nasplan.data.plan_codec import entries, explanations, splice, split
from nasplan.knowledge.base import KnowledgeBase


def _save(c: TestClient, kb: KnowledgeBase, preset: str, name: str) -> tuple[str, bytes]:
    platform = kb.presets[preset].platform
    created = c.post("/api/v1/designs", json={"name": name, "platform": platform})
    assert created.status_code == 201, created.text
    design_id = created.json()["id"]
    saved = c.get(f"/api/v1/designs/{design_id}/revisions/1")
    return design_id, saved.content


def test_a_saved_plan_is_packed_and_reads_back_the_same(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    first, before = _save(c, kb, "tr3322-lab", "one")
    second, _ = _save(c, kb, "tr3322-lab", "two")
    third, _ = _save(c, kb, "current-linux-ontap", "three")
    app = c.app
    with app.state.session_factory() as session:  # type: ignore[attr-defined]
        ours = (first, second, third)
        rows = session.scalars(select(RevisionRow).where(RevisionRow.design_id.in_(ours))).all()
        assert len(rows) == 3 and all(r.plan_text == "" and r.plan_z for r in rows)
        by_design = {r.design_id: r for r in rows}
        # The same platform cites the same explanations: one stored copy for both.
        assert by_design[first].rules_digest == by_design[second].rules_digest
        assert by_design[first].rules_digest != by_design[third].rules_digest
        manifests = {r.rules_digest for r in rows}
        count = select(func.count()).select_from(PlanPartRow)
        assert session.scalar(count.where(PlanPartRow.digest.in_(manifests))) == 2
        # Each manifest lists one part per cited rule; a rule cited by both plans is stored once.
        lists = {
            digest: json.loads(zlib.decompress(body).decode())
            for digest, body in session.execute(
                select(PlanPartRow.digest, PlanPartRow.body).where(
                    PlanPartRow.digest.in_(manifests)
                )
            )
        }
        first_list = lists[by_design[first].rules_digest or ""]
        third_list = lists[by_design[third].rules_digest or ""]
        shared = set(first_list) & set(third_list)
        assert shared, "the two presets cite some rule in common"
        every = set(first_list) | set(third_list)
        assert session.scalar(count.where(PlanPartRow.digest.in_(every))) == len(every)
        assert len(every) < len(first_list) + len(third_list)
        packed = by_design[first]
        assert packed.plan_z is not None
        plan = packed.plan_json
        stored = len(packed.plan_z) + len(packed.platform_json)
        assert len(plan) > 40_000 and stored < len(plan) / 5
        cited = json.loads(plan)["rules"]
        assert len(first_list) == len(cited)
        one_part = session.scalars(
            select(PlanPartRow.body).where(PlanPartRow.digest == first_list[0])
        ).one()
        member = zlib.decompress(one_part).decode()
        assert member.startswith(json.dumps(next(iter(cited))) + ":{") and member in plan
    # Reading again gives exactly what was read right after saving.
    assert c.get(f"/api/v1/designs/{first}/revisions/1").content == before


def test_split_and_splice_are_inverse() -> None:
    full = '{"a":1,"rules":{"X":{"id":"X","title":"t {}"}},"b":"\\"rules\\":{}"}'
    short = '{"a":1,"rules":{},"b":"\\"rules\\":{}"}'
    rules = split(full, short)
    assert rules == '{"X":{"id":"X","title":"t {}"}}'
    assert splice(short, rules) == full


def test_members_are_exact_substrings() -> None:
    text = '{"A":{"t":"x, \\"y\\": {}"},"B-1":[1,2],"C":"}"}'
    members = entries(text)
    assert members == ['"A":{"t":"x, \\"y\\": {}"}', '"B-1":[1,2]', '"C":"}"']
    assert "{" + ",".join(members) + "}" == text
    # Not compact, empty or not an object: stored whole instead.
    for other in ('{"A": 1}', "{}", "[1]", '{"A":1,}', '{"A":1}x'):
        assert entries(other) is None, other


def test_a_part_packed_whole_reads_as_saved() -> None:
    """Revisions packed before manifests name one part with all their explanations."""
    whole = '{"X":{"id":"X"}}'
    parts = {"d": zlib.compress(whole.encode())}
    assert explanations("d", lambda wanted: {k: parts[k] for k in wanted if k in parts}) == whole


def test_a_missing_part_is_an_error_not_a_partial_plan() -> None:
    manifest = zlib.compress(b'["a","b"]')
    parts = {"m": manifest, "a": zlib.compress(b'"A":1')}
    load = lambda wanted: {k: parts[k] for k in wanted if k in parts}  # noqa: E731
    with pytest.raises(LookupError, match="b"):
        explanations("m", load)
    with pytest.raises(LookupError, match="gone"):
        explanations("gone", load)


def test_revisions_saved_before_packing_read_as_they_were(
    tmp_path: Path,
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
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
                "kb_version, as_of, created_at) VALUES ('d1', 1, 'old', '{}', :plan, "
                "'2026.11.0', '2026-01-01', '2026-01-01 00:00:00')"
            ),
            {"plan": '{"legacy":true}'},
        )
    upgrade(engine)
    with make_session_factory(engine)() as session:
        row = session.scalars(select(RevisionRow)).one()
        assert row.plan_z is None and row.plan_json == '{"legacy":true}'
    engine.dispose()

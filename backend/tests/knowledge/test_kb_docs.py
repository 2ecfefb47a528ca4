"""The generated reference pages of knowledge/ are checked in; they must match the code and rules
that produce them, as the generated API client must match the API."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from nasplan.cli import main
from nasplan.kb_docs import generated_docs, stale_docs
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.conditions import CONDITION_FIELDS

KNOWLEDGE = Path(__file__).resolve().parents[3] / "knowledge"


def test_checked_in_docs_are_up_to_date(kb: KnowledgeBase) -> None:
    assert stale_docs(KNOWLEDGE, kb) == [], "run: .venv/bin/nasplan kb docs"


def test_docs_name_every_condition_field_and_every_rule(kb: KnowledgeBase) -> None:
    docs = generated_docs(kb)
    for name in CONDITION_FIELDS:
        assert f"| `{name}` |" in docs["docs/conditions.md"]
    for rule in kb.rules.values():
        assert f"[{rule.id}](../rules/{rule.category}/{rule.id}.yaml)" in docs["docs/rules.md"]
        assert (KNOWLEDGE / "rules" / rule.category / f"{rule.id}.yaml").is_file()


def test_rule_schema_describes_a_rule_file(kb: KnowledgeBase) -> None:
    schema = json.loads(generated_docs(kb)["docs/rule.schema.json"])
    assert schema["additionalProperties"] is False
    assert {"id", "title", "category", "effects", "sources", "tests"} <= set(schema["required"])
    conditions = schema["$defs"]["Conditions"]["properties"]
    assert set(CONDITION_FIELDS) | {"any_of", "none_of"} == set(conditions)


def test_kb_docs_check_names_a_stale_page_and_docs_rewrites_it(tmp_path: Path) -> None:
    root = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, root)
    page = root / "docs" / "rules.md"
    page.write_text(page.read_text(encoding="utf-8") + "an edit by hand\n", encoding="utf-8")
    assert main(["kb", "docs", str(root), "--check"]) == 1
    assert main(["kb", "docs", str(root)]) == 0
    assert main(["kb", "docs", str(root), "--check"]) == 0


def test_the_rule_schema_is_the_same_after_the_app_built_its_openapi(kb: KnowledgeBase) -> None:
    """FastAPI once leaked a response field's description into the shared core schema of
    Conditions, so the rule schema depended on what the process had done before."""
    from nasplan.main import create_app
    from nasplan.settings import Settings

    create_app(Settings(DATABASE_URL="sqlite://")).openapi()
    assert stale_docs(KNOWLEDGE, kb) == []

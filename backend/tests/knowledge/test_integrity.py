"""The knowledge base is complete and consistent: sources, dates, links, coverage."""

from __future__ import annotations

import string
from pathlib import Path

import yaml

from nasplan.engine.messages import message_context
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.cross_check import check_rule_cases
from nasplan.knowledge.loader import DEFAULT_KNOWLEDGE_DIR
from nasplan.knowledge.resolve import resolve
from tests.conftest import preset_platform


def test_loads_with_release_and_changelog(kb: KnowledgeBase) -> None:
    assert kb.version == kb.release.version
    assert f"## {kb.version}" in kb.changelog
    assert len(kb.rules) >= 90


def test_every_rule_case_is_a_valid_platform(kb: KnowledgeBase) -> None:
    assert check_rule_cases(kb) == []


def test_rules_take_effect_no_earlier_than_their_sources(kb: KnowledgeBase) -> None:
    early = []
    undated_but_exact = []
    for rule in kb.rules.values():
        if rule.category == "compatibility":
            continue  # statements about what the knowledge base covers, not dated advice
        dated = [ref.edition or kb.sources[ref.id].published for ref in rule.sources]
        known = [d for d in dated if d is not None]
        if not known:
            # Only undated pages: the date is the day they were read, which is not exact.
            if rule.date_confidence == "exact" or rule.date_note is None:
                undated_but_exact.append(rule.id)
            continue
        if rule.effective_from < min(known):
            early.append((rule.id, rule.effective_from, min(known)))
    assert early == []
    assert undated_but_exact == []


def test_editions_exist_only_for_revised_sources(kb: KnowledgeBase) -> None:
    for rule in kb.rules.values():
        for ref in rule.sources:
            if ref.edition is not None:
                source = kb.sources[ref.id]
                known = (source.published, source.revised, *source.editions)
                assert ref.edition in known, (rule.id, ref)


def test_message_placeholders_are_known(kb: KnowledgeBase) -> None:
    known = set(message_context(kb, resolve(kb, preset_platform(kb, "tr3322-lab"))))
    formatter = string.Formatter()
    for rule in kb.rules.values():
        texts = [f.message for f in rule.effects.findings]
        texts += [c.expect for c in rule.effects.checks]
        texts += [cmd for c in rule.effects.checks for cmd in c.commands.values()]
        texts += [s.scope for s in rule.effects.settings if s.scope]
        for text in texts:
            names = {name for _, name, _, _ in formatter.parse(text) if name}
            assert names <= known, (rule.id, names - known)


def test_every_source_is_cited(kb: KnowledgeBase) -> None:
    cited = {ref.id for rule in kb.rules.values() for ref in rule.sources}
    cited |= {ref.id for fact in kb.facts for ref in fact.sources}
    cited |= {ref.id for ref in kb.expectations.sources()}
    cited |= {ref.id for ref in kb.sizing.sources()}
    cited |= {ref.id for ref in kb.lifecycle.sources()}
    cited |= {gain.source.id for gain in kb.gains}
    cited |= {default.source.id for default in kb.os_defaults}
    for vendor in kb.filers.vendors.values():
        for family in vendor.families:
            figures = [
                *family.service_levels.values(),
                family.volume_max_mib_s,
                family.throughput_capacities,
            ]
            cited |= {f.source.id for f in figures if f is not None and f.source is not None}
            if family.max_xfer_source is not None:
                cited.add(family.max_xfer_source.id)
            if family.export_separator_source is not None:
                cited.add(family.export_separator_source.id)
    assert set(kb.sources) - cited == set()


def test_conflicts_name_rules_that_can_meet(kb: KnowledgeBase) -> None:
    for conflict in kb.conflicts:
        losers = {r for side in conflict.losers for r in side.rules}
        assert not losers & set(conflict.winner.rules), conflict.id


def test_supersession_points_back_in_time(kb: KnowledgeBase) -> None:
    for rule in kb.rules.values():
        for old in rule.supersedes:
            assert kb.rules[old].effective_from < rule.effective_from, (rule.id, old)


def _model_path_exists(kb: KnowledgeBase, path: str) -> bool:
    node: object = kb.expectations
    for part in path.split("."):
        if not hasattr(node, part):
            return False
        node = getattr(node, part)
    return True


def test_every_seed_fact_is_held(kb: KnowledgeBase) -> None:
    coverage = yaml.safe_load((Path(DEFAULT_KNOWLEDGE_DIR) / "coverage.yaml").read_text())
    items = coverage["items"]
    assert sorted(items) == list(range(1, 55))
    fact_ids = {f.id for f in kb.facts}
    for number, entry in items.items():
        assert entry["holds"], number
        for held in entry["holds"]:
            assert held in kb.rules or held in fact_ids, (number, held)
        for path in entry.get("model", []):
            assert _model_path_exists(kb, path), (number, path)


def test_rule_files_sit_in_their_category_folder(kb: KnowledgeBase) -> None:
    root = Path(DEFAULT_KNOWLEDGE_DIR) / "rules"
    for path in root.rglob("*.yaml"):
        rule = kb.rules[path.stem]
        assert path.parent.name == rule.category, (path, rule.category)

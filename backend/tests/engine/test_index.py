"""The rule index narrows without changing an answer: for every reference platform (presets,
every rule test case, the regression corpus) the rules that fire are exactly those a full scan
finds, and a knowledge base grown with silent rules evaluates about as many candidates."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from statistics import mean

import pytest
from packaging.version import Version

from nasplan.domain.platform import Platform
from nasplan.engine.conditions import FIELD_READERS, fields_set
from nasplan.engine.evaluate import compiled_predicates, evaluate, in_effect
from nasplan.engine.index import keys_of, rule_index
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.conditions import CONDITION_FIELDS, NESTED_CONDITIONS, Conditions, IntRange
from nasplan.knowledge.loader import load_knowledge
from nasplan.knowledge.resolve import ResolvedPlatform, resolve
from tests.corpus.render import PLATFORMS_FILE
from tests.gen_kb_script import load_gen_kb

GEN = load_gen_kb()


def _full_scan(kb: KnowledgeBase, resolved: ResolvedPlatform) -> list[str]:
    predicates = compiled_predicates(kb)
    return [
        rule_id
        for rule_id, rule in kb.rules.items()
        if in_effect(rule, resolved.as_of) and predicates[rule_id](resolved)
    ]


def _applicable(kb: KnowledgeBase, resolved: ResolvedPlatform) -> list[str]:
    evaluation = evaluate(kb, resolved)
    return sorted([r.id for r in evaluation.fired] + list(evaluation.superseded))


@pytest.fixture(scope="module")
def references(kb: KnowledgeBase) -> list[ResolvedPlatform]:
    platforms: list[ResolvedPlatform] = GEN.reference_platforms(kb, PLATFORMS_FILE)
    assert len(platforms) > 300
    return platforms


def test_the_index_finds_exactly_what_a_full_scan_finds(
    kb: KnowledgeBase, references: list[ResolvedPlatform]
) -> None:
    index = rule_index(kb)
    for resolved in references:
        scanned = _full_scan(kb, resolved)
        candidates = index.candidates(resolved)
        assert set(scanned) <= set(candidates)
        assert candidates == sorted(candidates, key=list(kb.rules).index)
        assert _applicable(kb, resolved) == sorted(scanned)


def test_most_rules_are_filed_under_a_field(kb: KnowledgeBase) -> None:
    index = rule_index(kb)
    assert len(index.unkeyed) < len(kb.rules) / 4
    assert {"os", "os_release", "filer_family", "dnfs"} <= set(index.buckets)


def test_keys_name_the_values_each_condition_accepts(kb: KnowledgeBase) -> None:
    cond = Conditions(
        os=["solaris"],
        os_release=">=9u5,<10",
        dnfs=True,
        memory_gb=IntRange(min=24, max=24),
        nic_count=IntRange(min=2),
        oracle="==19.0.0.3",
        filer_vendor=["netapp"],
        filer_release=">=7.0",
    )
    keys = keys_of(kb, cond)
    assert keys["os"] == {"solaris"} and keys["dnfs"] == {True}
    assert keys["memory_gb"] == {24}
    assert "nic_count" not in keys and "filer_release" not in keys  # open ranges
    assert {str(v) for v in keys["oracle"]} == {"19.0.0.3"}
    # The OS release is filed under the catalog's release keys (what the predicate compares).
    by_key = {rel.key: rel.id for rel in kb.os["solaris"].releases}
    releases = {by_key[str(key)] for key in keys["os_release"]}
    assert "9u5" in releases and "10" not in releases and "8" not in releases


def test_silent_rules_add_few_candidates(
    kb: KnowledgeBase, references: list[ResolvedPlatform], tmp_path: Path
) -> None:
    GEN.generate(4, tmp_path / "kb4", kb=kb)
    scaled = load_knowledge(tmp_path / "kb4")
    assert len(scaled.rules) == 4 * len(kb.rules)
    base = mean(len(rule_index(kb).candidates(r)) for r in references)
    grown = mean(len(rule_index(scaled).candidates(r)) for r in references[::10])
    # Three times as many rules, all silent here: the candidates grow by a small fraction.
    assert grown < base * 1.25, (base, grown)
    for resolved in references[::10]:
        assert _applicable(scaled, resolved) == sorted(_full_scan(scaled, resolved))


def test_every_condition_field_reads_a_value_of_its_kind(
    references: list[ResolvedPlatform],
) -> None:
    """Each declared field reads something real on a resolved platform, of the type its kind
    compares: a typo in `reads` or a kind that does not fit the field fails here."""
    assert set(CONDITION_FIELDS) == set(Conditions.model_fields) - set(NESTED_CONDITIONS)
    expected: dict[str, tuple[type, ...]] = {
        "one_of": (str,),
        "equals": (bool, int, str),
        "int_range": (int, type(None)),
        "version_range": (Version, type(None)),
        "os_release_range": (Version,),
    }
    for name, spec in CONDITION_FIELDS.items():
        annotation = str(Conditions.model_fields[name].annotation)
        assert ("list[" in annotation) == (spec.kind == "one_of"), name
        assert ("IntRange" in annotation) == (spec.kind == "int_range"), name
        for resolved in references[:40]:
            value = FIELD_READERS[name](resolved)
            assert isinstance(value, expected[spec.kind]), (name, value)


def test_platforms_alike_in_what_rules_read_share_one_evaluation(
    kb: KnowledgeBase, references: list[ResolvedPlatform]
) -> None:
    """The memo answers a platform from another one's evaluation only when no condition can
    tell them apart: each such answer still equals a full scan of the platform itself."""
    read = set().union(*(fields_set(rule.when) for rule in kb.rules.values()))
    assert "memory_gb" not in read and "db_name" not in read
    for resolved in references[:120]:
        first = evaluate(kb, resolved)
        host = resolved.platform.host.model_copy(update={"memory_gb": 4096, "hostname": "h2"})
        layout = resolved.platform.layout.model_copy(update={"db_name": "OTHER"})
        twin = replace(
            resolved, platform=resolved.platform.model_copy(update={"host": host, "layout": layout})
        )
        assert evaluate(kb, twin) is first
        assert _applicable(kb, twin) == sorted(_full_scan(kb, twin))


def test_a_field_some_rule_reads_tells_platforms_apart(kb: KnowledgeBase) -> None:
    platform = kb.presets["tr3322-lab"].platform
    single = resolve(kb, Platform.model_validate(platform))
    oracle = single.platform.oracle.model_copy(update={"rac": True, "rac_nodes": 2})
    rac = replace(single, platform=single.platform.model_copy(update={"oracle": oracle}))
    assert evaluate(kb, rac) is not evaluate(kb, single)
    assert _applicable(kb, rac) == sorted(_full_scan(kb, rac)) != _applicable(kb, single)

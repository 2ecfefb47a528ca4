"""The parsed-rule cache: a restart with unchanged rule files skips YAML, any change to a file
is seen, and a cache that cannot be written or read changes nothing."""

from __future__ import annotations

import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

from nasplan.knowledge import parsed_cache
from nasplan.knowledge.loader import DEFAULT_KNOWLEDGE_DIR, KnowledgeError, load_knowledge


@pytest.fixture
def knowledge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NASPLAN_CACHE_DIR", str(tmp_path / "cache"))
    copy = tmp_path / "knowledge"
    shutil.copytree(DEFAULT_KNOWLEDGE_DIR, copy)
    return copy


def _no_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule files are parsed from bytes, the catalog from open files: refuse the former."""
    real_load = yaml.load

    def refuse(stream: Any, Loader: type) -> object:
        if isinstance(stream, bytes):
            raise AssertionError("a rule file was parsed again")
        return real_load(stream, Loader=Loader)

    monkeypatch.setattr(yaml, "load", refuse)


def test_unchanged_rules_load_from_the_cache_and_equal_the_parsed_ones(
    knowledge: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed = load_knowledge(knowledge)
    assert len(list((knowledge.parent / "cache").glob("rules-*.json"))) == 1
    with monkeypatch.context() as m:
        # Only the rule files come from the cache; the catalog is still read as YAML.
        real_load = yaml.load
        calls: list[str] = []

        def counting(stream: bytes | str, Loader: type) -> object:
            calls.append(type(stream).__name__)
            return real_load(stream, Loader=Loader)

        m.setattr(yaml, "load", counting)
        cached = load_knowledge(knowledge)
    assert "bytes" not in calls  # rule files are read as bytes; none was parsed
    assert cached.rules == parsed.rules


def test_a_changed_rule_file_is_parsed_again(
    knowledge: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_knowledge(knowledge)
    path = next((knowledge / "rules").rglob("NTAP-MINRA-OFF.yaml"))
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("title: ", "title: Changed ", 1), encoding="utf-8")
    reloaded = load_knowledge(knowledge)
    assert reloaded.rules["NTAP-MINRA-OFF"].title.startswith("Changed ")
    path.write_text("id: [unclosed\n", encoding="utf-8")
    with pytest.raises(KnowledgeError, match=r"NTAP-MINRA-OFF\.yaml: not valid YAML"):
        load_knowledge(knowledge)
    _no_yaml(monkeypatch)
    path.write_text(text, encoding="utf-8")
    # Back to the first content: its cache entry is used again, no YAML parsed.
    load_knowledge(knowledge)


def test_cached_data_is_validated_again(knowledge: Path) -> None:
    load_knowledge(knowledge)
    cache_file = next((knowledge.parent / "cache").glob("rules-*.json"))
    cache_file.write_text(
        cache_file.read_text().replace('"effective_from":"', '"effective_from":"x', 1)
    )
    with pytest.raises(KnowledgeError, match="effective_from"):
        load_knowledge(knowledge)


def test_an_unusable_cache_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("NASPLAN_CACHE_DIR", str(blocker / "cache"))
    assert len(load_knowledge(DEFAULT_KNOWLEDGE_DIR).rules) > 100
    assert parsed_cache.read("0" * 64) is None
    monkeypatch.setenv("NASPLAN_CACHE_DIR", str(tmp_path / "garbage"))
    (tmp_path / "garbage").mkdir()
    key = parsed_cache.digest([("x", b"y")])
    (tmp_path / "garbage" / f"rules-{key}.json").write_text("{not json")
    assert parsed_cache.read(key) is None


def test_a_large_base_is_parsed_on_several_cores_with_the_same_result(
    knowledge: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nasplan.knowledge import loader

    serial = load_knowledge(knowledge)
    shutil.rmtree(knowledge.parent / "cache")
    monkeypatch.setattr(loader, "_PARALLEL_FROM", 10)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    pools: list[int] = []

    class CountedPool(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **kwargs: Any) -> None:
            pools.append(max_workers)
            super().__init__(max_workers, **kwargs)

    monkeypatch.setattr(loader, "ProcessPoolExecutor", CountedPool)
    parallel = load_knowledge(knowledge)
    assert pools == [3]
    assert list(parallel.rules) == list(serial.rules) and parallel.rules == serial.rules
    # A broken file among many is still reported by name, in order, and nothing else is lost.
    texts = [f"id: R{i}\n".encode() for i in range(12)]
    texts[7] = b"id: [unclosed\n"
    results = loader._parse_all(texts)
    assert [type(r).__name__ for r in results].count("_YamlProblem") == 1
    assert isinstance(results[7], loader._YamlProblem)
    assert [r.document for r in results if isinstance(r, loader._Parsed)][:7] == [
        {"id": f"R{i}"} for i in range(7)
    ]

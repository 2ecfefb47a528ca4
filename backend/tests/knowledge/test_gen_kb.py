"""scripts/gen_kb.py: a knowledge base scaled x3 loads, holds 3x the rules, and plans every
reference platform exactly as the real knowledge base does (its synthetic rules stay silent)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import DEFAULT_KNOWLEDGE_DIR, load_knowledge
from nasplan.knowledge.merge import deep_merge
from tests.conftest import TODAY
from tests.corpus.render import load_corpus
from tests.gen_kb_script import load_gen_kb

FACTOR = 3
CORPUS = load_corpus()
# Every third corpus platform: labs 2004-2010, RAC, AIX, HP-UX, Linux, cloud filers.
CORPUS_SAMPLE = CORPUS[::3]
PRESETS = [
    str(p["id"])
    for p in yaml.safe_load(
        (DEFAULT_KNOWLEDGE_DIR / "catalog" / "presets.yaml").read_text(encoding="utf-8")
    )["presets"]
]


GEN = load_gen_kb()


@pytest.fixture(scope="module")
def generated(
    kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Any, KnowledgeBase]:
    out = tmp_path_factory.mktemp("kb") / f"kb{FACTOR}"
    report = GEN.generate(FACTOR, out, kb=kb)
    return report, load_knowledge(out)


def test_scaled_kb_has_factor_times_the_rules(
    kb: KnowledgeBase, generated: tuple[Any, KnowledgeBase]
) -> None:
    report, scaled = generated
    real = set(kb.rules)
    assert len(scaled.rules) == FACTOR * len(kb.rules)
    assert real <= set(scaled.rules)
    synthetic = set(scaled.rules) - real
    assert len(synthetic) == (FACTOR - 1) * len(kb.rules)
    assert synthetic == set(report.extras)
    assert report.real_rules == len(kb.rules)
    assert report.synthetic_rules == len(synthetic)
    assert scaled.version == kb.version
    assert scaled.superseded_by == kb.superseded_by
    assert scaled.conflicts == kb.conflicts
    # Each real rule is copied FACTOR - 1 times.
    originals = sorted(original for original, _, _ in report.extras.values())
    assert originals == sorted(list(real) * (FACTOR - 1))
    for rule_id, (original_id, family, extra) in report.extras.items():
        rule, original = scaled.rules[rule_id], kb.rules[original_id]
        assert rule_id.startswith("SYN-") and rule_id.endswith(original_id)
        assert rule.supersedes == []
        assert rule.effects == original.effects
        assert rule.sources == original.sources
        assert (rule.effective_from, rule.retired_on) == (
            original.effective_from,
            original.retired_on,
        )
        assert family in {"os_release", "filer_release", "oracle", "nic_driver"} or (
            family in extra
        )
        # The original conditions are kept (lists only narrowed to the extra's single value),
        # the extra ones added.
        when = rule.when.model_dump(exclude_none=True)
        for key, value in original.when.model_dump(exclude_none=True).items():
            if key in ("os", "filer_vendor") and key in extra:
                assert set(extra[key]) <= set(value)
            else:
                assert when[key] == value, (rule_id, key)
        for key, value in extra.items():
            assert rule.when.model_dump(exclude_none=True)[key] == value


def test_extra_conditions_spread_over_fields(generated: tuple[Any, KnowledgeBase]) -> None:
    report, _ = generated
    assert len(report.by_family) >= 6, report.by_family
    assert max(report.by_family.values()) <= report.synthetic_rules // 4, report.by_family
    assert report.reference_platforms > len(CORPUS)


def _same_plan(kb: KnowledgeBase, scaled: KnowledgeBase, platform: Platform) -> None:
    real = make_plan(kb, platform, TODAY)
    assert real.applied_rules, "the platform should get some advice"
    assert all(not r.startswith("SYN-") for r in real.applied_rules)
    assert make_plan(scaled, platform, TODAY).model_dump_json() == real.model_dump_json()


@pytest.mark.parametrize("entry", CORPUS_SAMPLE, ids=[e.id for e in CORPUS_SAMPLE])
def test_corpus_plans_identical(
    kb: KnowledgeBase, generated: tuple[Any, KnowledgeBase], entry: Any
) -> None:
    _same_plan(kb, generated[1], entry.platform())


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_plans_identical(
    kb: KnowledgeBase, generated: tuple[Any, KnowledgeBase], preset: str
) -> None:
    _same_plan(kb, generated[1], Platform.model_validate(kb.presets[preset].platform))


_PATCH: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "memory_gb": lambda v: {"host": {"memory_gb": v["min"]}},
    "nic_count": lambda v: {"network": {"nic_count": v["min"]}},
    "switch_hops": lambda v: {"network": {"switch_hops": v["min"]}},
    "router_hops": lambda v: {"network": {"router_hops": v["min"]}},
}


def test_synthetic_rules_fire_where_their_extra_condition_holds(
    kb: KnowledgeBase, generated: tuple[Any, KnowledgeBase]
) -> None:
    """Not dead code: on a platform given the extra value, copies of firing rules fire too."""
    report, scaled = generated
    fired: dict[str, int] = dict.fromkeys(_PATCH, 0)
    for rule_id, (original_id, family, extra) in report.extras.items():
        if family not in _PATCH:
            continue
        case = kb.rules[original_id].tests.fires[0]
        patch = deep_merge(case.patch, _PATCH[family](extra[family]))
        data = deep_merge(kb.presets[case.preset].platform, patch)
        if case.as_of is not None:
            data["as_of"] = case.as_of.isoformat()
        try:
            platform = Platform.model_validate(data)
        except ValueError:  # the patched value is outside what the platform allows
            continue
        plan = make_plan(scaled, platform, TODAY)
        fired[family] += rule_id in plan.applied_rules and original_id in plan.applied_rules
    assert all(count > 0 for count in fired.values()), fired


def test_refuses_factor_below_one(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        GEN.generate(0, tmp_path / "kb0", DEFAULT_KNOWLEDGE_DIR)

"""Load ``knowledge/`` and refuse to start when any file is wrong.

Errors name the file, the rule id (where there is one) and the field, e.g.::

    knowledge/rules/filer/NTAP-MINRA-OFF.yaml: rule NTAP-MINRA-OFF: field when.filer_release:
    not a version range like '>=9.2,<11': '6.5.1+'
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from packaging.specifiers import SpecifierSet
from pydantic import BaseModel, ValidationError

from nasplan.domain.platform import Platform
from nasplan.knowledge import parsed_cache
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import (
    ExpectationInputs,
    FactCatalog,
    FilerCatalog,
    GainCatalog,
    LayoutCatalog,
    MountOptionCatalog,
    NetworkCatalog,
    OracleCatalog,
    OsEntry,
    PresetCatalog,
    SizingInputs,
)
from nasplan.knowledge.merge import deep_merge
from nasplan.knowledge.resolve import CatalogError, resolve
from nasplan.knowledge.schema import Conditions, Conflict, KbRelease, Rule, Source, SourceRef

DEFAULT_KNOWLEDGE_DIR = Path(__file__).resolve().parents[3] / "knowledge"

M = TypeVar("M", bound=BaseModel)


class KnowledgeError(Exception):
    """The knowledge base on disk is not valid; the message lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("invalid knowledge base:\n  " + "\n  ".join(problems))
        self.problems = problems


# libyaml's C parser when PyYAML was built with it (the wheels are): the same safe constructor,
# about ten times faster on a large knowledge base.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class _Parsed:
    document: Any


@dataclass(frozen=True)
class _YamlProblem:
    message: str


def _parse_chunk(chunk: list[bytes]) -> list[_Parsed | _YamlProblem]:
    parsed: list[_Parsed | _YamlProblem] = []
    for data in chunk:
        try:
            parsed.append(_Parsed(yaml.load(data, Loader=_SafeLoader)))
        except yaml.YAMLError as exc:
            parsed.append(_YamlProblem(str(exc)))
    return parsed


# Below this many files one process parses them sooner than several can start.
_PARALLEL_FROM = 2000


def _parse_all(files: list[bytes]) -> list[_Parsed | _YamlProblem]:
    """Parse every rule file, in order. Building Python objects from YAML is most of a cold
    start of a large knowledge base (about 4 s for 12,600 rules on one core), so a large one is
    split across the machine's cores; the results are the same either way."""
    workers = min(os.cpu_count() or 1, 8)
    if len(files) < _PARALLEL_FROM or workers < 2:
        return _parse_chunk(files)
    size = -(-len(files) // workers)
    chunks = [files[at : at + size] for at in range(0, len(files), size)]
    # fork where there is one: the workers need nothing but this module, already imported.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=len(chunks), mp_context=context) as pool:
        return [item for parsed in pool.map(_parse_chunk, chunks) for item in parsed]


def _read_yaml(path: Path) -> Any:
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_SafeLoader)


def _describe(error: ValidationError, where: str) -> list[str]:
    return [
        f"{where}: field {'.'.join(str(p) for p in item['loc']) or '(root)'}: {item['msg']}"
        for item in error.errors()
    ]


class _Loader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[str] = []

    def rel(self, path: Path) -> str:
        return f"knowledge/{path.relative_to(self.root)}"

    def model(self, model: type[M], path: Path, data: Any | None = None) -> M | None:
        try:
            raw = _read_yaml(path) if data is None else data
            return model.model_validate(raw)
        except FileNotFoundError:
            self.problems.append(f"{self.rel(path)}: file missing")
        except yaml.YAMLError as exc:
            self.problems.append(f"{self.rel(path)}: not valid YAML: {exc}")
        except ValidationError as exc:
            self.problems.extend(_describe(exc, self.rel(path)))
        return None

    def rule_documents(self) -> list[tuple[Path, Any]]:
        """Each rule file and its parsed content, from the parsed-file cache when no rule file
        changed; a file that is not valid YAML is reported and left out."""
        paths = sorted((self.root / "rules").rglob("*.yaml"))
        prefix = len(str(self.root)) + 1
        files = [(str(p)[prefix:], p.read_bytes()) for p in paths]
        key = parsed_cache.digest(files)
        cached = parsed_cache.read(key)
        if cached is not None and set(cached) == {name for name, _ in files}:
            return [(path, cached[name]) for path, (name, _) in zip(paths, files, strict=True)]
        documents: list[tuple[Path, Any]] = []
        for path, parsed in zip(paths, _parse_all([data for _, data in files]), strict=True):
            if isinstance(parsed, _YamlProblem):
                self.problems.append(f"{self.rel(path)}: not valid YAML: {parsed.message}")
            else:
                documents.append((path, parsed.document))
        if len(documents) == len(paths):
            parsed_cache.write(
                key, {name: raw for (name, _), (_, raw) in zip(files, documents, strict=True)}
            )
        return documents

    def _where(self, path: Path, rule_id: str) -> str:
        # Built only for a problem: naming every file up front costs a large base seconds.
        return f"{self.rel(path)}: rule {rule_id}"

    def rules(self) -> dict[str, Rule]:
        rules: dict[str, Rule] = {}
        for path, raw in self.rule_documents():
            rule_id = raw.get("id", "?") if isinstance(raw, dict) else "?"
            try:
                rule = Rule.model_validate(raw)
            except ValidationError as exc:
                self.problems.extend(_describe(exc, self._where(path, rule_id)))
                continue
            if path.stem != rule.id:
                self.problems.append(
                    f"{self._where(path, rule_id)}: file name must be the rule id ({rule.id}.yaml)"
                )
            if rule.id in rules:
                self.problems.append(f"{self._where(path, rule_id)}: duplicate rule id")
            rules[rule.id] = rule
        return rules


def load_knowledge(root: Path = DEFAULT_KNOWLEDGE_DIR) -> KnowledgeBase:
    loader = _Loader(root)
    release = loader.model(KbRelease, root / "kb.yaml")
    sources_doc = _read_list(loader, root / "sources.yaml", "sources", Source)
    conflicts = _read_list(loader, root / "conflicts.yaml", "conflicts", Conflict)
    facts = loader.model(FactCatalog, root / "facts.yaml")
    os_raw = _read_mapping(loader, root / "catalog" / "os.yaml")
    os_catalog = {}
    for name, entry in os_raw.items():
        parsed = loader.model(OsEntry, root / "catalog" / "os.yaml", entry)
        if parsed is not None:
            os_catalog[name] = parsed
    oracle = loader.model(OracleCatalog, root / "catalog" / "oracle.yaml")
    filers = loader.model(FilerCatalog, root / "catalog" / "filers.yaml")
    network = loader.model(NetworkCatalog, root / "catalog" / "network.yaml")
    layout = loader.model(LayoutCatalog, root / "catalog" / "layout.yaml")
    options = loader.model(MountOptionCatalog, root / "catalog" / "mount_options.yaml")
    presets = loader.model(PresetCatalog, root / "catalog" / "presets.yaml")
    expectations = loader.model(ExpectationInputs, root / "model" / "expectations.yaml")
    gains = loader.model(GainCatalog, root / "model" / "gains.yaml")
    sizing = loader.model(SizingInputs, root / "model" / "sizing.yaml")
    rules = loader.rules()
    changelog_path = root / "CHANGELOG.md"
    changelog = changelog_path.read_text(encoding="utf-8") if changelog_path.exists() else ""
    if not changelog:
        loader.problems.append("knowledge/CHANGELOG.md: missing or empty")

    if loader.problems or None in (
        release,
        facts,
        oracle,
        filers,
        network,
        layout,
        options,
        presets,
        expectations,
        gains,
        sizing,
    ):
        raise KnowledgeError(loader.problems or ["a required file did not load"])
    assert release and facts and oracle and filers and network and layout and options
    assert presets and expectations and gains and sizing

    superseded_by: dict[str, list[str]] = {}
    for rule in rules.values():
        for old in rule.supersedes:
            superseded_by.setdefault(old, []).append(rule.id)

    kb = KnowledgeBase(
        release=release,
        changelog=changelog,
        rules=rules,
        sources={s.id: s for s in sources_doc},
        conflicts=conflicts,
        facts=facts.facts,
        os=os_catalog,  # type: ignore[arg-type]
        oracle=oracle,
        filers=filers,
        network=network,
        layout=layout,
        mount_options=options.options,
        presets={p.id: p for p in presets.presets},
        expectations=expectations,
        gains=gains.gains,
        sizing=sizing,
        superseded_by=superseded_by,
    )
    problems = _cross_check(kb)
    if problems:
        raise KnowledgeError(problems)
    return kb


def _read_mapping(loader: _Loader, path: Path) -> dict[str, Any]:
    try:
        data = _read_yaml(path)
    except (FileNotFoundError, yaml.YAMLError) as exc:
        loader.problems.append(f"{loader.rel(path)}: {exc}")
        return {}
    if not isinstance(data, dict):
        loader.problems.append(f"{loader.rel(path)}: expected a mapping")
        return {}
    return data


def _read_list(loader: _Loader, path: Path, key: str, model: type[M]) -> list[M]:
    data = _read_mapping(loader, path)
    items: list[M] = []
    for index, raw in enumerate(data.get(key) or []):
        label = raw.get("id", index) if isinstance(raw, dict) else index
        try:
            items.append(model.model_validate(raw))
        except ValidationError as exc:
            loader.problems.extend(_describe(exc, f"{loader.rel(path)}: {key}[{label}]"))
    return items


def _cross_check(kb: KnowledgeBase) -> list[str]:
    problems: list[str] = []
    source_refs: list[tuple[str, SourceRef]] = []
    for rule in kb.rules.values():
        where = f"knowledge/rules: rule {rule.id}"
        source_refs += [(where, ref) for ref in rule.sources]
        for old in rule.supersedes:
            if old not in kb.rules:
                problems.append(f"{where}: field supersedes: unknown rule {old}")
        problems += [f"{where}: field {p}" for p in _check_conditions(kb, rule.when, "when")]
        problems += [f"{where}: field {p}" for p in _check_options(kb, rule)]
        for case in (*rule.tests.fires, *rule.tests.silent):
            if case.preset not in kb.presets:
                problems.append(f"{where}: field tests: unknown preset {case.preset}")
    problems += _check_supersession_cycles(kb)
    for conflict in kb.conflicts:
        where = f"knowledge/conflicts.yaml: conflict {conflict.id}"
        for side in (conflict.winner, *conflict.losers):
            problems += [
                f"{where}: unknown rule {rid}" for rid in side.rules if rid not in kb.rules
            ]
    for fact in kb.facts:
        source_refs += [(f"knowledge/facts.yaml: {fact.id}", ref) for ref in fact.sources]
        problems += [
            f"knowledge/facts.yaml: {fact.id}: unknown rule {rid}"
            for rid in fact.rules
            if rid not in kb.rules
        ]
    source_refs += [("knowledge/model/expectations.yaml", r) for r in kb.expectations.sources()]
    source_refs += [("knowledge/model/sizing.yaml", r) for r in kb.sizing.sources()]
    fact_ids = {fact.id for fact in kb.facts}
    for gain in kb.gains:
        source_refs.append((f"knowledge/model/gains.yaml: {gain.id}", gain.source))
        if gain.fact is not None and gain.fact not in fact_ids:
            problems.append(f"knowledge/model/gains.yaml: {gain.id}: unknown fact {gain.fact}")
    for vendor in kb.filers.vendors.values():
        source_refs += [
            ("knowledge/catalog/filers.yaml", f.max_xfer_source)
            for f in vendor.families
            if f.max_xfer_source is not None
        ]
        source_refs += [
            ("knowledge/catalog/filers.yaml", figure.source)
            for f in vendor.families
            for figure in (*f.service_levels.values(), f.volume_max_mib_s, f.throughput_capacities)
            if figure is not None and figure.source is not None
        ]
    for preset in kb.presets.values():
        if preset.source is not None:
            source_refs.append((f"knowledge/catalog/presets.yaml: {preset.id}", preset.source))
        problems += _check_platform(
            kb, preset.platform, f"knowledge/catalog/presets.yaml: {preset.id}"
        )
    problems += [
        f"{where}: unknown source {ref.id}"
        for where, ref in source_refs
        if ref.id not in kb.sources
    ]
    return problems


def _check_platform(kb: KnowledgeBase, data: dict[str, Any], where: str) -> list[str]:
    try:
        resolve(kb, Platform.model_validate(data))
    except ValidationError as exc:
        return _describe(exc, where)
    except CatalogError as exc:
        return [f"{where}: field {'.'.join(loc)}: {msg}" for loc, msg in exc.problems]
    return []


def check_rule_cases(kb: KnowledgeBase) -> list[str]:
    """Every rule test case must be a valid platform (run by the test suite, not at start-up)."""
    problems: list[str] = []
    for rule in kb.rules.values():
        for case in (*rule.tests.fires, *rule.tests.silent):
            preset = kb.presets.get(case.preset)
            if preset is None:
                continue
            data = deep_merge(preset.platform, case.patch)
            problems += _check_platform(kb, data, f"rule {rule.id} case {case.name!r}")
    return problems


def _check_conditions(kb: KnowledgeBase, cond: Conditions, path: str) -> list[str]:
    problems: list[str] = []
    if cond.os_release is not None and cond.os:
        entry = kb.os[cond.os[0]]
        try:
            os_release_spec(kb, cond.os[0], cond.os_release)
        except ValueError as exc:
            problems.append(f"{path}.os_release: {exc} (known: {[r.id for r in entry.releases]})")
    for index, sub in enumerate(cond.any_of or []):
        problems += _check_conditions(kb, sub, f"{path}.any_of[{index}]")
    for index, sub in enumerate(cond.none_of or []):
        problems += _check_conditions(kb, sub, f"{path}.none_of[{index}]")
    return problems


def os_release_spec(kb: KnowledgeBase, os_name: str, text: str) -> SpecifierSet:
    """'>=9u5,<10' over release ids -> a specifier over their comparable keys."""
    entry = kb.os[os_name]  # type: ignore[index]
    parts = []
    for clause in text.split(","):
        clause = clause.strip()
        op = next((o for o in (">=", "<=", "==", "!=", ">", "<") if clause.startswith(o)), None)
        if op is None:
            raise ValueError(f"clause {clause!r} needs an operator (>=, <, ...)")
        release = entry.release(clause[len(op) :].strip())
        if release is None:
            raise ValueError(f"unknown release in {clause!r}")
        parts.append(f"{op}{release.key}")
    return SpecifierSet(",".join(parts))


def _check_options(kb: KnowledgeBase, rule: Rule) -> Iterable[str]:
    rule_targets = rule.when.os or list(kb.os)
    groups = [
        ("effects.mount_options", m.options, m.os or rule_targets)
        for m in rule.effects.mount_options
    ]
    groups += [
        ("effects.forbid_options", f.options, rule_targets) for f in rule.effects.forbid_options
    ]
    for field_name, options, targets in groups:
        for option in options:
            name = option.split("=", 1)[0]
            for os_name in targets:
                entry = kb.option_index.get((os_name, name))
                if entry is None:
                    yield f"{field_name}: option {option!r} is not in the {os_name} vocabulary"
                elif entry.valued != ("=" in option):
                    yield (
                        f"{field_name}: option {option!r} must {'' if entry.valued else 'not '}"
                        "carry a value"
                    )


def _check_supersession_cycles(kb: KnowledgeBase) -> list[str]:
    problems = []
    for start in kb.rules:
        seen: set[str] = set()
        stack = list(kb.superseded_by.get(start, []))
        while stack:
            current = stack.pop()
            if current == start:
                problems.append(f"knowledge/rules: rule {start}: supersession cycle")
                break
            if current not in seen:
                seen.add(current)
                stack.extend(kb.superseded_by.get(current, []))
    return problems

"""Load ``knowledge/`` and refuse to start when any file is wrong.

Errors name the file, the rule id (where there is one) and the field, e.g.::

    knowledge/rules/filer/NTAP-MINRA-OFF.yaml: rule NTAP-MINRA-OFF: field when.filer_release:
    not a version range like '>=9.2,<11': '6.5.1+'
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

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
    OsCatalog,
    OsDefaultCatalog,
    PresetCatalog,
    SizingInputs,
)
from nasplan.knowledge.client_options import ClientOptionsCatalog
from nasplan.knowledge.cross_check import cross_check, describe_validation
from nasplan.knowledge.fields import FieldCatalog, answer_fields, check_fields
from nasplan.knowledge.lifecycle import LifecycleCatalog
from nasplan.knowledge.schema import Conflict, KbRelease, Rule, Source

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
            self.problems.extend(describe_validation(exc, self.rel(path)))
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
                self.problems.extend(describe_validation(exc, self._where(path, rule_id)))
                continue
            if path.stem != rule.id:
                self.problems.append(
                    f"{self._where(path, rule_id)}: file name must be the rule id ({rule.id}.yaml)"
                )
            if path.parent.name != rule.category:
                self.problems.append(
                    f"{self._where(path, rule_id)}: field category: {rule.category}, but the "
                    f"file is in rules/{path.parent.name}/ (move it to rules/{rule.category}/)"
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
    os_catalog = loader.model(OsCatalog, root / "catalog" / "os.yaml")
    oracle = loader.model(OracleCatalog, root / "catalog" / "oracle.yaml")
    filers = loader.model(FilerCatalog, root / "catalog" / "filers.yaml")
    network = loader.model(NetworkCatalog, root / "catalog" / "network.yaml")
    layout = loader.model(LayoutCatalog, root / "catalog" / "layout.yaml")
    options = loader.model(MountOptionCatalog, root / "catalog" / "mount_options.yaml")
    os_defaults = loader.model(OsDefaultCatalog, root / "catalog" / "os_defaults.yaml")
    clients = loader.model(ClientOptionsCatalog, root / "catalog" / "client_options.yaml")
    presets = loader.model(PresetCatalog, root / "catalog" / "presets.yaml")
    fields = loader.model(FieldCatalog, root / "catalog" / "fields.yaml")
    if fields is not None:
        loader.problems += check_fields(fields)
    expectations = loader.model(ExpectationInputs, root / "model" / "expectations.yaml")
    gains = loader.model(GainCatalog, root / "model" / "gains.yaml")
    sizing = loader.model(SizingInputs, root / "model" / "sizing.yaml")
    lifecycle = loader.model(LifecycleCatalog, root / "lifecycle.yaml")
    rules = loader.rules()
    changelog_path = root / "CHANGELOG.md"
    changelog = changelog_path.read_text(encoding="utf-8") if changelog_path.exists() else ""
    if not changelog:
        loader.problems.append("knowledge/CHANGELOG.md: missing or empty")

    if loader.problems or None in (
        release,
        os_catalog,
        facts,
        oracle,
        filers,
        network,
        layout,
        options,
        os_defaults,
        clients,
        presets,
        fields,
        expectations,
        gains,
        sizing,
        lifecycle,
    ):
        raise KnowledgeError(loader.problems or ["a required file did not load"])
    assert release and os_catalog and facts and oracle and filers and network and layout
    assert options and os_defaults and clients
    assert presets and fields and expectations and gains and sizing and lifecycle

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
        os=os_catalog.root,
        oracle=oracle,
        filers=filers,
        network=network,
        layout=layout,
        mount_options=options.options,
        os_defaults=os_defaults.defaults,
        os_ceilings=os_defaults.ceilings,
        client_options=clients.clients,
        presets={p.id: p for p in presets.presets},
        fields=answer_fields(fields),
        expectations=expectations,
        gains=gains.gains,
        sizing=sizing,
        lifecycle=lifecycle,
        superseded_by=superseded_by,
    )
    problems = cross_check(kb)
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
            loader.problems.extend(describe_validation(exc, f"{loader.rel(path)}: {key}[{label}]"))
    return items

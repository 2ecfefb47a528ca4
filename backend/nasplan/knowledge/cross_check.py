"""Checks across the files of ``knowledge/`` once each has loaded: every id a file names exists
(rules, sources, presets, catalog releases), conditions and options are valid for their OS, and
no supersession cycles."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from packaging.specifiers import SpecifierSet
from pydantic import ValidationError

from nasplan.domain.platform import OsName, Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import OsDefault
from nasplan.knowledge.conditions import Conditions
from nasplan.knowledge.lifecycle import lifecycle_problems
from nasplan.knowledge.merge import deep_merge
from nasplan.knowledge.resolve import CatalogError, resolve
from nasplan.knowledge.schema import Rule, SourceRef


def describe_validation(error: ValidationError, where: str) -> list[str]:
    return [
        f"{where}: field {'.'.join(str(p) for p in item['loc']) or '(root)'}: {item['msg']}"
        for item in error.errors()
    ]


def cross_check(kb: KnowledgeBase) -> list[str]:
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
    source_refs += [("knowledge/lifecycle.yaml", r) for r in kb.lifecycle.sources()]
    problems += lifecycle_problems(
        kb.lifecycle,
        {name: {r.id for r in entry.releases} for name, entry in kb.os.items()},
        {f.id for vendor in kb.filers.vendors.values() for f in vendor.families},
    )
    problems += [
        f"knowledge/model/expectations.yaml: calibration {point.id}: unknown preset {point.preset}"
        for point in kb.expectations.calibration
        if point.preset not in kb.presets
    ]
    for entry in kb.mount_options:
        for implied in entry.implies:
            where = f"knowledge/catalog/mount_options.yaml: {entry.token} on {implied.os}"
            source_refs.append((where, implied.source))
            problems += [
                f"{where}: {option} is not a mount option of {implied.os}"
                for option in implied.options
                if (implied.os, option.split("=", 1)[0]) not in kb.option_index
            ]
    for default in kb.os_defaults:
        where = f"knowledge/catalog/os_defaults.yaml: {default.os} {default.key}"
        source_refs.append((where, default.source))
        problems += [f"{where}: {p}" for p in _check_os_default(kb, default)]
    for client in kb.client_options:
        where = f"knowledge/catalog/client_options.yaml: {client.os}"
        source_refs += [(where, ref) for ref in client.sources]
        if client.rule not in kb.rules:
            problems.append(f"{where}: unknown rule {client.rule}")
        # What the planner writes on that OS must be what its client takes.
        problems += [
            f"{where}: {entry.token} (mount_options.yaml) is not an option it takes"
            for entry in kb.mount_options
            if client.os in entry.os and not client.takes(entry.token)
        ]
    for ceiling in kb.os_ceilings:
        where = f"knowledge/catalog/os_defaults.yaml: {ceiling.os} {ceiling.ceiling} ceiling"
        source_refs.append((where, ceiling.source))
        if ceiling.rule not in kb.rules:
            problems.append(f"{where}: unknown rule {ceiling.rule}")
    fact_ids = {fact.id for fact in kb.facts}
    for gain in kb.gains:
        source_refs.append((f"knowledge/model/gains.yaml: {gain.id}", gain.source))
        if gain.fact is not None and gain.fact not in fact_ids:
            problems.append(f"knowledge/model/gains.yaml: {gain.id}: unknown fact {gain.fact}")
    for vendor in kb.filers.vendors.values():
        source_refs += [
            ("knowledge/catalog/filers.yaml", ref)
            for f in vendor.families
            for ref in (f.max_xfer_source, f.export_separator_source)
            if ref is not None
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
        return describe_validation(exc, where)
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


def os_release_spec(kb: KnowledgeBase, os_name: OsName, text: str) -> SpecifierSet:
    """'>=9u5,<10' over release ids -> a specifier over their comparable keys."""
    entry = kb.os[os_name]
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


def _check_os_default(kb: KnowledgeBase, default: OsDefault) -> list[str]:
    """A mount option default names an option of that OS under its own key, for releases
    the OS has."""
    known = {release.id for release in kb.os[default.os].releases}
    problems = [f"unknown release {r}" for r in default.releases if r not in known]
    if default.mechanism != "mount_option" or default.value is None:
        return problems
    entry = kb.option_index.get((default.os, default.value.split("=", 1)[0]))
    if entry is None:
        return [*problems, f"{default.value} is not a mount option of {default.os}"]
    if entry.key != default.key:
        return [*problems, f"{default.value} has the key {entry.key}, not {default.key}"]
    return problems

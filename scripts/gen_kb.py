#!/usr/bin/env python3
"""Generate a scaled knowledge base for benchmarks: knowledge/ plus silent synthetic rules.

    .venv/bin/python scripts/gen_kb.py --factor 10 --out /tmp/kb10

copies knowledge/ to --out and adds (factor - 1) x (number of real rules) synthetic rules, so the
output holds factor x the real count. Synthetic rule k is a copy of real rule k mod n (effects,
sources, dates, tests) with the id ``SYN-<k>-<original id>``, its ``supersedes`` dropped (no
conflict or fact names it), and one extra condition on a real platform field that no reference
platform matches: an exact OS release, filer release or Oracle patch set drawn from the catalog,
a NIC driver, or an exact memory size, NIC count, instance count, switch or router hop count.
The extra conditions rotate over those fields, so an engine index keyed on condition fields
meets them the way it would meet real rules; each copy is evaluated like its original (same
dates, same conditions) and fails only on the extra one.

Reference platforms are the catalog presets, every rule test case (preset plus patch) and the
regression corpus (backend/tests/corpus/platforms.yaml); an extra condition is used only when it
matches none of them on its own, so plans for those platforms are identical to the x1 plans.
kb.yaml is copied unchanged: plans carry the same kb_version.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from packaging.specifiers import SpecifierSet
from pydantic import ValidationError

from nasplan.domain.platform import Platform
from nasplan.engine.conditions import compile_conditions
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.conditions import Conditions
from nasplan.knowledge.loader import load_knowledge
from nasplan.knowledge.merge import deep_merge
from nasplan.knowledge.resolve import CatalogError, ResolvedPlatform, resolve
from nasplan.knowledge.schema import Rule

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT / "knowledge"
DEFAULT_CORPUS = ROOT / "backend" / "tests" / "corpus" / "platforms.yaml"
PREFIX = "SYN"
MAX_RULE_ID = 60
# libyaml when PyYAML has it (the knowledge files are only safe YAML either way).
_YamlLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_YamlDumper: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

# Values that are not in the catalog but are real values of those platform fields.
NIC_DRIVERS = ["qfe", "hme", "bge", "eri", "igb", "mlx", "ent", "vmxnet", "bnxt", "i40e"]
MEMORY_GB = [3, 5, 6, 7, 12, 20, 24, 40, 96, 192, 384, 768, 1536]
NIC_COUNTS = [3, 5, 6, 7, 8]
INSTANCES = [3, 4, 5, 6, 7, 9, 10, 12]
SWITCH_HOPS = [3, 4, 5, 6, 7, 8]
ROUTER_HOPS = [2, 3, 4, 5, 6]

Extra = dict[str, Any]
Compatible = Callable[[Conditions, Extra], bool]


@dataclass(frozen=True)
class Family:
    """One kind of extra condition: the platform field it tests and the values to draw from."""

    name: str
    values: list[Extra]
    compatible: Compatible


@dataclass
class Report:
    real_rules: int
    synthetic_rules: int
    reference_platforms: int
    by_family: Counter[str] = field(default_factory=Counter)
    # synthetic rule id -> (original rule id, family name, the extra condition fields)
    extras: dict[str, tuple[str, str, Extra]] = field(default_factory=dict)


# ------------------------------------------------------------------ candidate extra conditions
def _lower_bound(spec: str) -> str | None:
    return next((c.version for c in SpecifierSet(spec) if c.operator == ">="), None)


def _unset(*names: str) -> Compatible:
    def check(when: Conditions, _extra: Extra) -> bool:
        return all(getattr(when, name) is None for name in names)

    return check


def _narrows(list_field: str, *unset: str) -> Compatible:
    """The rule leaves `unset` open and its `list_field` (if any) includes the extra's value."""

    def check(when: Conditions, extra: Extra) -> bool:
        current: list[str] | None = getattr(when, list_field)
        wanted: str = extra[list_field][0]
        return all(getattr(when, n) is None for n in unset) and (
            current is None or wanted in current
        )

    return check


def _filer_compatible(when: Conditions, extra: Extra) -> bool:
    family = extra["_family"]
    return _narrows("filer_vendor", "filer_release")(when, extra) and (
        when.filer_family is None or family in when.filer_family
    )


def _exact(name: str, values: Iterable[int]) -> Family:
    return Family(name, [{name: {"min": v, "max": v}} for v in values], _unset(name))


def families(kb: KnowledgeBase) -> list[Family]:
    os_releases = [
        {"os": [os_name], "os_release": f"=={release.id}"}
        for os_name, entry in kb.os.items()
        for release in entry.releases
    ]
    filer_releases: list[Extra] = []
    for vendor, vendor_entry in kb.filers.vendors.items():
        for family in vendor_entry.families:
            low = _lower_bound(family.releases)
            if low is None or low == "0":
                continue
            filer_releases += [
                {"filer_vendor": [vendor], "filer_release": f"=={low}.{n}", "_family": family.id}
                for n in range(1, 10)
            ]
    oracle_patches: list[Extra] = []
    for release in kb.oracle.releases:
        low = _lower_bound(release.range)
        if low is None:
            continue
        parts = low.split(".")
        base = ".".join(parts + ["0"] * (3 - len(parts)))  # patch sets: 11.2.0.N, 19.0.0.N
        oracle_patches += [{"oracle": f"=={base}.{n}"} for n in range(1, 10)]
    return [
        Family("os_release", os_releases, _narrows("os", "os_release")),
        Family("filer_release", filer_releases, _filer_compatible),
        Family("oracle", oracle_patches, _unset("oracle")),
        Family("nic_driver", [{"nic_driver": [d]} for d in NIC_DRIVERS], _unset("nic_driver")),
        _exact("memory_gb", MEMORY_GB),
        _exact("nic_count", NIC_COUNTS),
        _exact("instances", INSTANCES),
        _exact("switch_hops", SWITCH_HOPS),
        _exact("router_hops", ROUTER_HOPS),
        _exact("nic_gbps", (s.gbps for s in kb.network.nic_speeds)),
    ]


def _public(extra: Extra) -> Extra:
    return {k: v for k, v in extra.items() if not k.startswith("_")}


# ------------------------------------------------------------------ reference platforms
def reference_platforms(kb: KnowledgeBase, corpus: Path | None) -> list[ResolvedPlatform]:
    """Presets, every rule test case and the regression corpus, resolved against the catalog."""
    bodies: list[dict[str, Any]] = [p.platform for p in kb.presets.values()]
    for rule in kb.rules.values():
        for case in (*rule.tests.fires, *rule.tests.silent):
            if case.preset in kb.presets:
                bodies.append(deep_merge(kb.presets[case.preset].platform, case.patch))
    if corpus is not None and corpus.exists():
        document = yaml.load(corpus.read_text(encoding="utf-8"), Loader=_YamlLoader)
        for entry in document.get("platforms") or []:
            body = dict(entry["platform"])
            body.pop("as_of", None)  # conditions do not depend on the date
            bodies.append(body)
    resolved: list[ResolvedPlatform] = []
    for body in bodies:
        try:
            resolved.append(resolve(kb, Platform.model_validate(body)))
        except (ValidationError, CatalogError):
            continue
    return resolved


def silent_values(
    kb: KnowledgeBase, family: Family, references: list[ResolvedPlatform]
) -> list[Extra]:
    """The values of `family` that match no reference platform on their own."""
    kept = []
    for extra in family.values:
        predicate = compile_conditions(kb, Conditions.model_validate(_public(extra)))
        if not any(predicate(r) for r in references):
            kept.append(extra)
    return kept


# ------------------------------------------------------------------ generation
def _rule_files(source: Path) -> list[tuple[Path, dict[str, Any]]]:
    found = []
    for path in sorted((source / "rules").rglob("*.yaml")):
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_YamlLoader)
        if isinstance(raw, dict):
            found.append((path, raw))
    return found


def synthetic_rule(raw: dict[str, Any], new_id: str, extra: Extra) -> dict[str, Any]:
    copy = dict(raw)
    copy["id"] = new_id
    copy.pop("supersedes", None)
    copy["when"] = {**(raw.get("when") or {}), **_public(extra)}
    return copy


def generate(
    factor: int,
    out: Path,
    source: Path = DEFAULT_SOURCE,
    corpus: Path | None = DEFAULT_CORPUS,
    kb: KnowledgeBase | None = None,
) -> Report:
    """Write the scaled knowledge base to `out` (which must not exist). `kb` is `source`
    already loaded, when the caller has it."""
    if factor < 1:
        raise ValueError("factor must be at least 1")
    kb = load_knowledge(source) if kb is None else kb
    references = reference_platforms(kb, corpus)
    pools = [
        (family, values)
        for family in families(kb)
        if (values := silent_values(kb, family, references))
    ]
    shutil.copytree(source, out)
    originals = _rule_files(source)
    count = (factor - 1) * len(originals)
    width = max(4, len(str(count)))
    report = Report(len(originals), count, len(references))
    for k in range(count):
        path, raw = originals[k % len(originals)]
        rule = kb.rules[str(raw["id"])]
        new_id = f"{PREFIX}-{k + 1:0{width}d}-{rule.id}"[:MAX_RULE_ID].rstrip("-")
        chosen: tuple[str, Extra] | None = None
        for step in range(len(pools)):
            family, values = pools[(k + step) % len(pools)]
            fitting = [v for v in values if family.compatible(rule.when, v)]
            if fitting:
                chosen = (family.name, fitting[(k // len(pools)) % len(fitting)])
                break
        if chosen is None:
            raise RuntimeError(f"no silent extra condition fits rule {rule.id}")
        name, extra = chosen
        body = synthetic_rule(raw, new_id, extra)
        Rule.model_validate(body)  # fail here, naming the rule, rather than at load time
        target = out / path.parent.relative_to(source) / f"{new_id}.yaml"
        target.write_text(
            yaml.dump(body, Dumper=_YamlDumper, sort_keys=False, allow_unicode=True, width=100),
            encoding="utf-8",
        )
        report.by_family[name] += 1
        report.extras[new_id] = (rule.id, name, _public(extra))
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--factor", type=int, required=True, help="total rules / real rules")
    parser.add_argument("--out", type=Path, required=True, help="new knowledge directory")
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument(
        "--corpus", type=Path, default=DEFAULT_CORPUS, help="extra reference platforms"
    )
    parser.add_argument("--force", action="store_true", help="replace --out if it exists")
    args = parser.parse_args(argv)
    out: Path = args.out
    if out.exists():
        if not args.force:
            parser.error(f"{out} exists (use --force to replace it)")
        shutil.rmtree(out)
    report = generate(args.factor, out, args.source, args.corpus)
    kb = load_knowledge(out)
    print(
        f"{out}: {len(kb.rules)} rules ({report.real_rules} real + {report.synthetic_rules} "
        f"synthetic), silent on {report.reference_platforms} reference platforms"
    )
    for name, number in sorted(report.by_family.items()):
        print(f"  extra condition {name}: {number}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

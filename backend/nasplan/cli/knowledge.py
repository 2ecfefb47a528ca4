"""The knowledge-base commands: `nasplan kb check` and `nasplan kb docs` work on a knowledge
folder; `nasplan rules`, `nasplan rule` and `nasplan presets` show what the loaded one holds."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import TextIO

from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import KnowledgeError, load_knowledge


def kb_check(root: Path, out: TextIO) -> int:
    from nasplan.kb_check import check_knowledge

    report = check_knowledge(root, dt.date.today())
    for problem in report.problems:
        print(problem, file=out)
    if report.problems:
        print(f"{len(report.problems)} problem(s) in {root}", file=out)
        return 1
    print(f"{root}: {report.rules} rules, {report.cases} rule cases: no problems", file=out)
    return 0


def kb_docs(root: Path, check_only: bool, out: TextIO) -> int:
    from nasplan.kb_docs import stale_docs, write_docs

    try:
        kb = load_knowledge(root)
    except KnowledgeError as exc:
        print(exc, file=sys.stderr)
        return 2
    if check_only:
        stale = stale_docs(root, kb)
        for path in stale:
            print(f"{root / path} is out of date: run 'nasplan kb docs'", file=out)
        return 1 if stale else 0
    for path in write_docs(root, kb):
        print(f"wrote {root / path}", file=out)
    return 0


def list_rules(kb: KnowledgeBase, category: str | None, as_json: bool, out: TextIO) -> int:
    selected = [r for r in kb.rules.values() if category is None or r.category == category]
    if as_json:
        print(json.dumps([r.model_dump(mode="json") for r in selected], indent=2), file=out)
        return 0
    for r in sorted(selected, key=lambda r: (r.category, r.id)):
        print(f"{r.id:32} {r.category:13} {r.effective_from}  {r.title}", file=out)
    return 0


def show_rule(kb: KnowledgeBase, rule_id: str, out: TextIO) -> int:
    found = kb.rules.get(rule_id)
    if found is None:
        print(f"no rule {rule_id}", file=sys.stderr)
        return 1
    print(json.dumps(found.model_dump(mode="json"), indent=2), file=out)
    return 0


def list_presets(kb: KnowledgeBase, out: TextIO) -> int:
    for preset in kb.presets.values():
        print(f"{preset.id:28} {preset.kind:8} {preset.label}", file=out)
    return 0

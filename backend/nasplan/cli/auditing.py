"""The auditing commands: `nasplan audit` checks configuration files (pasted, or written by a
collector) against the plan, and `nasplan collector` prints the read-only collector for a host
OS or a filer family."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from nasplan.audit.compare import audit
from nasplan.audit.kinds import spec_of
from nasplan.audit.pastes import PasteIn, Unrecognised, gather
from nasplan.cli.planning import load_plan
from nasplan.knowledge.base import KnowledgeBase


def audit_command(kb: KnowledgeBase, args: argparse.Namespace, out: TextIO) -> int:
    plan = load_plan(kb, args.platform, None)
    if plan is None:
        return 2
    pastes: list[PasteIn] = []
    for spec in args.files:
        kind, sep, path = spec.partition(":")
        if not sep or spec_of(kind) is None:
            kind, path = "auto", spec
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            print(f"cannot read {path}: {exc}", file=sys.stderr)
            return 2
        pastes.append(PasteIn(path, kind, text))
    if args.collected is not None:
        collected = _collected(kb, args.collected)
        if collected is None:
            return 2
        pastes += collected
    if not pastes:
        print("nothing to check: give files or --collected DIR", file=sys.stderr)
        return 2
    try:
        files, _ = gather(pastes)
    except Unrecognised as exc:
        path = pastes[exc.index].name
        print(f"{path}: cannot tell what it is; write KIND:{path}", file=sys.stderr)
        return 2
    report = audit(kb, plan.platform, files)
    if args.json:
        print(report.model_dump_json(indent=2), file=out)
    else:
        for f in report.findings:
            where = f"{f.file}:{f.line}" if f.line else f.file
            print(f"{f.severity.upper():7} {where}  {f.rule}: {f.message}", file=out)
            if f.fix:
                print(f"        use: {f.fix}", file=out)
        for line in report.not_checked:
            print(f"not checked: {line}", file=out)
        for hint in report.platform_hints:
            print(f"platform: {hint}", file=out)
        for s in report.platform_suggestions:
            print(f"suggested: {s.field}={s.value} ({s.label})", file=out)
    return 1 if any(f.severity == "error" for f in report.findings) else 0


def _collected(kb: KnowledgeBase, directory: Path) -> list[PasteIn] | None:
    from nasplan.audit.collection import CollectionError, read_collection_dir
    from nasplan.audit.inference import collection_report

    try:
        report = collection_report(kb, read_collection_dir(directory))
    except (CollectionError, OSError) as exc:
        print(f"cannot read the collection in {directory}: {exc}", file=sys.stderr)
        return None
    for answer in report.answers:
        print(f"collected: {answer.field}={answer.value} ({answer.evidence})", file=sys.stderr)
    for item in report.files:
        if item.status != "read":
            print(f"collected: {item.file} {item.status}", file=sys.stderr)
    return [PasteIn(p["name"], p["kind"], p["text"]) for p in report.pastes]


def collector_command(kb: KnowledgeBase, args: argparse.Namespace, out: TextIO) -> int:
    from nasplan.renderers.collector import collector_script
    from nasplan.renderers.filer_collector import filer_collector_text

    if args.os in ("ontap_cluster", "ontap7"):
        out.write(filer_collector_text(kb.setting_keys(), args.os, kb.version))
    else:
        out.write(collector_script(kb.setting_keys(), args.os, kb.version))
    return 0

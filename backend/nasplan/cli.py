"""nasplan from a terminal: the same engine as the web API, for hosts without a browser.

nasplan plan platform.json [--as-of 2005-06-01] [--json]
nasplan bundle platform.json -o bundle.zip [--as-of ...]
nasplan runbook platform.json [--format md|html] [-o runbook.md]
nasplan audit --platform platform.json /etc/fstab init.ora [kind:path ...] [--json]
nasplan rules [--category mount] [--json]
nasplan rule NTAP-MINRA-OFF
nasplan presets
nasplan kb check [PATH]
nasplan kb docs [PATH] [--check]
nasplan serve [--workers N]
nasplan migrate
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from nasplan.audit.compare import audit
from nasplan.audit.kinds import spec_of
from nasplan.audit.pastes import PasteIn, Unrecognised, gather
from nasplan.domain.plan import Expectations, Plan
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import KnowledgeError, load_knowledge
from nasplan.knowledge.resolve import CatalogError
from nasplan.renderers.bundle import render_bundle
from nasplan.renderers.mount_table import render_mount_table
from nasplan.renderers.runbook import render_runbook_html, render_runbook_markdown
from nasplan.settings import get_settings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nasplan", description="Oracle on NFS planner")
    sub = parser.add_subparsers(dest="command", required=True)
    plan = sub.add_parser("plan", help="plan a platform described in a JSON file ('-' = stdin)")
    plan.add_argument("platform", help="path to a platform JSON file, or - for stdin")
    plan.add_argument("--as-of", type=dt.date.fromisoformat, help="evaluate advice as of this date")
    plan.add_argument("--json", action="store_true", help="print the plan as JSON")
    bundle = sub.add_parser("bundle", help="write the config bundle (zip) for a platform")
    bundle.add_argument("platform", help="path to a platform JSON file, or - for stdin")
    bundle.add_argument("-o", "--output", required=True, help="zip file to write")
    bundle.add_argument("--as-of", type=dt.date.fromisoformat)
    runbook = sub.add_parser("runbook", help="print or write the runbook for a platform")
    runbook.add_argument("platform", help="path to a platform JSON file, or - for stdin")
    runbook.add_argument("--format", choices=("md", "html"), default="md")
    runbook.add_argument("-o", "--output", help="file to write (default: standard output)")
    runbook.add_argument("--as-of", type=dt.date.fromisoformat)
    audit_cmd = sub.add_parser(
        "audit", help="check pasted configuration files against the plan (exit 1 on errors)"
    )
    audit_cmd.add_argument("--platform", required=True, help="path to a platform JSON file")
    audit_cmd.add_argument(
        "files", nargs="*", help="files to check; KIND:PATH names the kind, else it is recognised"
    )
    audit_cmd.add_argument(
        "--collected",
        type=Path,
        metavar="DIR",
        help="also check what a collector wrote into DIR (`nasplan collector OS`), and print "
        "the platform answers it shows",
    )
    audit_cmd.add_argument("--json", action="store_true", help="print the report as JSON")
    collector = sub.add_parser(
        "collector",
        help="print the read-only collector script for a host OS (run it on the host, then "
        "audit what it wrote), or the storage team's read-only commands for a filer family",
    )
    collector.add_argument(
        "os",
        choices=("linux", "solaris", "aix", "hpux", "ontap_cluster", "ontap7"),
        help="a host OS (a shell script), or a filer family (the storage team's read-only "
        "commands)",
    )
    rules = sub.add_parser("rules", help="list the rules of the knowledge base")
    rules.add_argument("--category")
    rules.add_argument("--json", action="store_true")
    rule = sub.add_parser("rule", help="show one rule")
    rule.add_argument("rule_id")
    sub.add_parser("presets", help="list the preset platforms")
    kb_cmd = sub.add_parser("kb", help="work on a knowledge folder")
    kb_sub = kb_cmd.add_subparsers(dest="kb_command", required=True)
    check = kb_sub.add_parser(
        "check",
        help="load a knowledge folder and run every rule's cases; exit 1 naming each problem",
    )
    check.add_argument(
        "path", nargs="?", type=Path, help="the folder (default: the one the app uses)"
    )
    docs = kb_sub.add_parser(
        "docs",
        help="write the generated reference pages (docs/conditions.md, docs/rules.md, "
        "docs/rule.schema.json) of a knowledge folder",
    )
    docs.add_argument(
        "path", nargs="?", type=Path, help="the folder (default: the one the app uses)"
    )
    docs.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 naming each stale page"
    )
    serve = sub.add_parser("serve", help="run the web application")
    serve.add_argument(
        "--workers",
        type=_positive_int,
        metavar="N",
        help="server processes on the one port (default: NASPLAN_WORKERS, else 1)",
    )
    sub.add_parser(
        "migrate",
        help="apply the database migrations (DATABASE_URL) and exit; run it once before "
        "starting servers with NASPLAN_MIGRATE_ON_START=false",
    )
    return parser


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        from nasplan.main import run

        run(args.workers)
        return 0
    if args.command == "migrate":
        return _migrate(out)
    if args.command == "kb" and args.kb_command == "docs":
        return _kb_docs(args.path or get_settings().knowledge_dir, args.check, out)
    if args.command == "kb":
        return _kb_check(args.path or get_settings().knowledge_dir, out)
    try:
        kb = load_knowledge(get_settings().knowledge_dir)
    except KnowledgeError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.command == "plan":
        return _plan(kb, args.platform, args.as_of, args.json, out)
    if args.command in ("bundle", "runbook"):
        return _files(kb, args, out)
    if args.command == "audit":
        return _audit(kb, args, out)
    if args.command == "collector":
        from nasplan.renderers.collector import collector_script
        from nasplan.renderers.filer_collector import filer_collector_text

        if args.os in ("ontap_cluster", "ontap7"):
            out.write(filer_collector_text(kb.setting_keys(), args.os, kb.version))
        else:
            out.write(collector_script(kb.setting_keys(), args.os, kb.version))
        return 0
    if args.command == "rules":
        return _rules(kb, args.category, args.json, out)
    if args.command == "rule":
        found = kb.rules.get(args.rule_id)
        if found is None:
            print(f"no rule {args.rule_id}", file=sys.stderr)
            return 1
        print(json.dumps(found.model_dump(mode="json"), indent=2), file=out)
        return 0
    for preset in kb.presets.values():
        print(f"{preset.id:28} {preset.kind:8} {preset.label}", file=out)
    return 0


def _kb_check(root: Path, out: TextIO) -> int:
    from nasplan.kb_check import check_knowledge

    report = check_knowledge(root, dt.date.today())
    for problem in report.problems:
        print(problem, file=out)
    if report.problems:
        print(f"{len(report.problems)} problem(s) in {root}", file=out)
        return 1
    print(f"{root}: {report.rules} rules, {report.cases} rule cases: no problems", file=out)
    return 0


def _kb_docs(root: Path, check_only: bool, out: TextIO) -> int:
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


def _positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number


def _migrate(out: TextIO) -> int:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from nasplan.main import migrate_database

    url = get_settings().database_url
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        revision = migrate_database(url)
    except SQLAlchemyError as exc:
        detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        print(
            f"cannot migrate {shown}: {detail[0] if detail else type(exc).__name__}",
            file=sys.stderr,
        )
        return 1
    print(f"{shown}: at migration {revision}", file=out)
    return 0


def _load_plan(kb: KnowledgeBase, path: str, as_of: dt.date | None) -> Plan | None:
    """The plan for a platform file, or None after saying on stderr which field is wrong."""
    try:
        raw = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        data = json.loads(raw)
        if as_of is not None:
            data["as_of"] = as_of.isoformat()
        return make_plan(kb, Platform.model_validate(data))
    except (OSError, json.JSONDecodeError) as exc:
        print(f"cannot read {path}: {exc}", file=sys.stderr)
    except ValidationError as exc:
        for error in exc.errors():
            field = ".".join(str(p) for p in error["loc"])
            print(f"{field}: {error['msg'].removeprefix('Value error, ')}", file=sys.stderr)
    except CatalogError as exc:
        for loc, msg in exc.problems:
            print(f"{'.'.join(loc)}: {msg}", file=sys.stderr)
    return None


def _files(kb: KnowledgeBase, args: argparse.Namespace, out: TextIO) -> int:
    plan = _load_plan(kb, args.platform, args.as_of)
    if plan is None:
        return 2
    if args.command == "bundle":
        Path(args.output).write_bytes(render_bundle(plan))
        print(f"wrote {args.output}", file=out)
    else:
        render = render_runbook_html if args.format == "html" else render_runbook_markdown
        text = render(plan)
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
            print(f"wrote {args.output}", file=out)
        else:
            print(text, end="", file=out)
    return 1 if any(f.severity == "error" for f in plan.findings) else 0


def _audit(kb: KnowledgeBase, args: argparse.Namespace, out: TextIO) -> int:
    plan = _load_plan(kb, args.platform, None)
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


def _plan(kb: KnowledgeBase, path: str, as_of: dt.date | None, as_json: bool, out: TextIO) -> int:
    plan = _load_plan(kb, path, as_of)
    if plan is None:
        return 2
    if as_json:
        print(plan.model_dump_json(indent=2), file=out)
    else:
        _print_plan(plan, out)
    return 1 if any(f.severity == "error" for f in plan.findings) else 0


def _print_plan(plan: Plan, out: TextIO) -> None:
    print(f"nasplan plan (knowledge base {plan.kb_version}, advice as of {plan.as_of})", file=out)
    if plan.summary is not None:
        print(f"\nAt a glance: {plan.summary.verdict}", file=out)
        for line in plan.summary.decisions:
            print(f"  - {line}", file=out)
        for d in plan.summary.disagreements:
            print(f"  ! sources disagree on {d.topic}: following {d.followed}", file=out)
    table = render_mount_table(plan)
    print(f"\n{table.path}:", file=out)
    for entry in table.entries:
        print(entry.text, file=out)
    print("\nSettings:", file=out)
    for s in plan.settings:
        where = f" [{', '.join(s.applies_to)}]" if s.applies_to else ""
        value = "(unset)" if s.action == "unset" else s.value
        print(f"  {s.target:7} {s.key} = {value}{where}   <- {', '.join(s.rules)}", file=out)
    print("\nFindings:", file=out)
    for f in plan.findings:
        print(f"  {f.severity.upper():7} {f.rule}: {f.message}", file=out)
    e = plan.expectations
    print(
        f"\nExpect: {_headline(e)}; one serial stream {e.single_stream_mb_s} MB/s at "
        f"{e.rtt_us} us round trip; "
        f"8 KB NFS overhead {e.nfs_overhead_8k_us} us ({e.overhead_vs_disk_pct}% of a disk "
        f"read).\nBottleneck: {e.bottleneck}",
        file=out,
    )
    if plan.capacity is not None:
        print("\nCapacity:", file=out)
        for v in plan.volumes:
            size = f"{v.size_gb:,} GB" if v.size_gb else "not sized"
            print(f"  {v.name:24} {size:>12}   holds {', '.join(v.holds)}", file=out)
        if plan.capacity.redo_logs is not None:
            r = plan.capacity.redo_logs
            print(
                f"  online redo logs: {r.groups_per_thread} x {r.log_file_mb} MB per thread",
                file=out,
            )
        for line in plan.capacity.not_sized:
            print(f"  not sized: {line}", file=out)


def _rules(kb: KnowledgeBase, category: str | None, as_json: bool, out: TextIO) -> int:
    selected = [r for r in kb.rules.values() if category is None or r.category == category]
    if as_json:
        print(json.dumps([r.model_dump(mode="json") for r in selected], indent=2), file=out)
        return 0
    for r in sorted(selected, key=lambda r: (r.category, r.id)):
        print(f"{r.id:32} {r.category:13} {r.effective_from}  {r.title}", file=out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def _headline(e: Expectations) -> str:
    if e.planned_scan_mb_s is None:
        return f"{e.planned_client or 'serial client'}"
    return f"about {e.planned_scan_mb_s} MB/s for a large scan with {e.planned_client}"

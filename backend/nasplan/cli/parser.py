"""The command line's grammar: every command, its arguments and their help."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
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
    sub.add_parser(
        "calibration",
        help="the expectations model beside the measurements the sources published (the "
        "README's calibration table, in Markdown)",
    )
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
        type=positive_int,
        metavar="N",
        help="server processes on the one port (default: NASPLAN_WORKERS, else 1)",
    )
    sub.add_parser(
        "migrate",
        help="apply the database migrations (DATABASE_URL) and exit; run it once before "
        "starting servers with NASPLAN_MIGRATE_ON_START=false",
    )
    return parser


def positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number

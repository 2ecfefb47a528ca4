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

One module per group of commands: ``parser`` (the grammar), ``planning`` (plan, bundle,
runbook), ``auditing`` (audit, collector), ``knowledge`` (kb, rules, rule, presets) and
``server`` (serve, migrate); ``main`` below dispatches to them.
"""

from __future__ import annotations

import sys
from typing import TextIO

from nasplan.cli.auditing import audit_command, collector_command
from nasplan.cli.knowledge import kb_check, kb_docs, list_presets, list_rules, show_rule
from nasplan.cli.parser import build_parser
from nasplan.cli.planning import files_command, plan_command
from nasplan.cli.server import migrate, serve
from nasplan.knowledge.loader import KnowledgeError, load_knowledge
from nasplan.settings import get_settings

__all__ = ["main"]


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        return serve(args.workers)
    if args.command == "migrate":
        return migrate(out)
    if args.command == "kb" and args.kb_command == "docs":
        return kb_docs(args.path or get_settings().knowledge_dir, args.check, out)
    if args.command == "kb":
        return kb_check(args.path or get_settings().knowledge_dir, out)
    try:
        kb = load_knowledge(get_settings().knowledge_dir)
    except KnowledgeError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.command == "plan":
        return plan_command(kb, args.platform, args.as_of, args.json, out)
    if args.command in ("bundle", "runbook"):
        return files_command(kb, args, out)
    if args.command == "audit":
        return audit_command(kb, args, out)
    if args.command == "collector":
        return collector_command(kb, args, out)
    if args.command == "calibration":
        from nasplan.engine.calibration import calibration_page

        print(calibration_page(kb), end="", file=out)
        return 0
    if args.command == "rules":
        return list_rules(kb, args.category, args.json, out)
    if args.command == "rule":
        return show_rule(kb, args.rule_id, out)
    return list_presets(kb, out)

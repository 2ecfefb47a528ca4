"""The planning commands: `nasplan plan`, `nasplan bundle` and `nasplan runbook`, and the
platform file they all read."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from nasplan.domain.figures import random_reads_words, rate_words
from nasplan.domain.plan import Expectations, Plan
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import CatalogError
from nasplan.renderers.bundle import render_bundle
from nasplan.renderers.mount_table import render_mount_table
from nasplan.renderers.runbook import render_runbook_html, render_runbook_markdown


def load_plan(kb: KnowledgeBase, path: str, as_of: dt.date | None) -> Plan | None:
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


def files_command(kb: KnowledgeBase, args: argparse.Namespace, out: TextIO) -> int:
    plan = load_plan(kb, args.platform, args.as_of)
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


def plan_command(
    kb: KnowledgeBase, path: str, as_of: dt.date | None, as_json: bool, out: TextIO
) -> int:
    plan = load_plan(kb, path, as_of)
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
    reads = random_reads_words(
        e.random_8k_reads_ceiling,
        e.random_8k_reads_per_read_in_flight,
        e.random_8k_reads_in_flight_to_fill,
    )
    for line in (reads, f"Host CPU: {e.client_cpu_note}" if e.client_cpu_note else ""):
        if line:
            print(line, file=out)
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


def _headline(e: Expectations) -> str:
    if e.planned_scan_mb_s is None:
        return f"{e.planned_client or 'serial client'}"
    return f"about {rate_words(e.planned_scan_mb_s)} for a large scan with {e.planned_client}"

"""The runbook's sections read from the plan and the bundle's files rather than from its
steps: the plan at a glance, capacity, the placeholders left to fill in, the files the storage
administrator works from, and what to expect once applied."""

from __future__ import annotations

from nasplan.domain.figures import random_reads_words, rate_words
from nasplan.domain.plan import Plan
from nasplan.renderers.bundle_index import storage_work_paths
from nasplan.renderers.cloud_common import terraform_inputs
from nasplan.renderers.common import PLACEHOLDER_RE
from nasplan.renderers.handover import answer_for


def glance_lines(plan: Plan) -> list[str]:
    """The plan at a glance: verdict, decisions, disagreements, reversals."""
    s = plan.summary
    if s is None:
        return []
    return [
        s.verdict,
        *s.decisions,
        *(f"Sources disagree on {d.topic}: the plan follows {d.followed}" for d in s.disagreements),
        *s.reversals,
    ]


def capacity_rows(plan: Plan) -> list[tuple[str, str, str, str, str]]:
    """Volume, what it holds, size, snapshot reserve, autosize limit: when sizing was asked."""
    if plan.capacity is None:
        return []
    rows = []
    for v in plan.volumes:
        sizing = v.sizing
        reserve = sizing.snapshot_reserve_pct if sizing else None
        limit = sizing.autosize_max_gb if sizing else None
        rows.append(
            (
                v.name,
                ", ".join(v.holds),
                f"{v.size_gb:,} GB" if v.size_gb else "not sized",
                f"{reserve}%" if reserve is not None else "-",
                f"{limit:,} GB" if limit else "-",
            )
        )
    return rows


def capacity_notes(plan: Plan) -> list[str]:
    capacity = plan.capacity
    if capacity is None:
        return []
    notes = [
        f"{v.name}: " + "; ".join(v.sizing.arithmetic) for v in plan.volumes if v.sizing is not None
    ]
    if capacity.redo_logs is not None:
        r = capacity.redo_logs
        notes.append(
            f"Online redo logs: {r.groups_per_thread} groups per thread x {r.threads} "
            f"thread(s), {r.log_file_mb:,} MB each ({r.basis})."
        )
    if capacity.archive is not None:
        notes.append(capacity.archive.note)
    if capacity.cloud is not None:
        notes.append(capacity.cloud.note)
    notes += [f"Not sized: {line}." for line in capacity.not_sized]
    return notes


_COMMENT = ("#", "--", "*", "{#")


def placeholder_lines(files: dict[str, str]) -> list[str]:
    """One line per placeholder left on the lines used as they stand (not comments, not
    scripts: the scripts refuse placeholders and never contain one in a command): the value,
    the question that fills it in, and the files that carry it."""
    where: dict[str, list[str]] = {}
    inputs = terraform_inputs(files)
    for path, text in files.items():
        if path.endswith((".md", ".html", ".tf.json")) or path == "plan.json":
            continue
        if text.startswith("#!"):
            continue
        if path.endswith(".j2"):
            text = text.split("#}", 1)[-1]
        lines = [line for line in text.splitlines() if not line.lstrip().startswith(_COMMENT)]
        for name in dict.fromkeys(PLACEHOLDER_RE.findall("\n".join(lines))):
            where.setdefault(name, []).append(path)
    for name, (path, _) in inputs.items():
        where.setdefault(name, []).append(path)
    result = []
    for name, paths in where.items():
        answer = answer_for(name)
        asked = f"{answer.question} ({answer.field})" if answer else None
        if asked is None:
            asked = inputs[name][1] if name in inputs else "no question fills it"
        result.append(f"{name}: {asked}; in {', '.join(paths)}")
    return result


def storage_files(files: dict[str, str]) -> str:
    """The files the storage administrator works from, as this bundle has them."""
    return ", ".join(storage_work_paths(files)) + " (phases 1 to 3), verify/filer_checks.txt"


def expect_lines(plan: Plan) -> list[str]:
    """What to expect once applied, for the client the plan uses (see plan.json for more)."""
    e = plan.expectations
    lines = []
    if e.planned_scan_mb_s is not None:
        lines.append(
            f"A large scan with {e.planned_client}: about {rate_words(e.planned_scan_mb_s)} "
            f"({rate_words(e.nic_payload_ceiling_mb_s)} per link)."
        )
    else:
        lines.append(f"Client: {e.planned_client}.")
    lines += [
        f"One serial stream (one request at a time): about {rate_words(e.single_stream_mb_s)} "
        f"at a {e.rtt_us:.0f} µs round trip.",
        f"Bottleneck: {e.bottleneck}",
        f"TCP window the path needs: {e.tcp_window_bytes} bytes.",
    ]
    reads = random_reads_words(
        e.random_8k_reads_ceiling,
        e.random_8k_reads_per_read_in_flight,
        e.random_8k_reads_in_flight_to_fill,
    )
    if reads:
        lines.append(reads)
    if e.client_cpu_note:
        lines.append(f"Host CPU: {e.client_cpu_note}")
    return lines

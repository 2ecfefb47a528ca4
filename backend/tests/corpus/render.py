"""A deterministic, human-readable text rendering of a plan, for review of the corpus goldens.

Everything the planner decides is here, each item with the rules behind it: the platform, the
volumes, every mount (options and the rules behind each option), settings, findings, checks,
superseded advice and the expectations. Nothing depends on the calendar, the machine or dict
order that the planner does not already fix, so the same knowledge base always gives the same
text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from nasplan.domain.plan import Expectations, Mount, Plan, Setting
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase

PLATFORMS_FILE = Path(__file__).parent / "platforms.yaml"


class CorpusEntry:
    """One named platform of platforms.yaml."""

    def __init__(self, entry_id: str, why: str, body: dict[str, Any]) -> None:
        self.id = entry_id
        self.why = why
        self.body = body

    def platform(self) -> Platform:
        return Platform.model_validate(self.body)


def load_corpus(path: Path = PLATFORMS_FILE) -> list[CorpusEntry]:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries: list[CorpusEntry] = []
    for raw in document["platforms"]:
        body = dict(raw["platform"])
        # YAML reads an unquoted date as a date; the API takes the ISO text.
        body["as_of"] = str(body["as_of"])
        entries.append(CorpusEntry(str(raw["id"]), str(raw["why"]), body))
    return entries


def corpus_plan(kb: KnowledgeBase, entry: CorpusEntry) -> Plan:
    return make_plan(kb, entry.platform())


# ------------------------------------------------------------------------------ helpers
def _num(value: float | int | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    return f"{value:.6g}"


def _rules(rule_ids: Iterable[str]) -> str:
    ids = list(rule_ids)
    return "[" + ", ".join(ids) + "]" if ids else "[]"


def _section(title: str, count: int | None = None) -> str:
    label = title if count is None else f"{title} ({count})"
    return f"\n== {label} " + "=" * max(3, 76 - len(label)) + "\n"


def _yes(flag: bool, yes: str, no: str) -> str:
    return yes if flag else no


def platform_summary(platform: Platform) -> list[str]:
    h, n, o, f, lay = (
        platform.host,
        platform.network,
        platform.oracle,
        platform.filer,
        platform.layout,
    )
    memory = f", {h.memory_gb} GB" if h.memory_gb is not None else ""
    host = f"host     {h.os} {h.os_version} ({h.arch}{memory})"
    if h.hostname or h.nic_interface:
        host += f" hostname={h.hostname or '-'} nic={h.nic_interface or '-'}"
    rtt = f", measured rtt {_num(n.rtt_us)} us" if n.rtt_us is not None else ""
    network = (
        f"network  {n.nic_count} x {n.nic_gbps} GbE, "
        f"{_yes(n.jumbo_frames, 'jumbo frames', 'standard MTU')}, {n.switch}, "
        f"{n.switch_hops} switch hop(s), {n.router_hops} router hop(s), "
        f"{_yes(n.dedicated_storage_network, 'dedicated', 'shared')} storage network{rtt}"
    )
    rac = f"RAC {o.rac_nodes or '?'} nodes" if o.rac else "single instance"
    oracle = (
        f"oracle   {o.version} {o.bits}-bit, {rac}, "
        f"{_yes(o.dnfs, 'Direct NFS', 'kernel NFS')}, NFSv{o.nfs_version}, "
        f"{_yes(o.archivelog, 'archivelog', 'noarchivelog')}, {o.workload}, "
        f"{o.instances} instance(s) per host"
    )
    filer = (
        f"filer    {f.vendor} model={f.model or '-'} release={f.os_version or '-'} "
        f"interface={f.interface or '-'}"
    )
    layout = (
        f"layout   ORACLE_HOME {lay.oracle_home}, volumes {lay.volumes}, "
        f"filer_host={lay.filer_host}, db_name={lay.db_name}"
    )
    return [host, network, oracle, filer, layout]


def _mount_lines(mount: Mount) -> list[str]:
    lines = [
        f"{mount.mount_point}  {mount.export}  {','.join(mount.options)}",
        f"    role={mount.role} serves={','.join(mount.serves)} volume={mount.volume}",
    ]
    width = max((len(o) for o in mount.options), default=0)
    for option in mount.options:
        lines.append(f"    {option:<{width}}  {_rules(mount.option_rules.get(option, []))}")
    return lines


def _setting_line(setting: Setting) -> str:
    value = "(unset)" if setting.action == "unset" else setting.value
    parts = [
        f"{setting.target:<7} {setting.key} = {value}",
        f"mechanism={setting.mechanism}",
        f"scope={setting.scope or '-'}",
        f"requires={setting.requires}",
    ]
    if setting.action == "unset":
        parts.append("action=unset")
    if setting.applies_to:
        parts.append(f"applies_to={','.join(setting.applies_to)}")
    parts.append(f"rules={_rules(setting.rules)}")
    return "  ".join(parts)


def _expectation_lines(e: Expectations) -> list[str]:
    lines = [
        f"planned_client            {e.planned_client}",
        f"planned_scan_mb_s         {_num(e.planned_scan_mb_s)}",
        f"single_stream_mb_s        {_num(e.single_stream_mb_s)}",
        f"pipelined_stream_mb_s     {_num(e.pipelined_stream_mb_s)}",
        f"rtt_us                    {_num(e.rtt_us)}"
        f"{' (measured)' if e.rtt_measured else ' (modelled)'}",
        f"transfer_bytes            {e.transfer_bytes}",
        f"nic_payload_ceiling_mb_s  {_num(e.nic_payload_ceiling_mb_s)}",
        f"aggregate_ceiling_mb_s    {_num(e.aggregate_ceiling_mb_s)}",
        f"serial_client             {_yes(e.serial_client, 'yes', 'no')}",
        f"nfs_overhead_8k_us        {_num(e.nfs_overhead_8k_us)}",
        f"overhead_vs_disk_pct      {_num(e.overhead_vs_disk_pct)}",
        f"tcp_window_bytes          {e.tcp_window_bytes}",
        "latency budget:",
    ]
    lines.extend(f"  {p.part:<9} {_num(p.us):>10} us  {p.note}" for p in e.latency_budget_us)
    total = sum(p.us for p in e.latency_budget_us)
    lines.append(f"  {'total':<9} {_num(total):>10} us")
    lines.append(f"bottleneck: {e.bottleneck}")
    lines.extend(f"improvement: {text}" for text in e.improvements)
    lines.extend(f"assumption: {text}" for text in e.assumptions)
    lines.append(f"rules: {_rules(e.rules)}")
    return lines


def _block(lines: Sequence[str], empty: str = "(none)") -> str:
    return "\n".join(lines) + "\n" if lines else empty + "\n"


# ------------------------------------------------------------------------------- render
def render_plan(plan: Plan, entry_id: str = "", why: str = "") -> str:
    out: list[str] = []
    title = f"nasplan corpus plan: {entry_id}" if entry_id else "nasplan plan"
    out.append(f"# {title}\n")
    if why:
        out.append(f"# why: {why}\n")
    out.append(f"as_of        {plan.as_of.isoformat()}\n")
    out.append(f"kb_version   {plan.kb_version}\n")
    out.append(_block(platform_summary(plan.platform)))

    out.append(_section("volumes", len(plan.volumes)))
    out.append(
        _block(
            [
                f"{v.name:<16} {v.export:<24} role={v.role} holds={','.join(v.holds)} "
                f"rules={_rules(v.rules)}"
                for v in plan.volumes
            ]
        )
    )

    out.append(_section("mounts", len(plan.mounts)))
    out.append(_block([line for m in plan.mounts for line in _mount_lines(m)]))

    out.append(_section("settings", len(plan.settings)))
    out.append(_block([_setting_line(s) for s in plan.settings]))

    out.append(_section("findings", len(plan.findings)))
    findings = []
    for f in plan.findings:
        related = f"  (related: {', '.join(f.related_rules)})" if f.related_rules else ""
        findings.append(f"{f.severity.upper():<7} {f.rule}: {f.message}{related}")
    out.append(_block(findings))

    out.append(_section("checks", len(plan.checks)))
    checks = []
    for c in plan.checks:
        stage = ", before the window" if c.stage == "before" else ""
        checks.append(f"[{c.where}{stage}] {c.what}  {_rules(c.rules)}")
        checks.append(f"    $ {c.command}")
        checks.append(f"    expect: {c.expect}")
    out.append(_block(checks))

    out.append(_section("superseded rules", len(plan.superseded)))
    out.append(
        _block(
            [
                f"{s.rule} ({s.effective_from.isoformat()}) -> {', '.join(s.by)} "
                f"on {s.replaced_on.isoformat()}: {s.title} | {s.reason}"
                for s in plan.superseded
            ]
        )
    )

    out.append(_section("expectations"))
    out.append(_block(_expectation_lines(plan.expectations)))

    out.append(_section("applied rules", len(plan.applied_rules)))
    out.append(_block([", ".join(plan.applied_rules)] if plan.applied_rules else []))
    return "".join(out)

"""Findings the planner raises from the rules and from the expectations model: the fired rules'
own messages and model checks, advice that was superseded, conflicts between sources, options
withheld from a mount, undeclared collisions, and a TCP window or serial client that falls
short of the link. Pure, like the planner that calls it.
"""

from __future__ import annotations

import string
from typing import Any

from nasplan.domain.plan import Finding, Setting
from nasplan.domain.platform import Platform
from nasplan.engine.compose import Composition
from nasplan.engine.evaluate import Evaluation
from nasplan.engine.lifecycle import certification_findings, lifecycle_findings
from nasplan.engine.messages import Blank
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import ResolvedPlatform
from nasplan.knowledge.schema import Rule


def rule_findings(
    kb: KnowledgeBase,
    resolved: ResolvedPlatform,
    evaluation: Evaluation,
    composition: Composition,
    context: dict[str, str],
    earlier: list[Finding],
) -> list[Finding]:
    """The findings of the fired rules and of composing them. ``earlier``: the findings already
    raised, so that an undeclared collision one of them reports is not reported again."""
    findings: list[Finding] = []
    for rule in evaluation.fired:
        for effect in rule.effects.findings:
            message = string.Formatter().vformat(effect.message, (), Blank(context))
            findings.append(Finding(severity=effect.severity, rule=rule.id, message=message))
        if "os_arch_supported" in rule.effects.model_checks:
            findings += _check_arch(kb, resolved.platform, rule)
        if "vendor_lifecycle" in rule.effects.model_checks:
            findings += lifecycle_findings(kb, resolved, rule.id)
        if "oracle_os_certified" in rule.effects.model_checks:
            findings += certification_findings(kb, resolved, rule.id)
        if "known_mount_options" in rule.effects.model_checks:
            findings += _check_option_names(kb, resolved.platform, composition, rule)
    for old_id, new_ids in evaluation.superseded.items():
        old = kb.rules[old_id]
        for new_id in new_ids:
            new = kb.rules[new_id]
            findings.append(
                Finding(
                    severity="info",
                    rule=new_id,
                    message=f"Advice changed on {new.effective_from.isoformat()}: "
                    f"\u201c{old.title}\u201d ({_cite(kb, old)}) was replaced by "
                    f"\u201c{new.title}\u201d ({_cite(kb, new)}).",
                    related_rules=[old_id],
                )
            )
    for outcome in composition.conflicts:
        conflict = outcome.conflict
        losers = "; ".join(side.position for side in conflict.losers)
        findings.append(
            Finding(
                severity=conflict.severity,
                rule=outcome.winners[0],
                message=f"Sources disagree on {conflict.topic}. Followed: "
                f"{conflict.winner.position} Set aside: {losers} Why: {conflict.reason}",
                related_rules=[*outcome.winners[1:], *outcome.losers],
            )
        )
    for blocker, dropped, role, option in composition.withheld:
        findings.append(
            Finding(
                severity="info",
                rule=blocker,
                message=f"{option} is not used on the {role} mount.",
                related_rules=[dropped],
            )
        )
    for kept, dropped, what in composition.undeclared:
        if any(f.rule == kept and dropped in f.related_rules for f in [*earlier, *findings]):
            continue
        findings.append(
            Finding(
                severity="warning",
                rule=kept,
                message=f"Two rules disagree on {what} and the knowledge base does not say "
                f"which wins; nasplan followed the stronger, newer rule. Please report it.",
                related_rules=[dropped],
            )
        )
    return findings


def _check_arch(kb: KnowledgeBase, platform: Platform, rule: Rule) -> list[Finding]:
    host = platform.host
    entry = kb.os[host.os]
    if host.arch not in entry.arches:
        return [
            Finding(
                severity="error",
                rule=rule.id,
                message=f"{entry.label} does not run on {host.arch}: choose "
                f"{' or '.join(entry.arches)} for host.arch, or another OS.",
            )
        ]
    return []


# ----------------------------------------------------------- expectations
def expectation_findings(
    kb: KnowledgeBase,
    platform: Platform,
    settings: list[Setting],
    expectations: Any,
    bdp_rule: Rule | None,
    serial_rule: Rule | None,
) -> list[Finding]:
    """The findings of the fired rules with the ``tcp_window_vs_bdp`` (``bdp_rule``) and
    ``serial_client`` (``serial_rule``) model checks, against the plan's expectations."""
    findings: list[Finding] = []
    if bdp_rule is not None:
        bdp = (
            f"the bandwidth-delay product of this path ({expectations.tcp_window_bytes} "
            f"bytes at {expectations.rtt_us:g} µs round trip)"
        )
        filer_rules = list(
            dict.fromkeys(r for s in settings if s.key == "nfs.tcp.recvwindowsize" for r in s.rules)
        )
        windows = [
            (
                _planned_receive_window(settings),
                "The planned TCP receive window ({} bytes) is smaller than "
                f"{bdp}: one connection cannot fill the link.",
                [],
            ),
            (
                _planned_filer_receive_window(settings),
                "The filer's NFS TCP receive window ({} bytes, nfs.tcp.recvwindowsize) is "
                f"smaller than {bdp}: writes over one connection cannot fill the link. The "
                "value comes from guidance written for GbE; raise it to at least the "
                "bandwidth-delay product after checking the largest value your Data ONTAP "
                "release accepts.",
                filer_rules,
            ),
        ]
        for window, words, related in windows:
            if window is not None and window < expectations.tcp_window_bytes:
                findings.append(
                    Finding(
                        severity="warning",
                        rule=bdp_rule.id,
                        message=words.format(window),
                        related_rules=related,
                    )
                )
    if serial_rule is not None and expectations.serial_client:
        findings.append(
            Finding(
                severity="info",
                rule=serial_rule.id,
                message=f"The {kb.os[platform.host.os].label} kernel NFS client "
                f"keeps one request in flight per stream: a single serial scan is expected "
                f"at about {expectations.single_stream_mb_s:g} MB/s of a "
                f"{expectations.nic_payload_ceiling_mb_s:g} MB/s link.",
            )
        )
    return findings


def _check_option_names(
    kb: KnowledgeBase, platform: Platform, composition: Composition, rule: Rule
) -> list[Finding]:
    """Every option the plan writes is one the OS release's NFS client takes: a mount line with
    any other fails to mount."""
    client = kb.client_of(platform.host.os, platform.host.os_version)
    if client is None:
        return []
    unknown = sorted({c.option for c in composition.options if not client.takes(c.option)})
    return [
        Finding(
            severity="error",
            rule=rule.id,
            message=f"{option} is not an option the NFS client of "
            f"{kb.os[platform.host.os].label} takes: a mount line with it fails to mount.",
        )
        for option in unknown
    ]


def _cite(kb: KnowledgeBase, rule: Rule) -> str:
    ref = rule.sources[0]
    source = kb.sources[ref.id]
    label = source.number or source.title
    return f"{label}, {rule.effective_from:%B %Y}"


def _planned_receive_window(settings: list[Setting]) -> int | None:
    for setting in settings:
        if setting.key in ("tcp_recv_hiwat", "tcp_recvspace"):
            return int(setting.value) if setting.value.isdigit() else None
        if setting.key == "net.ipv4.tcp_rmem":
            return int(setting.value.split()[-1])
    return None


def _planned_filer_receive_window(settings: list[Setting]) -> int | None:
    for setting in settings:
        if setting.target == "filer" and setting.key == "nfs.tcp.recvwindowsize":
            return int(setting.value) if setting.value.isdigit() else None
    return None

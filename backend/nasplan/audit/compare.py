"""Audit: compare pasted configuration with the plan for the same platform.

Every finding names the rule behind the planned value (or the rule that forbids what was
found), so the reader can ask "why?" exactly as for a plan item.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal

from nasplan.audit.dnfs_checks import DnfsChecks
from nasplan.audit.hints import platform_hints
from nasplan.audit.kinds import FILE_KINDS, FileKind
from nasplan.audit.mount_checks import MountChecks
from nasplan.audit.parsers import (
    MAX_LINES,
    Parameter,
    Parsed,
    continues,
)
from nasplan.audit.report import (
    MAX_ASSIGNMENTS,
    MAX_CORRECTED_CHARS,
    MAX_FINDINGS,
    MAX_IGNORED_LISTED,
    AuditFinding,
    AuditReport,
)
from nasplan.audit.roles import DeclaredRole
from nasplan.audit.setting_checks import SettingChecks
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase


def audit(
    kb: KnowledgeBase,
    platform: Platform,
    files: dict[FileKind, str],
    roles: dict[str, list[DeclaredRole]] | None = None,
) -> AuditReport:
    plan = make_plan(kb, platform)
    auditor = _Auditor(kb, plan, roles or {})
    checked: dict[str, int] = {}
    ignored: dict[str, list[int]] = {}
    unread: dict[str, int] = {}
    oracle_params: dict[str, list[Parameter]] = {}
    devices: list[str] = []
    for kind, text in files.items():
        spec = FILE_KINDS[kind]
        parsed: Parsed[Any] = spec.parse(text)
        if spec.reads == "mounts":
            auditor.mounts(kind, parsed.items, runtime=spec.runtime)
            devices += [entry.device for entry in parsed.items]
        elif spec.reads == "parameters":
            assert spec.fix_form is not None
            auditor.parameters(
                kind, parsed.items, spec.mechanisms[0], spec.fix_form, excerpt=spec.excerpt
            )
            auditor.refused(kind, parsed.refused, spec.mechanisms[0], spec.fix_form)
            auditor.ceilings(kind, parsed.items, spec.mechanisms[0])
            auditor.misspelled(kind, parsed.items, spec.mechanisms[0], spec.fix_form)
            if "init_ora" in spec.mechanisms:
                oracle_params[kind] = parsed.items
        elif spec.reads == "vol_options":
            auditor.vol_options(parsed.items)
        elif spec.reads == "ontap_fields":
            auditor.ontap_fields(parsed.items)
        elif spec.reads == "dnfs_servers":
            auditor.dnfs_servers(parsed.items, parsed.says_empty)
        else:
            auditor.oranfstab(parsed.items)
        checked[kind], ignored[kind] = len(parsed.items) + len(parsed.refused), parsed.ignored
        if parsed.unread:
            unread[kind] = parsed.unread
    auditor.finish()
    order = {"error": 0, "warning": 1, "info": 2}
    total = sum(checked.values())
    pasted_params = [p for kind in FILE_KINDS for p in oracle_params.get(kind, [])]
    hints = platform_hints(kb, plan, [str(kind) for kind in files], pasted_params, devices)
    bad_lines = {
        (f.file, f.line) for f in auditor.findings if f.severity != "info" and f.line is not None
    }
    findings = sorted(auditor.findings, key=lambda f: (order[f.severity], f.file, f.line or 0))
    correctable = {
        kind: (text, comment)
        for kind, text in files.items()
        if (comment := FILE_KINDS[kind].comment) is not None
    }
    return AuditReport(
        kb_version=plan.kb_version,
        as_of=plan.as_of,
        findings=findings[:MAX_FINDINGS],
        findings_omitted=max(0, len(findings) - MAX_FINDINGS),
        severity_counts=Counter(f.severity for f in findings),
        line_counts=_line_counts(findings),
        checked=checked,
        ignored_lines={kind: lines[:MAX_IGNORED_LISTED] for kind, lines in ignored.items()},
        ignored_count={kind: len(lines) for kind, lines in ignored.items()},
        assignments=auditor.assignments[:MAX_ASSIGNMENTS],
        assignments_omitted=max(0, len(auditor.assignments) - MAX_ASSIGNMENTS),
        not_checked=[
            *(
                f"{kind}: the {count:,} lines after line {MAX_LINES:,} were not read"
                for kind, count in unread.items()
            ),
            *auditor.not_checked(set(files)),
        ],
        unread_lines=unread,
        score=round(100 * max(0, total - len(bad_lines)) / total) if total else None,
        platform_hints=hints.messages,
        platform_suggestions=hints.suggestions,
        corrected={
            kind: _corrected(text, comment, auditor.findings, kind)
            for kind, (text, comment) in correctable.items()
            if len(text) <= MAX_CORRECTED_CHARS
        },
        corrected_omitted=[
            kind for kind, (text, _) in correctable.items() if len(text) > MAX_CORRECTED_CHARS
        ],
    )


def _line_counts(findings: list[AuditFinding]) -> Counter[Literal["error", "warning", "info"]]:
    order = {"error": 0, "warning": 1, "info": 2}
    worst: dict[tuple[str, int], Literal["error", "warning", "info"]] = {}
    alone: list[Literal["error", "warning", "info"]] = []
    for f in findings:
        if f.line is None:
            alone.append(f.severity)
            continue
        seen = worst.get((f.file, f.line))
        if seen is None or order[f.severity] < order[seen]:
            worst[(f.file, f.line)] = f.severity
    return Counter([*worst.values(), *alone])


def _corrected(text: str, comment: str, findings: list[AuditFinding], kind: str) -> str:
    """The pasted file with each finding's fix applied: a line replaced by its fix, a setting
    to remove commented out, a missing setting appended. A line with a warning or an error but
    no fix (what it holds is not known, so there is no planned line for it) stays as it was,
    under a comment that says why, so the corrected file never passes it over in silence."""
    lines = text.splitlines()
    replaced: dict[int, str] = {}
    appended: list[str] = []
    unfixed: dict[int, list[str]] = {}
    for f in findings:
        if f.file != kind:
            continue
        if f.fix is None:
            if f.line is not None and f.severity != "info":
                unfixed.setdefault(f.line, []).append(f.message)
            continue
        if f.line is None:
            appended.append(f.fix)
        elif f.fix.startswith("remove "):
            replaced.setdefault(f.line, f"{comment} {lines[f.line - 1]}")
        else:
            replaced.setdefault(f.line, f.fix)
    # A line continued with backslashes is one entry: its fix replaces every line of it, and
    # a removal comments each of them out.
    follow: dict[int, str] = {}
    for number, fix in replaced.items():
        for later in _continuation(lines, number):
            follow[later] = f"{comment} {lines[later - 1]}" if fix.startswith(comment) else ""
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        if number in follow:
            if follow[number]:
                out.append(follow[number])
            continue
        if number in unfixed and number not in replaced:
            why = " ".join(dict.fromkeys(unfixed[number]))
            out.append(f"{comment} nasplan: left as it was, to change by hand: {why}")
        out.append(replaced.get(number, line))
    out += list(dict.fromkeys(appended))
    return "\n".join(out) + "\n"


def _continuation(lines: list[str], number: int) -> list[int]:
    """The numbers of the lines that continue line ``number`` (each line before them ends in a
    backslash), as the parsers join them."""
    following: list[int] = []
    at = number
    while at < len(lines) and continues(lines[at - 1]):
        at += 1
        following.append(at)
    return following


class _Auditor(MountChecks, SettingChecks, DnfsChecks):
    """Every check of an audit, over one plan."""

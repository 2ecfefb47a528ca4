"""Audit: compare pasted configuration with the plan for the same platform.

Every finding names the rule behind the planned value (or the rule that forbids what was
found), so the reader can ask "why?" exactly as for a plan item.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from nasplan.audit.parsers import (
    MountEntry,
    NfstabServer,
    Parameter,
    Parsed,
    parse_filesystems,
    parse_fstab,
    parse_init_ora,
    parse_mount_output,
    parse_oranfstab,
    parse_vfstab,
    parse_vol_options,
)
from nasplan.domain.plan import Finding, Mount, Plan
from nasplan.domain.platform import OsName, Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.schema import Rule

FileKind = Literal[
    "vfstab", "fstab", "filesystems", "mount", "init.ora", "vol_options", "oranfstab"
]
MOUNT_PARSERS: dict[str, Callable[[str], Parsed[MountEntry]]] = {
    "vfstab": parse_vfstab,
    "fstab": parse_fstab,
    "filesystems": parse_filesystems,
    "mount": parse_mount_output,
}
# Options that a running system does not report back (mount-time or default-only flags).
NOT_REPORTED_AT_RUNTIME = {"bg", "fg", "intr", "nointr", "suid", "rw"}
_SEVERITY_OF_RULE: dict[str, Literal["error", "warning", "info"]] = {
    "critical": "error",
    "high": "warning",
    "medium": "warning",
    "low": "info",
}


class AuditFinding(Finding):
    file: str = Field(description="Which pasted file the finding is about.")
    line: int | None = Field(default=None, description="Line in that file, when known.")


class AuditReport(BaseModel):
    kb_version: str
    as_of: dt.date
    findings: list[AuditFinding]
    checked: dict[str, int] = Field(description="Entries understood per file.")
    ignored_lines: dict[str, list[int]] = Field(description="Lines not understood per file.")


def audit(kb: KnowledgeBase, platform: Platform, files: dict[FileKind, str]) -> AuditReport:
    plan = make_plan(kb, platform)
    auditor = _Auditor(kb, plan)
    checked: dict[str, int] = {}
    ignored: dict[str, list[int]] = {}
    for kind, text in files.items():
        if kind in MOUNT_PARSERS:
            parsed_mounts = MOUNT_PARSERS[kind](text)
            auditor.mounts(kind, parsed_mounts.items, runtime=kind == "mount")
            checked[kind], ignored[kind] = len(parsed_mounts.items), parsed_mounts.ignored
        elif kind == "init.ora":
            parsed = parse_init_ora(text)
            auditor.init_ora(parsed.items)
            checked[kind], ignored[kind] = len(parsed.items), parsed.ignored
        elif kind == "vol_options":
            parsed = parse_vol_options(text)
            auditor.vol_options(parsed.items)
            checked[kind], ignored[kind] = len(parsed.items), parsed.ignored
        else:
            parsed_servers = parse_oranfstab(text)
            auditor.oranfstab(parsed_servers.items)
            checked[kind], ignored[kind] = len(parsed_servers.items), parsed_servers.ignored
    order = {"error": 0, "warning": 1, "info": 2}
    return AuditReport(
        kb_version=plan.kb_version,
        as_of=plan.as_of,
        findings=sorted(auditor.findings, key=lambda f: (order[f.severity], f.file, f.line or 0)),
        checked=checked,
        ignored_lines=ignored,
    )


class _Auditor:
    def __init__(self, kb: KnowledgeBase, plan: Plan) -> None:
        self.kb = kb
        self.plan = plan
        self.os: OsName = plan.platform.host.os
        self.findings: list[AuditFinding] = []
        self.applied: list[Rule] = [kb.rules[r] for r in plan.applied_rules]

    def add(
        self,
        severity: Literal["error", "warning", "info"],
        rule: str,
        file: str,
        line: int | None,
        message: str,
    ) -> None:
        self.findings.append(
            AuditFinding(severity=severity, rule=rule, message=message, file=file, line=line)
        )

    # -------------------------------------------------------------- mounts
    def normalize(self, option: str) -> str:
        name, sep, value = option.partition("=")
        entry = self.kb.option_index.get((self.os, name))
        if entry is None:
            return option
        if entry.equals:
            return entry.equals
        return f"{entry.token}{sep}{value}"

    def key(self, option: str) -> str:
        entry = self.kb.option_index.get((self.os, option.split("=", 1)[0]))
        return entry.key if entry else option.split("=", 1)[0]

    def forbidder(self, roles: list[str], option: str) -> Rule | None:
        for rule in self.applied:
            for block in rule.effects.forbid_options:
                if option in block.options and set(block.roles) & set(roles):
                    return rule
        return None

    def mounts(self, kind: str, entries: list[MountEntry], runtime: bool) -> None:
        by_point = {e.mount_point.rstrip("/"): e for e in entries}
        for mount in self.plan.mounts:
            entry = by_point.get(mount.mount_point)
            if entry is None:
                volume = next(v for v in self.plan.volumes if v.name == mount.volume)
                self.add(
                    "warning",
                    volume.rules[0],
                    kind,
                    None,
                    f"The planned mount {mount.mount_point} ({'+'.join(mount.serves)}) is missing.",
                )
                continue
            self.compare_mount(kind, mount, entry, runtime)

    def compare_mount(self, kind: str, mount: Mount, entry: MountEntry, runtime: bool) -> None:
        found = [self.normalize(o) for o in entry.options]
        found_by_key = {self.key(o): o for o in found}
        if entry.device != mount.export:
            self.add(
                "info",
                mount.rules[0],
                kind,
                entry.line,
                f"{entry.mount_point} mounts {entry.device}; the plan has {mount.export}.",
            )
        for option in mount.options:
            if option in found or (runtime and option in NOT_REPORTED_AT_RUNTIME):
                continue
            rule = mount.option_rules[option][0]
            other = found_by_key.get(self.key(option))
            if other is None:
                self.add(
                    "warning", rule, kind, entry.line, f"{entry.mount_point}: {option} is missing."
                )
            elif runtime and self.key(option) in ("rsize", "wsize") and _lower(other, option):
                self.add(
                    "info",
                    rule,
                    kind,
                    entry.line,
                    f"{entry.mount_point}: {other} in effect where the plan asks {option}; the "
                    "server or client negotiated it down.",
                )
            else:
                self.add(
                    "warning",
                    rule,
                    kind,
                    entry.line,
                    f"{entry.mount_point}: {other} where the plan has {option}.",
                )
        self.check_forbidden(kind, mount, entry, found)

    def check_forbidden(self, kind: str, mount: Mount, entry: MountEntry, found: list[str]) -> None:
        rsize_max = self.kb.os[self.os].rsize_max
        for option in found:
            blocker = self.forbidder(list(mount.serves), option)
            if blocker is not None:
                self.add(
                    _SEVERITY_OF_RULE[blocker.severity],
                    blocker.id,
                    kind,
                    entry.line,
                    f"{entry.mount_point}: {option} must not be used here ({blocker.title}).",
                )
            name, _, value = option.partition("=")
            if name in ("rsize", "wsize") and value.isdigit() and int(value) > rsize_max:
                self.add(
                    "error",
                    "MNT-TRANSFER-SIZE-CAPS",
                    kind,
                    entry.line,
                    f"{entry.mount_point}: {option} exceeds the {rsize_max}-byte maximum of "
                    f"{self.kb.os[self.os].label}.",
                )

    # ---------------------------------------------------------- parameters
    def init_ora(self, params: list[Parameter]) -> None:
        found = {p.name: p for p in params}
        for setting in self.plan.settings:
            if setting.mechanism != "init_ora":
                continue
            present = found.get(setting.key.lower())
            rule = setting.rules[0]
            if setting.action == "unset":
                if present is not None:
                    self.add(
                        "warning",
                        rule,
                        "init.ora",
                        present.line,
                        f"{setting.key} is set to {present.value}; the plan leaves it unset.",
                    )
            elif present is None:
                self.add(
                    "warning",
                    rule,
                    "init.ora",
                    None,
                    f"{setting.key} is not set; the plan sets {setting.value}.",
                )
            elif present.value.lower() != setting.value.lower():
                self.add(
                    "warning",
                    rule,
                    "init.ora",
                    present.line,
                    f"{setting.key} = {present.value}; the plan sets {setting.value}.",
                )

    def vol_options(self, params: list[Parameter]) -> None:
        found = {p.name: p for p in params}
        for setting in self.plan.settings:
            if setting.mechanism != "ontap7_vol_option":
                continue
            present = found.get(setting.key)
            if present is not None and present.value != setting.value:
                replaced = [s for s in self.plan.superseded if setting.rules[0] in s.by]
                history = (
                    f" (earlier advice, {replaced[0].rule}, was {present.value}; replaced "
                    f"{replaced[0].replaced_on.isoformat()})"
                    if replaced
                    else ""
                )
                self.add(
                    "warning",
                    setting.rules[0],
                    "vol_options",
                    present.line,
                    f"{setting.key}={present.value}; the plan sets {setting.value}{history}.",
                )

    def oranfstab(self, blocks: list[NfstabServer]) -> None:
        dnfs_rule = next((r for r in self.applied if r.id == "DNFS-ORANFSTAB"), None)
        if dnfs_rule is None:
            if blocks:
                self.add(
                    "info",
                    "DNFS-CONSIDER"
                    if "DNFS-CONSIDER" in self.plan.applied_rules
                    else self.plan.applied_rules[0],
                    "oranfstab",
                    blocks[0].line,
                    "An oranfstab is present but the plan does not use Direct NFS.",
                )
            return
        exports = {(e, m) for block in blocks for e, m in block.exports}
        for mount in self.plan.mounts:
            path = mount.export.split(":", 1)[1]
            if (path, mount.mount_point) not in exports:
                self.add(
                    "warning",
                    dnfs_rule.id,
                    "oranfstab",
                    None,
                    f"No export line for {path} mounted at {mount.mount_point}.",
                )
        wanted = "nfsv4.1" if self.plan.platform.oracle.nfs_version == "4.1" else "nfsv3"
        for block in blocks:
            version = block.nfs_version or "nfsv3"
            if version != wanted:
                self.add(
                    "warning",
                    dnfs_rule.id,
                    "oranfstab",
                    block.line,
                    f"server {block.server}: nfs_version {version}; the plan uses {wanted}.",
                )
            multipath = "DNFS-MULTIPATH" in self.plan.applied_rules
            if multipath and len(block.paths) < min(self.plan.platform.network.nic_count, 4):
                self.add(
                    "info",
                    "DNFS-MULTIPATH",
                    "oranfstab",
                    block.line,
                    f"server {block.server} lists {len(block.paths)} path(s) for "
                    f"{self.plan.platform.network.nic_count} storage NICs.",
                )


def _lower(found: str, planned: str) -> bool:
    a, b = found.partition("=")[2], planned.partition("=")[2]
    return a.isdigit() and b.isdigit() and int(a) < int(b)

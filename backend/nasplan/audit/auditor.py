"""What every check of an audit shares: the plan, the findings, the words of the knowledge base.

The checks themselves live beside it by what they read (``mount_checks``, ``setting_checks``,
``dnfs_checks``); ``compare._Auditor`` puts them together.
"""

from __future__ import annotations

from typing import Literal

from nasplan.audit import rule_ids
from nasplan.audit.kinds import CHECKABLE_MECHANISMS, spec_of
from nasplan.audit.oranfstab import NfstabServer
from nasplan.audit.report import AuditFinding, RoleAssignment
from nasplan.audit.roles import DeclaredRole
from nasplan.audit.values import same_value
from nasplan.domain.clean_text import as_one_line
from nasplan.domain.plan import Plan
from nasplan.domain.platform import OsName
from nasplan.domain.vocabulary import MECHANISM_WORDS, RuleSeverity
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import OsDefault
from nasplan.knowledge.schema import Conflict, ConflictSide, Rule, SourceRef

SEVERITY_OF_RULE: dict[str, Literal["error", "warning", "info"]] = {
    "critical": "error",
    "high": "warning",
    "medium": "warning",
    "low": "info",
}


class AuditorBase:
    def __init__(self, kb: KnowledgeBase, plan: Plan, roles: dict[str, list[DeclaredRole]]) -> None:
        self.kb = kb
        self.plan = plan
        self.os: OsName = plan.platform.host.os
        self.findings: list[AuditFinding] = []
        self.applied: list[Rule] = [kb.rules[r] for r in plan.applied_rules]
        self.declared = {point.rstrip("/") or "/": given for point, given in roles.items()}
        self.assignments: list[RoleAssignment] = []
        self.seen_mounts: set[str] = set()
        self.nfstab_blocks: list[NfstabServer] = []
        self.unshown: list[str] = []
        # mechanism -> (the keys rules set, those keys by their sorted words): for misspellings
        self.keys_by_words: dict[str, tuple[set[str], dict[tuple[str, ...], str]]] = {}
        floor_rule = kb.rules[rule_ids.TRANSFER_SIZE_FLOOR]
        self.size_floor = min(
            transfer_size(option)
            for block in floor_rule.effects.mount_options
            for option in block.options
            if option.startswith("rsize=")
        )
        # (mount point, device) of each pasted NFS line that holds database files
        self.database_mounts: list[tuple[str, str]] = []
        # (kind, line, mount point) of each pasted NFS line mounted over NFSv4
        self.nfs4_mounts: list[tuple[str, int, str]] = []

    def add(
        self,
        severity: Literal["error", "warning", "info"],
        rule: str,
        file: str,
        line: int | None,
        message: str,
        fix: str | None = None,
        applies_with: str | None = None,
        *,
        about: list[str],
    ) -> None:
        self.findings.append(
            AuditFinding(
                severity=severity,
                about=about,
                rule=rule,
                # Messages quote the pasted text, which may hold what a one-line text may not.
                message=as_one_line(message),
                file=file,
                line=line,
                fix=fix,
                applies_with=applies_with,
            )
        )

    def severity(
        self, rule_id: str, option: str | None = None
    ) -> Literal["error", "warning", "info"]:
        rule = self.kb.rules.get(rule_id)
        return SEVERITY_OF_RULE[self.rule_severity(rule_id, option)] if rule else "warning"

    def rule_severity(self, rule_id: str, option: str | None = None) -> RuleSeverity:
        """The rule's severity, or the one its mount options block gives ``option``."""
        rule = self.kb.rules[rule_id]
        for block in rule.effects.mount_options:
            if option is not None and option in block.options and block.severity is not None:
                return block.severity
        return rule.severity

    def not_checked(self, kinds: set[str]) -> list[str]:
        missing = [
            f"{m.mount_point} ({'+'.join(m.serves)}): no pasted line carries these files"
            for m in self.plan.mounts
            if m.mount_point not in self.seen_mounts
        ]
        specs = [spec for spec in map(spec_of, kinds) if spec is not None]
        covered = {mechanism for spec in specs for mechanism in spec.mechanisms}
        settings = [
            f"{s.target} {s.key} ({MECHANISM_WORDS[s.mechanism]}): no pasted file shows it"
            for s in self.plan.settings
            if s.mechanism not in covered and s.mechanism in CHECKABLE_MECHANISMS
        ]
        return missing + settings + self.unshown

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

    def disputed(self, rule_ids: list[str]) -> tuple[Conflict, ConflictSide] | None:
        """A disagreement the knowledge base rates as information in which every one of
        ``rule_ids`` is on a losing side (what only that side asks is not a warning, whether or
        not the winner applies here): the conflict and that side."""
        for conflict in self.kb.conflicts:
            if conflict.severity != "info":
                continue
            for side in conflict.losers:
                if rule_ids and set(rule_ids) <= set(side.rules):
                    return conflict, side
        return None

    def forbidder(self, roles: list[str], option: str, everywhere: bool = False) -> Rule | None:
        for rule in self.applied:
            for block in rule.effects.forbid_options:
                if option not in block.options:
                    continue
                if set(block.roles) >= set(roles) if everywhere else set(block.roles) & set(roles):
                    return rule
        return None

    def default_of(self, mechanism: str, key: str) -> OsDefault | None:
        release = self.plan.platform.host.os_version
        return self.kb.os_default(self.os, release, mechanism, key)

    def source_words(self, ref: SourceRef) -> str:
        """A short citation: the document's number, or its title up to a colon."""
        source = self.kb.sources[ref.id]
        return f"{source.number or source.title.split(':', 1)[0]}, {ref.locator}"


def is_default(default: OsDefault, value: str) -> bool:
    return default.value is not None and same_value(default.value, value)


def norm_key(name: str) -> str:
    return name.strip().lower()


def transfer_size(option: str) -> int:
    """The size of ``rsize=N`` or ``wsize=N``; 0 when it is not a number."""
    value = option.partition("=")[2]
    return int(value) if value.isdigit() and value.isascii() else 0

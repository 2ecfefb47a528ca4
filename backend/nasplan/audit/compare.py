"""Audit: compare pasted configuration with the plan for the same platform.

Every finding names the rule behind the planned value (or the rule that forbids what was
found), so the reader can ask "why?" exactly as for a plan item.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal

from nasplan.audit import rule_ids
from nasplan.audit.hints import platform_hints
from nasplan.audit.kinds import CHECKABLE_MECHANISMS, FILE_KINDS, FileKind, spec_of
from nasplan.audit.outputs import (
    DnfsServer,
    OntapRecord,
)
from nasplan.audit.parsers import (
    MAX_LINES,
    MountEntry,
    NfstabServer,
    Parameter,
    Parsed,
)
from nasplan.audit.report import (
    MAX_ASSIGNMENTS,
    MAX_CORRECTED_CHARS,
    MAX_FINDINGS,
    MAX_IGNORED_LISTED,
    AuditFinding,
    AuditReport,
    RoleAssignment,
)
from nasplan.audit.roles import DeclaredRole, guess_role
from nasplan.audit.values import nfs_version, same_value
from nasplan.domain.plan import Mount, Plan, as_one_line
from nasplan.domain.platform import OsName, Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import OsDefault
from nasplan.knowledge.schema import Rule, SourceRef
from nasplan.renderers.mount_table import entry_text

_DATABASE_ROLES = ["data", "redo", "control", "archive"]
# Options that a running system does not report back (mount-time or default-only flags).
NOT_REPORTED_AT_RUNTIME = {"bg", "fg", "intr", "nointr", "suid", "rw"}
_SEVERITY_OF_RULE: dict[str, Literal["error", "warning", "info"]] = {
    "critical": "error",
    "high": "warning",
    "medium": "warning",
    "low": "info",
}


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
    for kind, text in files.items():
        spec = FILE_KINDS[kind]
        parsed: Parsed[Any] = spec.parse(text)
        if spec.reads == "mounts":
            auditor.mounts(kind, parsed.items, runtime=spec.runtime)
        elif spec.reads == "parameters":
            assert spec.fix_form is not None
            auditor.parameters(kind, parsed.items, spec.mechanisms[0], spec.fix_form)
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
        checked[kind], ignored[kind] = len(parsed.items), parsed.ignored
        if parsed.unread:
            unread[kind] = parsed.unread
    auditor.finish()
    order = {"error": 0, "warning": 1, "info": 2}
    total = sum(checked.values())
    pasted_params = [p for kind in FILE_KINDS for p in oracle_params.get(kind, [])]
    hints = platform_hints(kb, plan, [str(kind) for kind in files], pasted_params)
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


def _corrected(text: str, comment: str, findings: list[AuditFinding], kind: str) -> str:
    """The pasted file with each finding's fix applied: a line replaced by its fix, a setting
    to remove commented out, a missing setting appended."""
    lines = text.splitlines()
    replaced: dict[int, str] = {}
    appended: list[str] = []
    for f in findings:
        if f.file != kind or f.fix is None:
            continue
        if f.line is None:
            appended.append(f.fix)
        elif f.fix.startswith("remove "):
            replaced.setdefault(f.line, f"{comment} {lines[f.line - 1]}")
        else:
            replaced.setdefault(f.line, f.fix)
    out = [replaced.get(number, line) for number, line in enumerate(lines, 1)]
    out += list(dict.fromkeys(appended))
    return "\n".join(out) + "\n"


class _Auditor:
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
        # (mount point, device) of each pasted NFS line that holds database files
        self.database_mounts: list[tuple[str, str]] = []

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

    def severity(self, rule_id: str) -> Literal["error", "warning", "info"]:
        rule = self.kb.rules.get(rule_id)
        return _SEVERITY_OF_RULE[rule.severity] if rule else "warning"

    def not_checked(self, kinds: set[str]) -> list[str]:
        missing = [
            f"{m.mount_point} ({'+'.join(m.serves)}): no pasted line carries these files"
            for m in self.plan.mounts
            if m.mount_point not in self.seen_mounts
        ]
        specs = [spec for spec in map(spec_of, kinds) if spec is not None]
        covered = {mechanism for spec in specs for mechanism in spec.mechanisms}
        settings = [
            f"{s.target} {s.key} ({s.mechanism}): no pasted file shows it"
            for s in self.plan.settings
            if s.mechanism not in covered and s.mechanism in CHECKABLE_MECHANISMS
        ]
        return missing + settings

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

    def forbidder(self, roles: list[str], option: str, everywhere: bool = False) -> Rule | None:
        for rule in self.applied:
            for block in rule.effects.forbid_options:
                if option not in block.options:
                    continue
                if set(block.roles) >= set(roles) if everywhere else set(block.roles) & set(roles):
                    return rule
        return None

    def mounts(self, kind: str, entries: list[MountEntry], runtime: bool) -> None:
        for entry in entries:
            guess = guess_role(entry, self.plan, self.declared)
            self.assignments.append(
                RoleAssignment(
                    file=kind,
                    line=entry.line,
                    mount_point=entry.mount_point,
                    device=entry.device,
                    role=guess.role,
                    reason=guess.reason,
                    planned_mount_point=guess.planned.mount_point if guess.planned else None,
                )
            )
            found = [self.normalize(o) for o in entry.options]
            if guess.other:
                continue
            if guess.planned is None:
                self.check_forbidden(kind, entry, found, _DATABASE_ROLES, everywhere=True)
                continue
            self.seen_mounts.add(guess.planned.mount_point)
            if guess.role in _DATABASE_ROLES:
                point = entry.mount_point.rstrip("/") or "/"
                self.database_mounts.append((point, entry.device))
            self.compare_mount(kind, guess.planned, entry, found, runtime)

    def fix_line(self, mount: Mount, entry: MountEntry) -> str:
        """The planned line for this mount, at the user's own mount point and export."""
        here = mount.model_copy(update={"mount_point": entry.mount_point, "export": entry.device})
        return entry_text(self.os, here)

    def compare_mount(
        self, kind: str, mount: Mount, entry: MountEntry, found: list[str], runtime: bool
    ) -> None:
        found_by_key = {self.key(o): o for o in found}
        fix = self.fix_line(mount, entry)
        reported: set[str] = set()
        for option in mount.options:
            if option in found or (runtime and option in NOT_REPORTED_AT_RUNTIME):
                continue
            key = self.key(option)
            rule = mount.option_rules[option][0]
            other = found_by_key.get(key)
            where = f"{entry.mount_point}:"
            if other is None:
                default = self.kb.os_default_index.get((self.os, "mount_option", key))
                if default is not None and default.value == option:
                    if not runtime:  # runtime output prints what is in effect: nothing to say
                        self.add(
                            "info",
                            rule,
                            kind,
                            entry.line,
                            f"{where} {option} is not written, but it is what "
                            f"{self.kb.os[self.os].label} does when it is left out"
                            f"{f' ({default.note})' if default.note else ''}; writing it "
                            "keeps the intent plain.",
                            about=[key],
                        )
                    continue
                self.add(
                    self.severity(rule),
                    rule,
                    kind,
                    entry.line,
                    f"{where} {option} is missing.",
                    fix,
                    "remount",
                    about=[key],
                )
            elif key in ("rsize", "wsize") and _lower(option, other):
                # A larger valid size is not wrong: client and server settle on the largest
                # both support, and the cap beyond the OS maximum is checked on its own.
                reported.add(other)
                if _size(other) <= self.kb.os[self.os].rsize_max:
                    self.add(
                        "info",
                        rule,
                        kind,
                        entry.line,
                        f"{where} {other} is larger than the plan's {option}; client and filer "
                        "settle on the largest size both support, so it can stay.",
                        about=[key],
                    )
            elif runtime and key in ("rsize", "wsize") and _lower(other, option):
                self.add(
                    "info",
                    rule,
                    kind,
                    entry.line,
                    f"{where} {other} in effect where the plan asks {option}; the "
                    "server or client negotiated it down.",
                    about=[key],
                )
            else:
                reported.add(other)
                self.add(
                    self.severity(rule),
                    rule,
                    kind,
                    entry.line,
                    f"{where} {other} where the plan has {option}.",
                    fix,
                    "remount",
                    about=[key],
                )
        self.check_forbidden(kind, entry, found, list(mount.serves), fix=fix, reported=reported)

    def check_forbidden(
        self,
        kind: str,
        entry: MountEntry,
        found: list[str],
        roles: list[str],
        everywhere: bool = False,
        fix: str | None = None,
        reported: set[str] | None = None,
    ) -> None:
        """Options a rule forbids for these roles; for a line of unknown role, only those
        forbidden for every database file (``everywhere``)."""
        rsize_max = self.kb.os[self.os].rsize_max
        for option in found:
            self.check_size_cap(kind, entry, option, rsize_max)
            if reported and option in reported:
                continue  # already reported against the planned value
            blocker = self.forbidder(roles, option, everywhere)
            if blocker is None:
                continue
            if everywhere:
                # The line's files are unknown: say what holds if it carries Oracle files.
                self.add(
                    "warning",
                    blocker.id,
                    kind,
                    entry.line,
                    f"{entry.mount_point}: {option} must not be used if this mount holds Oracle "
                    f"files ({blocker.title}); say what it holds to check it fully.",
                    None,
                    "remount",
                    about=[self.key(option)],
                )
            else:
                self.add(
                    _SEVERITY_OF_RULE[blocker.severity],
                    blocker.id,
                    kind,
                    entry.line,
                    f"{entry.mount_point}: {option} must not be used here ({blocker.title}).",
                    fix,
                    "remount",
                    about=[self.key(option)],
                )

    def check_size_cap(self, kind: str, entry: MountEntry, option: str, rsize_max: int) -> None:
        name, _, value = option.partition("=")
        if name in ("rsize", "wsize") and value.isdigit() and int(value) > rsize_max:
            self.add(
                "error",
                rule_ids.TRANSFER_SIZE_CAPS,
                kind,
                entry.line,
                f"{entry.mount_point}: {option} exceeds the {rsize_max}-byte maximum of "
                f"{self.kb.os[self.os].label}.",
                about=[name],
            )

    # ---------------------------------------------------------- parameters
    def parameters(self, kind: str, params: list[Parameter], mechanism: str, form: str) -> None:
        """Planned settings of one mechanism against the values a file or output shows."""
        found = {_norm_key(p.name): p for p in params}
        for setting in self.plan.settings:
            if setting.mechanism != mechanism:
                continue
            present = found.get(_norm_key(setting.key))
            rule = setting.rules[0]
            fix = form.format(key=setting.key, value=setting.value)
            needs = setting.requires.replace("_", " ")
            about = [_norm_key(setting.key)]
            default = self.kb.os_default_index.get((self.os, mechanism, setting.key))
            if setting.action == "unset":
                if present is not None:
                    self.add(
                        self.severity(rule),
                        rule,
                        kind,
                        present.line,
                        f"{setting.key} is set to {present.value}; the plan leaves it unset.",
                        f"remove {setting.key}",
                        needs,
                        about=about,
                    )
            elif present is None and default is not None and _is_default(default, setting.value):
                self.add(
                    "info",
                    rule,
                    kind,
                    None,
                    f"{setting.key} is not set, and need not be: {self.kb.os[self.os].label} "
                    f"defaults it to {default.value} ({self.source_words(default.source)}), "
                    "which is what the plan asks.",
                    about=about,
                )
            elif present is None:
                self.add(
                    self.severity(rule),
                    rule,
                    kind,
                    None,
                    f"{setting.key} is not set; the plan sets {setting.value}.",
                    fix,
                    needs,
                    about=about,
                )
            elif not same_value(present.value, setting.value):
                self.add(
                    self.severity(rule),
                    rule,
                    kind,
                    present.line,
                    f"{setting.key} = {present.value}; the plan sets {setting.value}.",
                    fix,
                    needs,
                    about=about,
                )

    def ontap_fields(self, records: list[OntapRecord]) -> None:
        """`vserver nfs show`, `volume show` and `network port show` fields of clustered ONTAP."""
        wanted = {
            "ontap_nfs_server": [
                r for r in records if "volume" not in r.keys and "port" not in r.keys
            ],
            "ontap_volume": [r for r in records if "volume" in r.keys],
            "ontap_snapshot_policy": [r for r in records if "volume" in r.keys],
            "ontap_port": [r for r in records if "port" in r.keys],
        }
        for setting in self.plan.settings:
            rows = wanted.get(setting.mechanism)
            if not rows:
                continue
            if setting.mechanism in ("ontap_volume", "ontap_snapshot_policy"):
                rows = [r for r in rows if r.keys.get("volume") in setting.applies_to] or rows
            for row in rows:
                value = row.fields.get(setting.key)
                if value is None or same_value(value, setting.value):
                    continue
                where = ", ".join(f"{k} {v}" for k, v in row.keys.items()) or "the NFS server"
                self.add(
                    self.severity(setting.rules[0]),
                    setting.rules[0],
                    "ontap_fields",
                    row.line,
                    f"{where}: {setting.key} is {value}; the plan sets {setting.value}.",
                    None,
                    setting.requires.replace("_", " "),
                    about=[_norm_key(setting.key)],
                )

    def source_words(self, ref: SourceRef) -> str:
        source = self.kb.sources[ref.id]
        return f"{source.number or source.title}, {ref.locator}"

    def dnfs_servers(self, servers: list[DnfsServer], says_empty: bool) -> None:
        uses_dnfs = rule_ids.DNFS_ENABLE in self.plan.applied_rules
        if uses_dnfs and not servers and says_empty:
            self.add(
                "warning",
                rule_ids.DNFS_ENABLE,
                "dnfs_servers",
                None,
                "v$dnfs_servers has no rows: Oracle is not using Direct NFS (it fell back to "
                "kernel NFS or was not relinked).",
                about=["rows"],
            )
        wanted = "4.1" if self.plan.platform.oracle.nfs_version == "4.1" else "3"
        for server in servers:
            version = nfs_version(server.nfs_version or "")
            if uses_dnfs and version and version != wanted:
                self.add(
                    "warning",
                    rule_ids.DNFS_ORANFSTAB,
                    "dnfs_servers",
                    server.line,
                    f"{server.server} {server.directory}: Direct NFS speaks NFSv{version}; the "
                    f"plan uses NFSv{wanted}.",
                    about=["nfs_version"],
                )

    def vol_options(self, params: list[Parameter]) -> None:
        found = {p.name: p for p in params}
        for setting in self.plan.settings:
            if setting.mechanism != "ontap7_vol_option":
                continue
            present = found.get(setting.key)
            if present is not None and not same_value(present.value, setting.value):
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
                    about=[_norm_key(setting.key)],
                )

    def oranfstab(self, blocks: list[NfstabServer]) -> None:
        """Checked once every paste is read: the export lines are compared with the mounts the
        same paste shows (never with nasplan's own volume names, which the user's filer need
        not have)."""
        self.nfstab_blocks.extend(blocks)

    def finish(self) -> None:
        if self.nfstab_blocks:
            self.check_oranfstab(self.nfstab_blocks)

    def check_oranfstab(self, blocks: list[NfstabServer]) -> None:
        dnfs_rule = next((r for r in self.applied if r.id == rule_ids.DNFS_ORANFSTAB), None)
        if dnfs_rule is None:
            self.add(
                "info",
                rule_ids.DNFS_CONSIDER
                if rule_ids.DNFS_CONSIDER in self.plan.applied_rules
                else self.plan.applied_rules[0],
                "oranfstab",
                blocks[0].line,
                "An oranfstab is present but the plan does not use Direct NFS.",
                about=["server"],
            )
            return
        mounted = {point.rstrip("/") or "/" for _, point in self.nfstab_mounts()}
        for mount_point, device in self.database_mounts:
            if mount_point not in mounted:
                self.add(
                    "warning",
                    dnfs_rule.id,
                    "oranfstab",
                    None,
                    f"{device} is mounted at {mount_point} and holds database files, but no "
                    "export line of the oranfstab names that mount point: Direct NFS will not "
                    "serve it.",
                    about=["export", "mount"],
                )
        wanted = "4.1" if self.plan.platform.oracle.nfs_version == "4.1" else "3"
        for block in blocks:
            version = nfs_version(block.nfs_version or "3")
            if version != wanted:
                self.add(
                    "warning",
                    dnfs_rule.id,
                    "oranfstab",
                    block.line,
                    f"server {block.server}: nfs_version {block.nfs_version}; the plan uses "
                    f"NFSv{wanted}.",
                    about=["nfs_version"],
                )
            self.check_nfstab_paths(block)

    def nfstab_mounts(self) -> list[tuple[str, str]]:
        return [pair for block in self.nfstab_blocks for pair in block.exports]

    def check_nfstab_paths(self, block: NfstabServer) -> None:
        paths = list(dict.fromkeys(block.paths))
        multipath = rule_ids.DNFS_MULTIPATH in self.plan.applied_rules
        nics = self.plan.platform.network.nic_count
        if multipath and len(paths) < min(nics, 4):
            self.add(
                "info",
                rule_ids.DNFS_MULTIPATH,
                "oranfstab",
                block.line,
                f"server {block.server} lists {len(paths)} path(s) for {nics} storage NICs.",
                about=["path"],
            )
        if self.os != "linux" or len(paths) < 2:
            return
        shared = _shared_prefix_24(paths)
        if shared is not None:
            self.add(
                "warning",
                rule_ids.DNFS_SUBNET_PER_PATH,
                "oranfstab",
                block.line,
                f"server {block.server}: its {len(paths)} paths ({', '.join(paths)}) share "
                f"{shared}.x, so they look like one subnet; Linux then sends every path out "
                "of one interface. Put each path on its own subnet.",
                about=["path", "local"],
            )


def _shared_prefix_24(addresses: list[str]) -> str | None:
    """The first three octets every address shares, when all are IPv4 addresses."""
    prefixes = set()
    for address in addresses:
        octets = address.split(".")
        if len(octets) != 4 or not all(o.isdigit() and o.isascii() and len(o) <= 3 for o in octets):
            return None
        prefixes.add(".".join(octets[:3]))
    return prefixes.pop() if len(prefixes) == 1 else None


def _is_default(default: OsDefault, value: str) -> bool:
    return same_value(default.value, value)


def _norm_key(name: str) -> str:
    return name.strip().lower()


def _size(option: str) -> int:
    value = option.partition("=")[2]
    return int(value) if value.isdigit() and value.isascii() else 0


def _lower(option: str, than: str) -> bool:
    """Whether ``rsize=a`` is smaller than ``rsize=b`` (both numbers)."""
    a, b = _size(option), _size(than)
    return 0 < a < b

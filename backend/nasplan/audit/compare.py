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
_SIZES = ("rsize", "wsize")
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
            auditor.parameters(
                kind, parsed.items, spec.mechanisms[0], spec.fix_form, excerpt=spec.excerpt
            )
            auditor.refused(kind, parsed.refused, spec.mechanisms[0], spec.fix_form)
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
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        if number in unfixed and number not in replaced:
            why = " ".join(dict.fromkeys(unfixed[number]))
            out.append(f"{comment} nasplan: left as it was, to change by hand: {why}")
        out.append(replaced.get(number, line))
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
        self.unshown: list[str] = []
        floor_rule = kb.rules[rule_ids.TRANSFER_SIZE_FLOOR]
        self.size_floor = min(
            _size(option)
            for block in floor_rule.effects.mount_options
            for option in block.options
            if option.startswith("rsize=")
        )
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
            found = [self.normalize(o) for o in _attribute_timers(entry.options, runtime)]
            if guess.other:
                continue
            if guess.planned is None:
                self.check_forbidden(
                    kind,
                    entry,
                    found,
                    _DATABASE_ROLES,
                    everywhere=True,
                    backup=guess.role == "backup",
                )
                if guess.role == "backup":
                    self.check_backup(kind, entry, found)
                if not runtime:
                    self.check_version_pinned(kind, entry, found)
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
                default = self.default_of("mount_option", key)
                if default is not None and (
                    default.value == option or (default.negotiated and key in _SIZES)
                ):
                    if not runtime:  # runtime output prints what is in effect: nothing to say
                        self.add(
                            "info",
                            rule,
                            kind,
                            entry.line,
                            f"{where} {option} is not written; "
                            + (
                                f"{self.kb.os[self.os].label} and the filer then settle on the "
                                "largest size both support"
                                if default.negotiated
                                else f"it is what {self.kb.os[self.os].label} does when it is "
                                "left out"
                            )
                            + (f" ({default.note})" if default.note else "")
                            + f" ({self.source_words(default.source)}). Writing it keeps the "
                            "intent plain.",
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
            elif key in _SIZES and _lower(other, option) and _size(other) >= self.size_floor:
                # Smaller than planned but not below Oracle's floor: a tuning choice (larger
                # transfers serve more per request), not an error.
                reported.add(other)
                self.add(
                    "info",
                    rule,
                    kind,
                    entry.line,
                    f"{where} {other} where the plan has {option}"
                    + (
                        ": the server or client negotiated it down."
                        if runtime
                        else f"; it is not below the {self.size_floor}-byte floor "
                        f"({rule_ids.TRANSFER_SIZE_FLOOR}), and the larger size serves more "
                        "per request."
                    ),
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
        backup: bool = False,
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
                # The line's files are unknown: say what holds if it carries Oracle files. What
                # is unsafe for every Oracle file (soft, udp) is a warning; a tuning matter is a
                # question (info), and nothing here is an error that assumes a role.
                self.add(
                    "warning" if blocker.severity == "critical" else "info",
                    blocker.id,
                    kind,
                    entry.line,
                    f"{entry.mount_point}: {option} is unsafe for Oracle's backups as for every "
                    f"Oracle file ({blocker.title})."
                    if backup
                    else f"{entry.mount_point}: {option} must not be used if this mount holds "
                    f"Oracle files ({blocker.title}); say what it holds to check it fully.",
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

    def check_backup(self, kind: str, entry: MountEntry, found: list[str]) -> None:
        """What rules forbid on a mount of RMAN backups or Data Pump dumps (a plan lays out
        none, so there is no planned line to compare with)."""
        for option in found:
            blocker = self.forbidder(["backup"], option)
            if blocker is not None:
                self.add(
                    _SEVERITY_OF_RULE[blocker.severity],
                    blocker.id,
                    kind,
                    entry.line,
                    f"{entry.mount_point}: {option} does not belong on a mount of backups or "
                    f"dumps ({blocker.title}).",
                    None,
                    "remount",
                    about=[self.key(option)],
                )

    def check_version_pinned(self, kind: str, entry: MountEntry, found: list[str]) -> None:
        """A line of any role that leaves the NFS version to negotiation, where the OS then
        picks a version the plan does not use (Linux tries NFSv4 first)."""
        if any(self.key(option) == "vers" for option in found):
            return
        default = self.default_of("mount_option", "vers")
        pinned = [
            (option, mount.option_rules[option][0])
            for mount in self.plan.mounts
            for option in mount.options
            if self.key(option) == "vers"
        ]
        if default is None or not pinned or len({o for o, _ in pinned}) != 1:
            return
        option, rule = pinned[0]
        self.add(
            "warning",
            rule,
            kind,
            entry.line,
            f"{entry.mount_point}: the NFS version is left to negotiation "
            f"({default.note}, {self.source_words(default.source)}); pin {option} as every "
            "Oracle mount of the plan does.",
            about=["vers"],
        )

    def check_size_cap(self, kind: str, entry: MountEntry, option: str, rsize_max: int) -> None:
        name, _, value = option.partition("=")
        if name not in _SIZES or not value.isdigit() or int(value) <= rsize_max:
            return
        label = self.kb.os[self.os].label
        default = self.default_of("mount_option", name)
        if default is not None and default.negotiated:
            # The client settles on the largest size both ends support: nothing breaks.
            self.add(
                "info",
                rule_ids.TRANSFER_SIZE_CAPS,
                kind,
                entry.line,
                f"{entry.mount_point}: {option} is above the {rsize_max}-byte maximum of "
                f"{label}, which then uses the largest size both ends support "
                f"({self.source_words(default.source)}); {name}={rsize_max} says so plainly.",
                about=[name],
            )
            return
        self.add(
            "error",
            rule_ids.TRANSFER_SIZE_CAPS,
            kind,
            entry.line,
            f"{entry.mount_point}: {option} exceeds the {rsize_max}-byte maximum of {label}.",
            about=[name],
        )

    # ---------------------------------------------------------- parameters
    def parameters(
        self,
        kind: str,
        params: list[Parameter],
        mechanism: str,
        form: str,
        excerpt: bool = False,
    ) -> None:
        """Planned settings of one mechanism against the values a file or output shows (in
        an ``excerpt``, a setting not shown is listed as not checked, not reported unset)."""
        found = {_norm_key(p.name): p for p in params}
        for setting in self.plan.settings:
            if setting.mechanism != mechanism:
                continue
            present = found.get(_norm_key(setting.key))
            rule = setting.rules[0]
            fix = form.format(key=setting.key, value=setting.value)
            needs = setting.requires.replace("_", " ")
            about = [_norm_key(setting.key)]
            default = self.default_of(mechanism, setting.key)
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
            elif present is None and excerpt:
                self.unshown.append(
                    f"{setting.key} ({mechanism}): the pasted {kind} does not show it"
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

    def refused(self, kind: str, params: list[Parameter], mechanism: str, form: str) -> None:
        """Lines that try to set a planned setting in a form their command rejects."""
        planned = {_norm_key(s.key): s for s in self.plan.settings if s.mechanism == mechanism}
        for param in params:
            setting = planned.get(_norm_key(param.name))
            if setting is None:
                self.unshown.append(
                    f"{kind} line {param.line}: {param.name}={param.value} in one argument is "
                    "not a form the command accepts, so that line sets nothing"
                )
                continue
            self.add(
                self.severity(setting.rules[0]),
                setting.rules[0],
                kind,
                param.line,
                f"{param.name}={param.value} in one argument is not a form the command "
                f"accepts: it fails and {param.name} keeps its old value.",
                form.format(key=setting.key, value=setting.value),
                setting.requires.replace("_", " "),
                about=[_norm_key(param.name)],
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
                # Only the plan's own volumes: another name says nothing of what it holds.
                rows = [r for r in rows if r.keys.get("volume") in setting.applies_to]
                if not rows:
                    self.unshown.append(
                        f"{setting.key} ({', '.join(setting.applies_to)}): no pasted volume has "
                        "a planned volume's name"
                    )
                    continue
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

    def default_of(self, mechanism: str, key: str) -> OsDefault | None:
        release = self.plan.platform.host.os_version
        return self.kb.os_default(self.os, release, mechanism, key)

    def source_words(self, ref: SourceRef) -> str:
        """A short citation: the document's number, or its title up to a colon."""
        source = self.kb.sources[ref.id]
        return f"{source.number or source.title.split(':', 1)[0]}, {ref.locator}"

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
        applied = self.plan.applied_rules
        if rule_ids.DNFS_ENABLE not in applied:
            self.add(
                "info",
                rule_ids.DNFS_CONSIDER
                if rule_ids.DNFS_CONSIDER in applied
                else rule_ids.DNFS_ENABLE,
                "oranfstab",
                blocks[0].line,
                "An oranfstab is present but the plan does not use Direct NFS.",
                about=["server"],
            )
            return
        # The oranfstab rule where the plan writes one; Direct NFS itself where it does not.
        dnfs_rule = self.kb.rules[
            rule_ids.DNFS_ORANFSTAB if rule_ids.DNFS_ORANFSTAB in applied else rule_ids.DNFS_ENABLE
        ]
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
        self.check_nfstab_locals(blocks)

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
        if self.os != "linux":
            return
        distinct = list(dict.fromkeys(block.paths))
        shared = _shared_prefix_24(distinct) if len(distinct) >= 2 else None
        if shared is not None:
            self.add(
                "warning",
                rule_ids.DNFS_SUBNET_PER_PATH,
                "oranfstab",
                block.path_lines[0],
                f"server {block.server}: its {len(distinct)} paths ({', '.join(distinct)}) "
                f"share {shared}.x, so they look like one subnet; Linux then sends every path "
                "out of one interface. Put each path on its own subnet.",
                about=["path", "local"],
            )

    def check_nfstab_locals(self, blocks: list[NfstabServer]) -> None:
        """Local addresses of every server block: on Linux, one host NIC per subnet."""
        if self.os != "linux":
            return
        first_of: dict[str, str] = {}
        for block in blocks:
            for address, line in zip(block.locals, block.local_lines, strict=True):
                prefix = _shared_prefix_24([address])
                if prefix is None:
                    continue
                earlier = first_of.setdefault(prefix, address)
                if earlier == address:
                    continue
                self.add(
                    "warning",
                    rule_ids.DNFS_SUBNET_PER_PATH,
                    "oranfstab",
                    line,
                    f"local {address} shares {prefix}.x with local {earlier}: two host NICs on "
                    "one subnet, so Linux sends both paths out of one of them. Put each on its "
                    "own subnet.",
                    about=["local", "path"],
                )
                return


_TIMERS = ("acregmin", "acregmax", "acdirmin", "acdirmax")


def _attribute_timers(options: list[str], runtime: bool) -> list[str]:
    """A running Linux system shows ``actimeo=N`` as its four timers (``acregmin=N``,
    ``acregmax=N``, ``acdirmin=N``, ``acdirmax=N``): read four equal timers as the one option
    they came from, so a mount made with actimeo=0 is not told it lacks it."""
    if not runtime:
        return options
    values = {}
    for option in options:
        name, _, value = option.partition("=")
        if name in _TIMERS:
            values[name] = value
    if len(values) != len(_TIMERS) or len(set(values.values())) != 1:
        return options
    kept = [o for o in options if o.partition("=")[0] not in _TIMERS]
    return [*kept, f"actimeo={values[_TIMERS[0]]}"]


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
    return default.value is not None and same_value(default.value, value)


def _norm_key(name: str) -> str:
    return name.strip().lower()


def _size(option: str) -> int:
    value = option.partition("=")[2]
    return int(value) if value.isdigit() and value.isascii() else 0


def _lower(option: str, than: str) -> bool:
    """Whether ``rsize=a`` is smaller than ``rsize=b`` (both numbers)."""
    a, b = _size(option), _size(than)
    return 0 < a < b

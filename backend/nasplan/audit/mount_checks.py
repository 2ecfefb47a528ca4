"""Mount checks: each NFS line of a mount table, command or output against the planned mount
for the files it holds, or against what no Oracle mount may have when its files are unknown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from nasplan.audit import rule_ids
from nasplan.audit.auditor import SEVERITY_OF_RULE, transfer_size
from nasplan.audit.fix_lines import SIZES, FixLines, lower_size
from nasplan.audit.mount_limits import not_shown
from nasplan.audit.parsers import MountEntry
from nasplan.audit.report import RoleAssignment
from nasplan.audit.roles import guess_role
from nasplan.audit.values import nfs_version, set_elsewhere
from nasplan.domain.plan import Mount
from nasplan.domain.vocabulary import ROLES
from nasplan.knowledge.catalog import OsDefault

DATABASE_ROLES = ["data", "redo", "control", "archive"]
# Every role a plan lays out a mount for (backups get none of their own).
_FILE_ROLES = set(ROLES) - {"backup"}
# Options that a running system does not report back (mount-time or default-only flags).
NOT_REPORTED_AT_RUNTIME = {"bg", "fg", "intr", "nointr", "suid", "rw"}


class MountChecks(FixLines):
    def mounts(self, kind: str, entries: list[MountEntry], runtime: bool) -> None:
        points = frozenset(e.mount_point.rstrip("/") or "/" for e in entries)
        for entry in entries:
            guess = guess_role(
                entry, self.plan, self.declared, sole_line=len(entries) == 1, neighbours=points
            )
            self.assignments.append(
                RoleAssignment(
                    file=kind,
                    line=entry.line,
                    mount_point=entry.mount_point,
                    device=entry.device,
                    role=guess.role,
                    reason=guess.reason,
                    basis=guess.basis,
                    planned_mount_point=guess.planned.mount_point if guess.planned else None,
                )
            )
            # Words a shell or template fills in when the line runs: their options are not shown.
            hidden = [o for o in entry.options if set_elsewhere(o)]
            written = [o for o in entry.options if o not in hidden]
            found = [self.normalize(o) for o in _attribute_timers(written, runtime)]
            if guess.other:
                continue
            if any((nfs_version(o) or "").startswith("4") for o in found if self.key(o) == "vers"):
                self.nfs4_mounts.append((kind, entry.line, entry.mount_point))
            if not runtime:
                self.check_option_names(kind, entry, written)
            if guess.planned is None and guess.role is None and self.plan.mounts:
                self.check_unknown(kind, entry, found, runtime, hidden)
                continue
            if guess.planned is None:
                self.check_forbidden(
                    kind,
                    entry,
                    found,
                    DATABASE_ROLES,
                    everywhere=True,
                    backup=guess.role == "backup",
                )
                if guess.role == "backup":
                    self.check_backup(kind, entry, found)
                if not runtime:
                    self.check_version_pinned(kind, entry, found, hidden)
                continue
            self.seen_mounts.add(guess.planned.mount_point)
            if guess.role in DATABASE_ROLES:
                point = entry.mount_point.rstrip("/") or "/"
                self.database_mounts.append((point, entry.device))
            self.compare_mount(kind, guess.planned, entry, found, runtime, hidden=hidden)

    def ignored_here(self, key: str) -> OsDefault | None:
        """The OS default of an option this release's client takes but does not act on."""
        default = self.default_of("mount_option", key)
        return default if default is not None and default.ignored else None

    def above_floor(self, option: str) -> bool:
        return transfer_size(option) >= self.size_floor

    def check_unknown(
        self, kind: str, entry: MountEntry, found: list[str], runtime: bool, hidden: list[str]
    ) -> None:
        """A line whose files are unknown: what every planned Oracle mount has in common is
        what it needs if it holds any Oracle file, and what a rule forbids for every role the
        line could hold (backups included) is wrong whatever it holds. Nothing that only one
        role needs or forbids is said: the page asks what the mount holds instead."""
        first, *rest = self.plan.mounts
        common = [
            o
            for o in first.options
            if all(o in m.options for m in rest) and self.for_every_file(o, first)
        ]
        shared = first.model_copy(
            update={
                "options": common,
                "option_rules": {o: first.option_rules[o] for o in common},
                "serves": sorted({r for m in self.plan.mounts for r in m.serves} | {"backup"}),
            }
        )
        self.compare_mount(kind, shared, entry, found, runtime, unknown=True, hidden=hidden)

    def spelled_elsewhere(self, option: str, found: list[str]) -> str:
        """Words of the line that are ``option`` as another OS writes it (Linux's ``tcp``
        for proto=tcp) and no option on this one, said after the finding; else nothing."""
        spellings = self.kb.option_spellings.get(option, {})
        here = self.kb.os[self.os].label
        words = [
            f"{word} is how {' and '.join(self.kb.os[o].label for o in spellings[word])} "
            f"{'writes' if len(spellings[word]) == 1 else 'write'} it, and {here} has no such "
            "option"
            for word in dict.fromkeys(found)
            if word in spellings and (self.os, word) not in self.kb.option_index
        ]
        return f" ({'; '.join(words)})" if words else ""

    def for_every_file(self, option: str, mount: Mount) -> bool:
        """Whether a rule that puts ``option`` on ``mount`` asks it for every Oracle file."""
        return any(
            set(block.roles) >= _FILE_ROLES and option in block.options
            for rule_id in mount.option_rules[option]
            for block in self.kb.rules[rule_id].effects.mount_options
        )

    def unknown_severity(
        self, rule_id: str, missing: bool, option: str
    ) -> Literal["error", "warning", "info"]:
        """A line whose files are unknown. A missing option weighing high or more is a warning
        (the OS default may serve, or may not); another value written out was chosen, perhaps
        for files that are not Oracle's, so it is raised, at the rule's severity, only where it
        guards the data (critical). Anything else is an info, since it is not known which files
        are at stake."""
        severity = self.rule_severity(rule_id, option)
        if missing:
            return "warning" if severity in ("critical", "high") else "info"
        return SEVERITY_OF_RULE[severity] if severity == "critical" else "info"

    def compare_mount(
        self,
        kind: str,
        mount: Mount,
        entry: MountEntry,
        found: list[str],
        runtime: bool,
        unknown: bool = False,
        hidden: Sequence[str] = (),
    ) -> None:
        """``hidden``: the line's words that a shell or template fills in (``${OPTS}``)."""
        found_by_key = {self.key(o): o for o in found}
        implied = self.implied(found)
        fix = self.fix_line(mount, entry, found, runtime)
        reported: set[str] = set()
        for option in mount.options:
            if option in found or option in implied:
                continue
            if runtime and option in NOT_REPORTED_AT_RUNTIME:
                continue
            key = self.key(option)
            rule = mount.option_rules[option][0]
            other = found_by_key.get(key)
            where = (
                f"{entry.mount_point} (what it holds is not known; every Oracle mount of the "
                f"plan has {option}):"
                if unknown
                else f"{entry.mount_point}:"
            )
            typed = kind == "mount_command" and not entry.for_fstab
            by_hand = typed or "noauto" in found
            if key == "retry" and by_hand and other in (None, "fg"):
                # bg and fg only decide how a mount made at boot retries; a command typed at a
                # shell, or a noauto line, is mounted by hand, where fg (mount returns once it
                # is there) is what is wanted.
                how = "it is a command typed at a shell" if typed else "the line has noauto"
                self.add(
                    "info",
                    rule,
                    kind,
                    entry.line,
                    f"{where} {option} is not needed: {how}, so it is mounted by hand and not "
                    f"at boot, where {option} matters "
                    f"({self.source_words(self.kb.rules[rule].sources[0])}"
                    + (")." if typed else "; mount(8): noauto)."),
                    about=[key],
                )
                continue
            if other is None:
                default = self.default_of("mount_option", key)
                if default is not None and (
                    default.value == option or (default.negotiated and key in SIZES)
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
                # A flag only the losing side of a disagreement asks for (AIX cio); a valued
                # option's disagreement is about its value (32K or 256K), not about writing it.
                disputed = None if "=" in option else self.disputed(mount.option_rules[option])
                if disputed is not None:
                    conflict, side = disputed
                    self.add(
                        "info",
                        rule,
                        kind,
                        entry.line,
                        f"{where} {option} is not written, and sources disagree on it "
                        f"({conflict.topic}): {side.position.rstrip('.')}; against it, "
                        f"{conflict.winner.position.rstrip('.')}. The knowledge base rates the "
                        "difference as information.",
                        about=[key],
                    )
                    continue
                if hidden:
                    self.add(
                        "info",
                        rule,
                        kind,
                        entry.line,
                        f"{where} {option} is not written; {not_shown(hidden)}.",
                        about=[key],
                    )
                    continue
                self.add(
                    self.unknown_severity(rule, True, option)
                    if unknown
                    else self.severity(rule, option),
                    rule,
                    kind,
                    entry.line,
                    f"{where} {option} is missing{self.spelled_elsewhere(option, found)}.",
                    fix,
                    "remount",
                    about=[key],
                )
            elif key in ("rsize", "wsize") and lower_size(option, other):
                # A larger valid size is not wrong: client and server settle on the largest
                # both support, and the cap beyond the OS maximum is checked on its own.
                reported.add(other)
                if transfer_size(other) <= self.kb.os[self.os].rsize_max:
                    self.add(
                        "info",
                        rule,
                        kind,
                        entry.line,
                        f"{where} {other} is larger than the plan's {option}; client and filer "
                        "settle on the largest size both support, so it can stay.",
                        about=[key],
                    )
            elif (
                key in SIZES
                and lower_size(other, option)
                and transfer_size(other) >= self.size_floor
            ):
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
            elif runtime and key in ("rsize", "wsize") and lower_size(other, option):
                self.add(
                    "info",
                    rule,
                    kind,
                    entry.line,
                    f"{where} {other} in effect where the plan asks {option}; the "
                    "server or client negotiated it down.",
                    about=[key],
                )
            elif (ignored := self.ignored_here(key)) is not None:
                reported.add(other)
                self.add(
                    "info",
                    rule,
                    kind,
                    entry.line,
                    f"{where} {other} where the plan has {option}, which makes no difference "
                    f"on {self.kb.os[self.os].label}: {ignored.note} "
                    f"({self.source_words(ignored.source)}).",
                    about=[key],
                )
            else:
                reported.add(other)
                self.add(
                    self.unknown_severity(rule, False, option)
                    if unknown
                    else self.severity(rule, option),
                    rule,
                    kind,
                    entry.line,
                    f"{where} {other} where the plan has {option}.",
                    fix,
                    "remount",
                    about=[key],
                )
        self.check_forbidden(
            kind,
            entry,
            found,
            list(mount.serves),
            everywhere=unknown,
            fix=fix if not unknown else None,
            reported=reported,
        )


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

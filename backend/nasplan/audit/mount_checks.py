"""Mount checks: each NFS line of a mount table, command or output against the planned mount
for the files it holds, or against what no Oracle mount may have when its files are unknown."""

from __future__ import annotations

from nasplan.audit import rule_ids
from nasplan.audit.auditor import SEVERITY_OF_RULE, AuditorBase, transfer_size
from nasplan.audit.parsers import MountEntry
from nasplan.audit.report import RoleAssignment
from nasplan.audit.roles import guess_role
from nasplan.domain.plan import Mount
from nasplan.renderers.mount_table import entry_text

DATABASE_ROLES = ["data", "redo", "control", "archive"]
_SIZES = ("rsize", "wsize")
# Options that a running system does not report back (mount-time or default-only flags).
NOT_REPORTED_AT_RUNTIME = {"bg", "fg", "intr", "nointr", "suid", "rw"}


class MountChecks(AuditorBase):
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
                    DATABASE_ROLES,
                    everywhere=True,
                    backup=guess.role == "backup",
                )
                if guess.role == "backup":
                    self.check_backup(kind, entry, found)
                if not runtime:
                    self.check_version_pinned(kind, entry, found)
                continue
            self.seen_mounts.add(guess.planned.mount_point)
            if guess.role in DATABASE_ROLES:
                point = entry.mount_point.rstrip("/") or "/"
                self.database_mounts.append((point, entry.device))
            self.compare_mount(kind, guess.planned, entry, found, runtime)

    def above_floor(self, option: str) -> bool:
        return transfer_size(option) >= self.size_floor

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
                key in _SIZES and _lower(other, option) and transfer_size(other) >= self.size_floor
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
                    SEVERITY_OF_RULE[blocker.severity],
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
                    SEVERITY_OF_RULE[blocker.severity],
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


def _lower(option: str, than: str) -> bool:
    """Whether ``rsize=a`` is smaller than ``rsize=b`` (both numbers)."""
    a, b = transfer_size(option), transfer_size(than)
    return 0 < a < b

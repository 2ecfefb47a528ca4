"""What no Oracle mount may have: options a rule forbids for the files a line holds (or for
every role a line of unknown files could hold), what backup mounts must not carry, a version
left to negotiation, and transfer sizes above the client's maximum."""

from __future__ import annotations

from collections.abc import Sequence

from nasplan.audit import rule_ids
from nasplan.audit.auditor import SEVERITY_OF_RULE, AuditorBase
from nasplan.audit.parsers import MountEntry
from nasplan.knowledge.schema import SourceRef

_RANK = {"info": 0, "warning": 1, "error": 2}
_SIZES = ("rsize", "wsize")
# Unknown options named in one finding; a line with more says how many more.
_NAMED = 6
# Where the shape of an fstab line (device, mount point, type, option list, ...) is given.
_FSTAB_FORMAT = SourceRef(
    id="linux-nfs-man",
    locator="DESCRIPTION: server:path /mountpoint fstype option,option,... 0 0",
)


class MountLimits(AuditorBase):
    def check_option_names(self, kind: str, entry: MountEntry, written: list[str]) -> None:
        """Options the OS release's NFS client does not take: the mount fails unless the line
        says it is sloppy (knowledge/catalog/client_options.yaml). ``written``: the line's
        options without the words a shell or template fills in, which are no option names."""
        client = self.kb.client_of(self.os, self.plan.platform.host.os_version)
        if client is None or client.rule not in self.plan.applied_rules:
            return
        names = [o.split("=", 1)[0].strip() for o in written]
        if client.tolerant is not None and client.tolerant in names:
            return
        unknown = [name for name in dict.fromkeys(names) if name and not client.takes(name)]
        if not unknown:
            return
        kept = ",".join(o for o in written if client.takes(o)) or "defaults"
        named = unknown[:_NAMED]
        if len(unknown) > _NAMED:
            words = f"{', '.join(named)} and {len(unknown) - _NAMED} more"
        elif len(named) > 1:
            words = f"{', '.join(named[:-1])} and {named[-1]}"
        else:
            words = named[0]
        verb = "is not an option" if len(unknown) == 1 else "are not options"
        flag = (
            " -o is the mount command's flag: in /etc/fstab the fourth field is the option "
            f"list itself ({self.source_words(_FSTAB_FORMAT)})."
            if "-o" in unknown
            else ""
        )
        unless = (
            f" unless the line says {client.tolerant}, which makes the client skip them"
            if client.tolerant
            else ""
        )
        cited = "; ".join(self.source_words(ref) for ref in client.sources[:2])
        self.add(
            "error",
            client.rule,
            kind,
            entry.line,
            f"{entry.mount_point}: {words} {verb} the NFS client of {self.kb.os[self.os].label} "
            f"takes, so the mount fails{unless} ({cited}).{flag}",
            f"{entry.device}\t{entry.mount_point}\tnfs\t{kept}\t0\t0",
            "remount",
            about=named,
        )

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
            if everywhere and not backup:
                self.forbidden_whatever_it_holds(kind, entry, option, roles)
                continue
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

    def forbidden_whatever_it_holds(
        self, kind: str, entry: MountEntry, option: str, roles: list[str]
    ) -> None:
        """An option some rule forbids for each role the line could hold: wrong whatever it
        holds, at the least severity those rules give it."""
        blockers = [self.forbidder([role], option) for role in roles]
        if not blockers or any(b is None for b in blockers):
            return
        ranked = sorted(
            (b for b in blockers if b is not None),
            key=lambda b: _RANK[SEVERITY_OF_RULE[b.severity]],
        )
        least = ranked[0]
        others = sorted({b.id for b in ranked[1:]} - {least.id})
        self.add(
            SEVERITY_OF_RULE[least.severity],
            least.id,
            kind,
            entry.line,
            f"{entry.mount_point}: {option} is wrong whatever Oracle files this mount holds "
            f"({least.title}"
            + (f"; also {', '.join(others)}" if others else "")
            + "); say what it holds to check it fully.",
            None,
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

    def check_version_pinned(
        self, kind: str, entry: MountEntry, found: list[str], hidden: list[str]
    ) -> None:
        """A line of any role that leaves the NFS version to negotiation, where the OS then
        picks a version the plan does not use (Linux tries NFSv4 first); an info where a word
        the shell fills in (``hidden``) may pin it."""
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
        if hidden:
            self.add(
                "info",
                rule,
                kind,
                entry.line,
                f"{entry.mount_point}: no NFS version is written; {not_shown(hidden)} (every "
                f"Oracle mount of the plan has {option}).",
                about=["vers"],
            )
            return
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
        # Above the client's maximum is not an error: the size is negotiated down to what
        # both ends support (the rule's own rationale; nfs(5) for Linux), so it is an info
        # that names the size that will actually be used.
        where = (
            self.source_words(default.source)
            if default is not None and default.negotiated
            else self.kb.rules[rule_ids.TRANSFER_SIZE_CAPS].title
        )
        self.add(
            "info",
            rule_ids.TRANSFER_SIZE_CAPS,
            kind,
            entry.line,
            f"{entry.mount_point}: {option} is above the {rsize_max}-byte maximum of {label}, "
            f"which then uses the largest size both ends support ({where}); "
            f"{name}={rsize_max} says plainly what is used.",
            about=[name],
        )


def not_shown(hidden: Sequence[str]) -> str:
    """That the words a shell or template fills in (``hidden``) may set what is not written."""
    words = " and ".join(dict.fromkeys(hidden))
    held = "it holds" if len(set(hidden)) == 1 else "they hold"
    return f"{words} may set it, and what {held} is not in the paste"

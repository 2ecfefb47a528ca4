"""The line to write instead of a pasted NFS line: the planned mount at the user's own mount
point and export, keeping what the audit accepts of the user's line."""

from __future__ import annotations

from nasplan.audit.auditor import transfer_size
from nasplan.audit.mount_limits import MountLimits
from nasplan.audit.parsers import MountEntry
from nasplan.domain.plan import Mount
from nasplan.renderers.mount_table import entry_text

SIZES = ("rsize", "wsize")


class FixLines(MountLimits):
    def implied(self, found: list[str]) -> set[str]:
        """The options the found ones bring with them on this OS (Linux noac: actimeo=0)."""
        return {
            option
            for written in found
            if (entry := self.kb.option_index.get((self.os, written.split("=", 1)[0])))
            for implication in entry.implies
            if implication.os == self.os
            for option in implication.options
        }

    def fix_line(
        self, mount: Mount, entry: MountEntry, found: list[str] | None = None, runtime: bool = False
    ) -> str:
        """The planned line for this mount, at the user's own mount point and export, keeping
        what the audit accepts of the user's line (``found``): a larger valid transfer size,
        and, in a file the user wrote, the options the plan does not set and no rule forbids
        here. Output of a running system prints what the kernel chose, which is not kept."""
        options = list(mount.options)
        if found:
            options = self.kept_options(mount, found, extras=not runtime)
        here = mount.model_copy(
            update={"mount_point": entry.mount_point, "export": entry.device, "options": options}
        )
        return entry_text(self.os, here)

    def kept_options(self, mount: Mount, found: list[str], extras: bool) -> list[str]:
        by_key = {self.key(o): o for o in found}
        rsize_max = self.kb.os[self.os].rsize_max
        options: list[str] = []
        for option in mount.options:
            theirs = by_key.get(self.key(option), option)
            larger = (
                self.key(option) in SIZES
                and lower_size(option, theirs)
                and transfer_size(theirs) <= rsize_max
            )
            options.append(theirs if larger else option)
        if not extras:
            return options
        planned = {self.key(o) for o in options}
        client = self.kb.client_of(self.os, self.plan.platform.host.os_version)
        for option in dict.fromkeys(found):
            name = option.split("=", 1)[0]
            if (
                self.key(option) in planned
                or option == "defaults"
                # minorversion qualifies the version the user wrote, which the plan's replaces
                or (name == "minorversion" and "vers" in planned)
                or option in self.implied(options)
                or self.excluded(option, options)
                or self.forbidder(list(mount.serves), option) is not None
                or (client is not None and not client.takes(option))
            ):
                continue
            options.append(option)
        return options

    def excluded(self, option: str, options: list[str]) -> bool:
        """Whether ``option`` cannot share a mount with one of ``options`` (the catalog's
        ``excludes``, either way round: llock and forcedirectio)."""
        names = {o.split("=", 1)[0] for o in options}
        mine = self.kb.option_index.get((self.os, option.split("=", 1)[0]))
        if mine is not None and names & set(mine.excludes):
            return True
        return any(
            option.split("=", 1)[0] in entry.excludes
            for name in names
            if (entry := self.kb.option_index.get((self.os, name))) is not None
        )


def lower_size(option: str, than: str) -> bool:
    """Whether ``rsize=a`` is smaller than ``rsize=b`` (both numbers)."""
    a, b = transfer_size(option), transfer_size(than)
    return 0 < a < b

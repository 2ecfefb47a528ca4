"""Direct NFS checks: v$dnfs_servers output and the oranfstab, judged against the plan and
against the mounts the same paste shows."""

from __future__ import annotations

from nasplan.audit import rule_ids
from nasplan.audit.auditor import AuditorBase
from nasplan.audit.oranfstab import NfstabServer
from nasplan.audit.sqlplus import DnfsServer
from nasplan.audit.values import nfs_version
from nasplan.knowledge.schema import SourceRef

# Where Oracle gives the oranfstab's nfs_version and its default.
_NFS_VERSION = SourceRef(
    id="ora-ladbi-19",
    locator="Creating an oranfstab File for Direct NFS Client: nfs_version (the default is NFSv3)",
)


class DnfsChecks(AuditorBase):
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

    def oranfstab(self, blocks: list[NfstabServer]) -> None:
        """Checked once every paste is read: the export lines are compared with the mounts the
        same paste shows (never with nasplan's own volume names, which the user's filer need
        not have)."""
        self.nfstab_blocks.extend(blocks)

    def finish(self) -> None:
        if self.nfstab_blocks:
            self.check_oranfstab(self.nfstab_blocks)
        else:
            self.check_nfs4_without_oranfstab()

    def check_nfs4_without_oranfstab(self) -> None:
        """Direct NFS over NFSv4.1 with no oranfstab in the pastes: Direct NFS speaks NFSv3
        unless an oranfstab says otherwise, and an oranfstab not shown cannot be judged, so
        each NFSv4 line is told what to check (an info: the file may well be right)."""
        applied = self.plan.applied_rules
        if rule_ids.DNFS_ENABLE not in applied or self.plan.platform.oracle.nfs_version != "4.1":
            return
        rule = rule_ids.DNFS_ENABLE
        if rule_ids.DNFS_ORANFSTAB in applied:
            rule = rule_ids.DNFS_ORANFSTAB
        for kind, line, point in self.nfs4_mounts:
            self.add(
                "info",
                rule,
                kind,
                line,
                f"{point} is mounted over NFSv4, and Direct NFS speaks NFSv3 unless the oranfstab "
                f"it reads gives nfs_version ({self.source_words(_NFS_VERSION)}); with only NFSv4 "
                "exported it falls back to kernel NFS. No oranfstab was pasted: check that "
                "yours has nfs_version: nfsv4.1, as the plan's oracle/oranfstab does.",
                about=["nfs_version"],
            )

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
        # Paths bound to one stated host address leave through that interface by design: the
        # advice is about several host NICs on one subnet.
        one_local = len(block.locals) >= len(distinct) and len(set(block.locals)) == 1
        if shared is not None and not one_local:
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


def _shared_prefix_24(addresses: list[str]) -> str | None:
    """The first three octets every address shares, when all are IPv4 addresses."""
    prefixes = set()
    for address in addresses:
        octets = address.split(".")
        if len(octets) != 4 or not all(o.isdigit() and o.isascii() and len(o) <= 3 for o in octets):
            return None
        prefixes.add(".".join(octets[:3]))
    return prefixes.pop() if len(prefixes) == 1 else None

"""The {placeholders} that rule messages, checks and setting scopes may name, and their values
for one platform."""

from __future__ import annotations

from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import ResolvedPlatform


class Blank(dict[str, str]):
    """A message context for ``format_map``: a placeholder it has no value for is left as is."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def message_context(kb: KnowledgeBase, resolved: ResolvedPlatform) -> dict[str, str]:
    """Values rule messages, checks and setting scopes may name as {placeholders}."""
    p = resolved.platform
    vendor = kb.filers.vendors[p.filer.vendor]
    return {
        "db_name": p.layout.db_name,
        "os_label": kb.os[p.host.os].label,
        "os_release": resolved.os_release.label,
        "oracle_version": p.oracle.version,
        "filer_label": vendor.label,
        "filer_release": p.filer.os_version or "",
        "filer_host": p.layout.filer_host,
        "nic_gbps": str(p.network.nic_gbps),
        "nic_interface": resolved.nic_interface,
        "filer_interface": p.filer.interface or "<filer-interface>",
        "memory": f"the {p.host.memory_gb} GB of" if p.host.memory_gb else "the host's",
    }

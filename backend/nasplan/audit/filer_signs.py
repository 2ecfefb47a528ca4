"""The filer family a host's NFS mounts point to, from the export paths they mount.

The catalog gives each filer family the prefix its exports carry (knowledge/catalog/filers.yaml,
``export_prefix``): Data ONTAP 7-mode exports a volume as ``/vol/<name>``, the Sun Storage 7000
and the ZFS Storage Appliance share under ``/export/``, and the others export at the root. When
every NFS mount a host has sits under the one prefix that only one family uses, the mounts show
that family. A prefix two families share (``/export/``) or mounts under different prefixes show
nothing. A clustered ONTAP SVM can keep ``/vol/`` junction paths after a move from 7-mode, so
this is evidence for the user to confirm, never an answer taken for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from nasplan.knowledge.base import KnowledgeBase


@dataclass(frozen=True)
class ExportSign:
    vendor: str
    vendor_label: str
    family: str
    family_label: str
    release: str | None  # the newest release of the family the catalog knows, to suggest
    evidence: str


def _export_path(device: str) -> str | None:
    """The server-side path of an NFS mount's device (``server:/path``), or None."""
    server, colon, path = device.partition(":")
    if not colon or not server or not path.startswith("/"):
        return None
    return path


def export_sign(kb: KnowledgeBase, devices: Iterable[str]) -> ExportSign | None:
    """The filer family every NFS device in ``devices`` points to, if exactly one does."""
    paths = [p for d in devices if (p := _export_path(d)) is not None]
    if not paths:
        return None
    by_prefix: dict[str, list[tuple[str, str, str, str, list[str]]]] = {}
    for vendor_id, vendor in kb.filers.vendors.items():
        for family in vendor.families:
            if family.export_prefix != "/":
                by_prefix.setdefault(family.export_prefix, []).append(
                    (vendor_id, vendor.label, family.id, family.label, family.known)
                )
    for prefix, families in by_prefix.items():
        if len(families) != 1 or not all(p.startswith(prefix) for p in paths):
            continue
        found_vendor, vendor_label, family_id, label, known = families[0]
        shown = ", ".join(sorted(set(paths))[:3])
        return ExportSign(
            vendor=found_vendor,
            vendor_label=vendor_label,
            family=family_id,
            family_label=label,
            release=known[-1] if known else None,
            evidence=f"every NFS mount exports a path under {prefix} ({shown}), the way "
            f"{label} names its exports; paths can outlive a move to other storage, so "
            "confirm it",
        )
    return None

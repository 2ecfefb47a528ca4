"""What the filer renderers share: who runs the commands, the export note, volume sizes and
policy names, and which filer families take console commands."""

from __future__ import annotations

from nasplan.domain.plan import Volume
from nasplan.renderers.common import Facts

STORAGE = "storage administrator"
# Export-policy settings with this scope belong to the SVM root volume's policy.
SVM_ROOT = "SVM root volume"
EXPORT_NOTE = (
    "The exports name the database hosts' storage network on each path they mount over (never a "
    "host name: it resolves to the host's public address, not the storage one) and give it "
    "read-write and root access: root on the host must create the Oracle directories and hand "
    "them to the Oracle owner after mounting. The knowledge base holds no rule on these export "
    "options; review them against your security policy."
)


# Settings that stop a volume's scheduled Snapshot copies: on a volume that exists already, a
# backup or recovery procedure may rely on them.
SNAPSHOT_SCHEDULE_KEYS = frozenset({"nosnap"})
SNAPSHOT_RISK = (
    "Medium: a volume that exists already stops taking its scheduled Snapshot copies; check "
    "that no backup or recovery procedure relies on them before the change."
)


# Amazon FSx for NetApp ONTAP takes the ONTAP CLI (as fsxadmin over SSH) like a cluster.
ONTAP_CLI_FAMILIES = frozenset({"ontap_cluster", "fsxn"})
# Cloud NAS services: no console commands, a portal or API instead.
CLOUD_FAMILIES = frozenset({"anf", "gcnv"})


def volume_size(v: Volume) -> str:
    """The planned size in the filers' own notation, or a placeholder until sizing gives it."""
    return f"{v.size_gb}g" if v.size_gb else "<size>"


def reserve_option(v: Volume) -> str:
    reserve = v.sizing.snapshot_reserve_pct if v.sizing else None
    return f" -percent-snapshot-space {reserve}" if reserve is not None else ""


# ------------------------------------------------------------------ clustered ONTAP


def policy_name(f: Facts, role: str) -> str:
    return f"{f.db_lower}_binaries" if role == "oracle_home" else f"{f.db_lower}_oracle"

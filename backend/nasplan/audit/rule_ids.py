"""The rules the audit names in its findings (beside the rules a plan applies): a knowledge folder
without one of them cannot serve the audit, and ``nasplan kb check`` says so."""

from __future__ import annotations

TRANSFER_SIZE_CAPS = "MNT-TRANSFER-SIZE-CAPS"
DNFS_ENABLE = "DNFS-ENABLE"
DNFS_ORANFSTAB = "DNFS-ORANFSTAB"
DNFS_CONSIDER = "DNFS-CONSIDER"
DNFS_MULTIPATH = "DNFS-MULTIPATH"
DNFS_SUBNET_PER_PATH = "DNFS-LINUX-SUBNET-PER-PATH"
# The least transfer size Oracle's guides ask for: a smaller one is wrong, a larger one a choice.
TRANSFER_SIZE_FLOOR = "MNT-RWSIZE-32K"

AUDIT_RULE_IDS = (
    TRANSFER_SIZE_CAPS,
    DNFS_ENABLE,
    DNFS_ORANFSTAB,
    DNFS_CONSIDER,
    DNFS_MULTIPATH,
    DNFS_SUBNET_PER_PATH,
    TRANSFER_SIZE_FLOOR,
)

"""The rules the audit names in its findings (beside the rules a plan applies): a knowledge folder
without one of them cannot serve the audit, and ``nasplan kb check`` says so."""

from __future__ import annotations

TRANSFER_SIZE_CAPS = "MNT-TRANSFER-SIZE-CAPS"
DNFS_ENABLE = "DNFS-ENABLE"
DNFS_ORANFSTAB = "DNFS-ORANFSTAB"
DNFS_CONSIDER = "DNFS-CONSIDER"
DNFS_MULTIPATH = "DNFS-MULTIPATH"
DNFS_SUBNET_PER_PATH = "DNFS-LINUX-SUBNET-PER-PATH"

AUDIT_RULE_IDS = (
    TRANSFER_SIZE_CAPS,
    DNFS_ENABLE,
    DNFS_ORANFSTAB,
    DNFS_CONSIDER,
    DNFS_MULTIPATH,
    DNFS_SUBNET_PER_PATH,
)

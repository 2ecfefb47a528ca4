"""What the filer playbooks share: NetApp's collection, its action group for the connection
defaults, and nasplan's NFS server keys as the collection's options."""

from __future__ import annotations

from typing import Any

from nasplan.renderers.common import Facts

COLLECTION = "netapp.ontap"
# The collection's action group: module_defaults for it reach every one of its modules.
GROUP = "group/netapp.ontap.netapp_ontap"
# nasplan's CLI field names (the rules' keys) as netapp.ontap's options.
NFS_SERVER_OPTIONS = {
    "tcp-max-xfer-size": "tcp_max_xfer_size",
    "v4.1": "nfsv41",
    "v4-id-domain": "nfsv4_id_domain",
    "mount-rootonly": "nfsv3_mount_root_only",
}


def connection_defaults() -> dict[str, Any]:
    return {
        GROUP: {
            "hostname": "{{ ontap_hostname }}",
            "username": "{{ ontap_username }}",
            "password": "{{ ontap_password }}",
            "https": True,
            "validate_certs": "{{ ontap_validate_certs | default(true) }}",
        }
    }


def filer_playbook_applies(f: Facts) -> bool:
    """Clustered ONTAP, on premises or as FSx for ONTAP (whose volumes the AWS API creates:
    its playbook attaches their policies instead, playbook_creates_volumes)."""
    return f.family in ("ontap_cluster", "fsxn")


def playbook_creates_volumes(f: Facts) -> bool:
    return f.family == "ontap_cluster"

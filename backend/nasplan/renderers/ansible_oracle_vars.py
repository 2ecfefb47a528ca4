"""ansible/vars/ansible_oracle_dnfs.yml: the plan's Direct NFS mounts in the shape the
community ansible-oracle collection reads (oravirt/ansible-oracle, role orahost_storage,
variable ``oradnfs``; v4.14.0), for a team that runs those roles instead of nasplan's playbook.

The role mounts each export with the options given (``fstaboptions``; its own default differs
from the plan's, so they are always written) and writes one oranfstab block per server from
``server``, ``ips`` (``local`` and ``path``) and ``exports`` (``export`` and ``mount``). Since
v4.14.0 the collection links Direct NFS off unless ``oracle_all_editions_options_state`` turns
it on; that list replaces the role's whole default, so its other entry (uniaud, off) is carried
as the default has it. Values are tagged ``!unsafe``: Ansible never templates them.
"""

from __future__ import annotations

from typing import Any

from nasplan.renderers.ansible import Unsafe, dump_playbook
from nasplan.renderers.common import PLACEHOLDER_RE, Facts, comment_block, header_lines, rules_of
from nasplan.renderers.handover import dnfs_local
from nasplan.renderers.oracle import dnfs_paths

PATH = "ansible/vars/ansible_oracle_dnfs.yml"
COLLECTION = "opitzconsulting.ansible_oracle"
RELEASE = "4.14.0"


def _local(f: Facts, local: str | None, number: int) -> str:
    """The role writes ``local:`` for every path; with one path nasplan's oranfstab has none,
    so the storage interface is named (or asked for)."""
    if local is not None:
        return local
    given = dnfs_local(f, number)
    return f.host_if if PLACEHOLDER_RE.fullmatch(given) and f.host_if else given


def _ips(f: Facts) -> list[dict[str, Any]]:
    return [
        {"local": Unsafe(_local(f, local, number)), "path": Unsafe(path)}
        for number, (local, path) in enumerate(dnfs_paths(f), start=1)
    ]


def render_ansible_oracle_vars(f: Facts) -> dict[str, str]:
    if f.os != "linux" or not f.dnfs:
        return {}
    mounts = f.db_mounts()
    data = {
        "oradnfs": [
            {
                "server": Unsafe(f.filer_host),
                "ips": _ips(f),
                "exports": [
                    {
                        "export": Unsafe(m.export.split(":", 1)[1]),
                        "mount": Unsafe(m.mount_point),
                        "fstaboptions": Unsafe(",".join(m.options)),
                    }
                    for m in mounts
                ],
            }
        ],
        "oracle_all_editions_options_state": [
            {"option": "dnfs", "enabled": True},
            {"option": "uniaud", "enabled": False},
        ],
    }
    notes = [
        f"For the {COLLECTION} collection ({RELEASE}; github.com/oravirt/ansible-oracle), role",
        "orahost_storage: put this file in the database hosts' group_vars. It mounts each export",
        "with the plan's options and writes oranfstab from the same values; the relink turns",
        "Direct NFS on. Use it or nasplan's ansible/site.yml and host/ scripts, not both.",
        *(
            [
                "The role writes no nfs_version line: add nfs_version: nfsv4.1 to oranfstab's",
                "server block after it runs (oracle/oranfstab has it); without it Direct NFS",
                "uses NFSv3.",
            ]
            if f.plan.platform.oracle.nfs_version == "4.1"
            else []
        ),
        "A value in angle brackets is one the design does not give yet (the runbook's first",
        "page lists it).",
    ]
    head = comment_block(
        [
            *header_lines(f, "ansible-oracle variables: the Direct NFS mounts.", rules_of(mounts)),
            "",
            *notes,
        ]
    )
    return {PATH: f"{head}\n---\n{dump_playbook(data)}"}

"""ansible/filer_rollback.yml: the clustered ONTAP filer rollback as a netapp.ontap playbook,
doing what filer/commands.txt's rollback does, with the values recorded in phase 1 as
variables that stay RECORDED_VALUE (and stop the run) until they are filled in."""

from __future__ import annotations

from typing import Any

from nasplan.renderers.ansible import Unsafe
from nasplan.renderers.common import Facts
from nasplan.renderers.filer_ansible_common import (
    COLLECTION,
    NFS_SERVER_OPTIONS,
    connection_defaults,
)
from nasplan.renderers.filer_common import policy_name
from nasplan.renderers.handover import RECORDED_VALUE, svm


def rollback_playbook(f: Facts) -> list[dict[str, Any]]:
    """What filer/commands.txt's rollback does, with the values recorded in phase 1 as
    variables that stay RECORDED_VALUE until the storage administrator fills them in."""
    nfs_options = [
        NFS_SERVER_OPTIONS[s.key]
        for s in f.settings("ontap_nfs_server")
        if s.key in NFS_SERVER_OPTIONS
    ]
    with_snapshot = {v for s in f.settings("ontap_snapshot_policy") for v in s.applies_to}
    recorded_volumes = [
        {
            "name": Unsafe(v.name),
            "export_policy": RECORDED_VALUE,
            **({"snapshot_policy": RECORDED_VALUE} if v.name in with_snapshot else {}),
        }
        for v in f.plan.volumes
    ]
    tasks: list[dict[str, Any]] = [
        {
            "name": "Stop before any change while a recorded value or a placeholder is left",
            "ansible.builtin.assert": {
                "that": [
                    "'<' not in svm",
                    f"'{RECORDED_VALUE}' not in (recorded_nfs | to_json)",
                    f"'{RECORDED_VALUE}' not in (recorded_volumes | to_json)",
                    "ontap_hostname is defined and ontap_username is defined",
                ],
                "fail_msg": f"Replace each {RECORDED_VALUE} with the value in the output saved "
                "in phase 1 (a volume missing from it was created by this change: give it the "
                "policy default), and give the ontap_* connection variables.",
            },
        },
        {
            "name": "Volumes back on their recorded export and snapshot policies",
            f"{COLLECTION}.na_ontap_volume": {
                "vserver": "{{ svm }}",
                "name": "{{ item.name }}",
                "export_policy": "{{ item.export_policy }}",
                "snapshot_policy": "{{ item.snapshot_policy | default(omit) }}",
            },
            "loop": "{{ recorded_volumes }}",
            "loop_control": {"label": "{{ item.name }}"},
        },
    ]
    if nfs_options:
        tasks.append(
            {
                "name": "NFS server options back as recorded (after every host has unmounted)",
                f"{COLLECTION}.na_ontap_nfs": {
                    "vserver": "{{ svm }}",
                    **{option: f"{{{{ recorded_nfs.{option} }}}}" for option in nfs_options},
                },
            }
        )
    tasks += [
        {
            "name": f"Remove the export policy {name} (no volume uses it any more)",
            f"{COLLECTION}.na_ontap_export_policy": {
                "vserver": "{{ svm }}",
                "name": Unsafe(name),
                "state": "absent",
            },
        }
        for name in dict.fromkeys(policy_name(f, v.role) for v in f.plan.volumes)
    ]
    return [
        {
            "name": f"Filer rollback for {f.db}: recorded policies and NFS options (nasplan)",
            "hosts": "ontap",
            "connection": "local",
            "gather_facts": False,
            "module_defaults": connection_defaults(),
            "vars": {
                "svm": Unsafe(svm(f)),
                "recorded_nfs": dict.fromkeys(nfs_options, RECORDED_VALUE),
                "recorded_volumes": recorded_volumes,
            },
            "tasks": tasks,
        }
    ]

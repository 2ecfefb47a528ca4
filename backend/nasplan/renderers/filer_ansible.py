"""ansible/filer.yml: the clustered ONTAP filer phase as a playbook of NetApp's own
``netapp.ontap`` collection (issue 27, first part).

It carries what filer/commands.txt does for clustered ONTAP, from the same facts: the SVM's NFS
server options the plan sets, the SVM root volume's read rule, one export policy per kind of
volume with a rule per storage network, each volume with its size, junction path, policy,
snapshot reserve and autosize, and the snapshot policy where the plan sets one. The broadcast
domain's MTU stays in the runbook's network phase: it reaches every port of the domain and is
gated there, so it is not a task a playbook run should repeat.

As in ansible/site.yml, the file is written by a YAML library, every value from the plan is
tagged ``!unsafe`` (Ansible never templates it), and the only Jinja is nasplan's own. A value
the design does not give yet (the SVM, the aggregate, a storage network, a volume's size) is its
placeholder in angle brackets, as in the other files, so the runbook's first page lists it; an
assertion stops the run before any change while one is left, or while the credentials (from the
inventory or a vault, never from this file) are missing.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from nasplan.renderers.ansible import Unsafe, dump_playbook
from nasplan.renderers.common import FAMILY_LABELS, Facts, comment_block, header_lines, rules_of
from nasplan.renderers.filer_ansible_common import (
    COLLECTION,
    NFS_SERVER_OPTIONS,
    connection_defaults,
    filer_playbook_applies,
    playbook_creates_volumes,
)
from nasplan.renderers.filer_ansible_rollback import rollback_playbook
from nasplan.renderers.filer_common import SVM_ROOT, policy_name
from nasplan.renderers.handover import (
    RECORDED_VALUE,
    aggregate,
    export_clients,
    setting_value,
    svm,
)

EXPORT_RULE_OPTIONS = {
    "rorule": "ro_rule",
    "rwrule": "rw_rule",
    "superuser": "super_user_security",
    "allow-suid": "allow_suid",
}
_LIST_OPTIONS = {"ro_rule", "rw_rule", "super_user_security"}


def _rule_value(option: str, value: str) -> Any:
    if option in _LIST_OPTIONS:
        return [Unsafe(part) for part in value.split(",")]
    if option == "allow_suid":
        return value == "true"
    return Unsafe(value)


def _nfs_server_value(option: str, value: str) -> Any:
    if option == "tcp_max_xfer_size":
        return int(value)
    return Unsafe(value)


def not_in_playbook(f: Facts) -> list[str]:
    """The plan's filer settings this playbook does not carry, in words, with why."""
    left = [
        f"vserver nfs {s.key}: netapp.ontap's na_ontap_nfs has no option for it (set it with "
        "filer/commands.txt)"
        for s in f.settings("ontap_nfs_server")
        if s.key not in NFS_SERVER_OPTIONS
    ]
    if f.settings("ontap_port"):
        left.append(
            "the broadcast domain's MTU: the runbook's network phase changes it, gated per path "
            "(filer/commands.txt)"
        )
    return left


def _variables(f: Facts) -> dict[str, Any]:
    plan = f.plan
    reserve = {v.name: v.sizing.snapshot_reserve_pct for v in plan.volumes if v.sizing}
    autosize = {v.name: v.sizing.autosize_max_gb for v in plan.volumes if v.sizing}
    snapshot = {
        volume: s.value for s in f.settings("ontap_snapshot_policy") for volume in s.applies_to
    }
    volumes = []
    for v in plan.volumes:
        entry: dict[str, Any] = {"name": Unsafe(v.name)}
        if playbook_creates_volumes(f):
            # FSx for ONTAP: the AWS API gives size, path and snapshot policy (filer_fsx).
            entry["size_gb"] = v.size_gb or Unsafe("<size>")
            entry["junction_path"] = Unsafe(v.export)
        entry["export_policy"] = Unsafe(policy_name(f, v.role))
        if reserve.get(v.name) is not None:
            entry["percent_snapshot_space"] = reserve[v.name]
        if v.name in snapshot and playbook_creates_volumes(f):
            entry["snapshot_policy"] = Unsafe(snapshot[v.name])
        if autosize.get(v.name):
            entry["autosize_max_gb"] = autosize[v.name]
        volumes.append(entry)
    found: dict[str, Any] = {"svm": Unsafe(svm(f))}
    if playbook_creates_volumes(f):
        found["aggregate"] = Unsafe(aggregate(f))
    return found | {"storage_networks": [Unsafe(c) for c in export_clients(f)], "volumes": volumes}


def _export_tasks(f: Facts) -> list[dict[str, Any]]:
    tasks: list[dict[str, Any]] = []
    extra: dict[str, dict[str, str]] = defaultdict(dict)
    root: dict[str, str] = {}
    for s in f.settings("ontap_export_policy"):
        if s.scope == SVM_ROOT:
            root[s.key] = s.value
            continue
        for volume in s.applies_to:
            extra[volume][s.key] = s.value
    if root:
        tasks.append(
            _rule_task(
                "Let the storage networks read the SVM root volume (policy default)",
                "default",
                root,
            )
        )
    policies: dict[str, dict[str, str]] = {}
    for v in f.plan.volumes:
        policies.setdefault(policy_name(f, v.role), {}).update(extra.get(v.name, {}))
    for name, options in policies.items():
        tasks.append(
            {
                "name": f"Export policy {name}",
                f"{COLLECTION}.na_ontap_export_policy": {
                    "vserver": "{{ svm }}",
                    "name": Unsafe(name),
                },
            }
        )
        tasks.append(
            _rule_task(
                f"Export policy {name}: read-write for the hosts' storage networks",
                name,
                {"rorule": "sys", "rwrule": "sys", "superuser": "sys", **options},
            )
        )
    return tasks


def _rule_task(title: str, policy: str, options: dict[str, str]) -> dict[str, Any]:
    """One rule per storage network in ``policy``, with the rule options (CLI names) the
    plan gives."""
    return {
        "name": title,
        f"{COLLECTION}.na_ontap_export_policy_rule": {
            "vserver": "{{ svm }}",
            "name": Unsafe(policy),
            "client_match": ["{{ item }}"],
            "protocol": ["nfs"],
            **{
                EXPORT_RULE_OPTIONS[k]: _rule_value(EXPORT_RULE_OPTIONS[k], v)
                for k, v in options.items()
                if k in EXPORT_RULE_OPTIONS
            },
        },
        "loop": "{{ storage_networks }}",
    }


def _volume_task() -> dict[str, Any]:
    return {
        "name": "Volumes with their junction paths, export policies and snapshot reserve",
        f"{COLLECTION}.na_ontap_volume": {
            "vserver": "{{ svm }}",
            "name": "{{ item.name }}",
            "aggregate_name": "{{ aggregate }}",
            "size": "{{ item.size_gb }}",
            "size_unit": "gb",
            "junction_path": "{{ item.junction_path }}",
            "export_policy": "{{ item.export_policy }}",
            "volume_security_style": "unix",
            "percent_snapshot_space": "{{ item.percent_snapshot_space | default(omit) }}",
            "snapshot_policy": "{{ item.snapshot_policy | default(omit) }}",
            "wait_for_completion": True,
        },
        "loop": "{{ volumes }}",
        "loop_control": {"label": "{{ item.name }}"},
    }


def _attach_task() -> dict[str, Any]:
    """FSx for ONTAP: the volumes exist (the AWS API made them, with their size, path and
    snapshot policy); this gives each its export policy and snapshot reserve. Without an
    aggregate the module cannot create a volume, so a missing one fails here."""
    return {
        "name": "Export policies and snapshot reserve on the volumes the FSx API created",
        f"{COLLECTION}.na_ontap_volume": {
            "vserver": "{{ svm }}",
            "name": "{{ item.name }}",
            "export_policy": "{{ item.export_policy }}",
            "percent_snapshot_space": "{{ item.percent_snapshot_space | default(omit) }}",
        },
        "loop": "{{ volumes }}",
        "loop_control": {"label": "{{ item.name }}"},
    }


def _playbook(f: Facts) -> list[dict[str, Any]]:
    nfs = {
        NFS_SERVER_OPTIONS[s.key]: _nfs_server_value(
            NFS_SERVER_OPTIONS[s.key], setting_value(f, s.value)
        )
        for s in f.settings("ontap_nfs_server")
        if s.key in NFS_SERVER_OPTIONS
    }
    tasks: list[dict[str, Any]] = [
        {
            "name": "Stop before any change while a value is left in angle brackets",
            "ansible.builtin.assert": {
                "that": [
                    "'<' not in svm",
                    *(["'<' not in aggregate"] if playbook_creates_volumes(f) else []),
                    "'<' not in (storage_networks | to_json)",
                    "'<' not in (volumes | to_json)",
                    "ontap_hostname is defined and ontap_username is defined",
                ],
                "fail_msg": "Fill in the values in angle brackets (the runbook's first page "
                "lists them) and give the ontap_* connection variables (inventory or vault).",
            },
        }
    ]
    if nfs:
        tasks.append(
            {
                "name": "NFS server options the plan sets",
                f"{COLLECTION}.na_ontap_nfs": {"vserver": "{{ svm }}", **nfs},
            }
        )
    tasks += _export_tasks(f)
    tasks.append(_volume_task() if playbook_creates_volumes(f) else _attach_task())
    if any(v.sizing and v.sizing.autosize_max_gb for v in f.plan.volumes):
        tasks.append(
            {
                "name": "Autosize: grow up to the planned maximum",
                f"{COLLECTION}.na_ontap_volume_autosize": {
                    "vserver": "{{ svm }}",
                    "volume": "{{ item.name }}",
                    "mode": "grow",
                    "maximum_size": "{{ item.autosize_max_gb }}g",
                },
                "loop": "{{ volumes | selectattr('autosize_max_gb', 'defined') | list }}",
                "loop_control": {"label": "{{ item.name }}"},
            }
        )
    return [
        {
            "name": f"Filer for {f.db}: NFS options, export policies and volumes (nasplan)",
            "hosts": "ontap",
            "connection": "local",
            "gather_facts": False,
            "module_defaults": connection_defaults(),
            "vars": _variables(f),
            "tasks": tasks,
        }
    ]


def render_filer_ansible(f: Facts) -> dict[str, str]:
    if not filer_playbook_applies(f):
        return {}
    used = [
        *rules_of(f.settings("ontap_nfs_server", "ontap_export_policy", "ontap_snapshot_policy")),
        *(r for v in f.plan.volumes for r in v.rules),
    ]
    left = not_in_playbook(f)
    head = comment_block(
        [
            *header_lines(
                f, f"Ansible playbook: the filer phase for {FAMILY_LABELS[f.family]}.", used
            ),
            "",
            f"Needs NetApp's {COLLECTION} collection (ansible-galaxy collection install "
            f"{COLLECTION}).",
            "Run it from a machine that reaches the cluster's management address; put the host",
            "in the group ontap and give ontap_hostname, ontap_username and ontap_password in",
            "the inventory or an Ansible vault (never in this file).",
            "Dry run: ansible-playbook -i INVENTORY ansible/filer.yml --check --diff",
            "Apply:   ansible-playbook -i INVENTORY ansible/filer.yml",
            "Use this playbook or the filer phase of filer/commands.txt, not both.",
            *(
                []
                if playbook_creates_volumes(f)
                else [
                    "FSx for ONTAP: run it after the volumes exist (terraform/fsx.tf.json or",
                    "filer/fsx/): the FSx API creates them; this playbook gives them their export",
                    "policies. ontap_hostname is the file system's management endpoint and",
                    "ontap_username fsxadmin.",
                ]
            ),
            *(["Not in this playbook:", *(f"- {item}" for item in left)] if left else []),
        ]
    )
    body = dump_playbook(_playbook(f))
    rollback_head = comment_block(
        [
            *header_lines(
                f,
                f"Ansible playbook: the filer rollback for {FAMILY_LABELS[f.family]}.",
                rules_of(f.settings("ontap_nfs_server", "ontap_snapshot_policy")),
            ),
            "",
            "Run it after the database is back on its original files and every host has",
            f"unmounted the new volumes. Replace each {RECORDED_VALUE} below with the value",
            "in the output saved in phase 1 first; the playbook refuses to run until then.",
            "Dry run: ansible-playbook -i INVENTORY ansible/filer_rollback.yml --check --diff",
            "The read-only rules added to the SVM root volume's policy stay, and volumes and",
            "data are never removed (see the runbook's backout step).",
        ]
    )
    rollback = dump_playbook(rollback_playbook(f))
    return {
        "ansible/filer.yml": f"{head}\n---\n{body}",
        "ansible/filer_rollback.yml": f"{rollback_head}\n---\n{rollback}",
    }

"""ansible/: the Linux host phase as an Ansible playbook (mounts, sysctls, oranfstab).

The playbook is written by a YAML library, so every value is quoted as YAML needs, and every
value that comes from the plan is tagged ``!unsafe``: Ansible then treats it as data and never
templates it. The only Jinja in the playbook is nasplan's own (the variables the platform does
not give). The oranfstab template is Jinja by nature; the text it carries besides its loop
comes from the validated plan, and free text in its comment cannot hold a brace (one_line).
"""

from __future__ import annotations

from typing import Any

import yaml

from nasplan.renderers.common import Facts, comment_block, header_lines, rules_of
from nasplan.renderers.handover import nodes, oracle_owner_ids
from nasplan.renderers.host_nic import storage_interfaces
from nasplan.renderers.linux_kernel import (
    boot_sysctls,
    modprobe_target,
    modprobe_text,
    module_options,
    sysctl_target,
)
from nasplan.renderers.oracle import (
    dnfs_paths,
    oranfstab_body,
    oranfstab_planned,
    oranfstab_rules,
    oranfstab_target,
)


class Unsafe(str):
    """Plan data in the playbook: written with Ansible's !unsafe tag, so never templated."""


class _PlaybookDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # a value used twice is written twice, never as an anchor and alias


def _represent_unsafe(dumper: yaml.SafeDumper, value: Unsafe) -> yaml.ScalarNode:
    return dumper.represent_scalar("!unsafe", str(value), style="'")


_PlaybookDumper.add_representer(Unsafe, _represent_unsafe)


def dump_playbook(plays: list[dict[str, Any]] | dict[str, Any]) -> str:
    """Plays (or a vars file) as YAML, plan data tagged !unsafe."""
    return yaml.dump(plays, Dumper=_PlaybookDumper, sort_keys=False, width=100, allow_unicode=True)


# nasplan's own shell, run with the plan's values as arguments (never inside the code). Each
# prints changed=yes or changed=no, so that a second run of the playbook reports no change.
_LIVE_SYSCTL = """set -eu
now=$(sysctl -n "$1" | tr -s ' \\t' '  ')
if [ "$now" = "$2" ]; then echo changed=no; else sysctl -w "$1=$2" > /dev/null; echo changed=yes; fi
"""
_INTERFACE_MTU = """set -eu
IF=$1 MTU=$2 changed=no
if [ "$(cat "/sys/class/net/$IF/mtu")" != "$MTU" ]; then
  ip link set dev "$IF" mtu "$MTU"
  changed=yes
fi
CONN=$(nmcli -g GENERAL.CONNECTION device show "$IF" 2>/dev/null || true)
if [ -z "$CONN" ] || [ "$CONN" = "--" ]; then
  echo "no NetworkManager profile configures $IF: keep MTU $MTU where $IF is configured" >&2
  exit 3
fi
if [ "$(nmcli -g 802-3-ethernet.mtu connection show "$CONN")" != "$MTU" ]; then
  nmcli connection modify "$CONN" 802-3-ethernet.mtu "$MTU"
  changed=yes
fi
echo "changed=$changed"
"""


def _shell_task(name: str, script: str, *arguments: str) -> dict[str, Any]:
    return {
        "name": Unsafe(name),
        "ansible.builtin.command": {
            "argv": ["sh", "-c", Unsafe(script), "sh", *(Unsafe(a) for a in arguments)]
        },
        "register": "nasplan_result",
        "changed_when": "'changed=yes' in nasplan_result.stdout",
    }


def _mtu_tasks(f: Facts) -> list[dict[str, Any]]:
    """The storage interfaces' MTU, live and in their NetworkManager profile (as host/network.sh
    does; a host without a profile on the interface stops the play with a message)."""
    if f.os != "linux":
        return []
    settings = [s for s in f.settings("interface") if s.target == "host" and s.key == "mtu"]
    return [
        _shell_task(
            f"MTU {s.value} on {interface}, kept in its NetworkManager profile "
            f"({', '.join(s.rules)})",
            _INTERFACE_MTU,
            interface,
            s.value,
        )
        for s in settings
        for interface in storage_interfaces(f)
    ]


def _sysctl_tasks(f: Facts, setting: Any, index: int) -> list[dict[str, Any]]:
    """The sysctl, live and in the file read at boot. A minimum (at_least) keeps a larger value
    the host has: its value now is read first, and the larger of the two is written."""
    task: dict[str, Any] = {
        "name": Unsafe(f"sysctl {setting.key} = {setting.value} ({', '.join(setting.rules)})"),
        "ansible.posix.sysctl": {
            "name": Unsafe(setting.key),
            "value": Unsafe(setting.value),
            "sysctl_file": Unsafe(sysctl_target(f)),
            "reload": True,
            "state": "present",
        },
    }
    if not (setting.at_least and setting.value.isdigit()):
        return [task]
    now = f"nasplan_sysctl_now_{index}"
    read = {
        "name": Unsafe(f"sysctl {setting.key} now (a minimum: a larger value is kept)"),
        "ansible.builtin.command": {"argv": ["sysctl", "-n", Unsafe(setting.key)]},
        "register": now,
        "changed_when": False,
        "check_mode": False,
    }
    task["name"] = Unsafe(
        f"sysctl {setting.key} = {setting.value} or more ({', '.join(setting.rules)})"
    )
    # The template is ours; the minimum is a number of the knowledge base, checked above.
    task["ansible.posix.sysctl"]["value"] = (
        f"{{{{ [{now}.stdout | int, {int(setting.value)}] | max }}}}"
    )
    return [read, task]


def _playbook(f: Facts) -> list[dict[str, Any]]:
    early = boot_sysctls(f)
    options = module_options(f)
    dnfs = oranfstab_planned(f)
    paths = dnfs_paths(f)
    variables: dict[str, Any] = {}
    asserts: list[str] = []
    if dnfs:
        ids = oracle_owner_ids(f)
        variables["oracle_home"] = ""
        variables["oracle_owner"] = str(ids[0]) if ids else ""
        variables["oracle_group"] = str(ids[1]) if ids else ""
        variables["oranfstab_paths"] = [
            {"local": Unsafe(local), "path": Unsafe(path)} if local else {"path": Unsafe(path)}
            for local, path in paths
        ]
        asserts += [
            "oracle_home | length > 0",
            "oracle_owner | length > 0",
            "oracle_group | length > 0",
            "'<' not in (oranfstab_paths | to_json)",
        ]
    tasks: list[dict[str, Any]] = []
    if asserts:
        tasks.append(
            {
                "name": "Refuse to run until the values the platform does not give are set",
                "ansible.builtin.assert": {
                    "that": asserts,
                    "fail_msg": "Set oracle_home, oracle_owner, oracle_group and put the "
                    "addresses in "
                    "oranfstab_paths (inventory or -e).",
                },
            }
        )
    tasks += _mtu_tasks(f)
    tasks += [task for index, s in enumerate(early) for task in _sysctl_tasks(f, s, index)]
    if options:
        tasks.append(
            {
                "name": Unsafe(
                    f"Module options kept across reboots in {modprobe_target(f)} "
                    f"({', '.join(dict.fromkeys(r for o in options for r in o.setting.rules))})"
                ),
                "ansible.builtin.copy": {
                    "dest": Unsafe(modprobe_target(f)),
                    "content": Unsafe(modprobe_text(f, options)),
                    "owner": "root",
                    "group": "root",
                    "mode": "0644",
                },
            }
        )
    for mount in sorted(f.plan.mounts, key=lambda m: m.mount_point):
        tasks.append(
            {
                "name": Unsafe(f"NFS mount {mount.mount_point} ({', '.join(mount.rules)})"),
                "ansible.posix.mount": {
                    "path": Unsafe(mount.mount_point),
                    "src": Unsafe(mount.export),
                    "fstype": "nfs",
                    "opts": Unsafe(",".join(mount.options)),
                    "state": "mounted",
                },
            }
        )
    if options:
        # The sunrpc keys exist once the first NFS mount has loaded the module; the file above
        # keeps them, so the live value is set without writing a sysctl file.
        tasks += [
            _shell_task(
                f"sysctl {o.setting.key} = {o.setting.value} now ({', '.join(o.setting.rules)})",
                _LIVE_SYSCTL,
                o.setting.key,
                o.setting.value,
            )
            for o in options
        ]
        tasks.append(
            {
                "name": "sunrpc slot tables apply to mounts made after they are set",
                "ansible.builtin.debug": {
                    "msg": "Unmount and mount the NFS file systems once (database down) so "
                    "that they use the new slot tables (LNX-SUNRPC-SLOTS-128)."
                },
            }
        )
    if dnfs:
        target = oranfstab_target(f).replace("$ORACLE_HOME", "{{ oracle_home }}")
        tasks.append(
            {
                "name": Unsafe(f"Direct NFS oranfstab ({', '.join(oranfstab_rules(f))})"),
                "ansible.builtin.template": {
                    "src": "templates/oranfstab.j2",
                    "dest": target,
                    "owner": "{{ oracle_owner }}",
                    "group": "{{ oracle_group }}",
                    "mode": "0644",
                },
            }
        )
    play: dict[str, Any] = {
        "name": Unsafe(f"nasplan {f.db}: host settings and NFS mounts"),
        "hosts": f"nasplan_{f.db_lower}",
        "become": True,
    }
    if variables:
        play["vars"] = variables
    play["tasks"] = tasks
    return [play]


def _oranfstab_template(f: Facts) -> str:
    lines = header_lines(
        f, "Ansible template for oranfstab (ansible/site.yml renders it).", oranfstab_rules(f)
    )
    if any(mark in line for line in lines for mark in ("{", "}")):
        raise ValueError("a brace in the oranfstab template's comment")
    comment = "{#\n" + "\n".join(f"  {line}" for line in lines) + "\n#}\n"
    body = oranfstab_body(f, [("{{ p.local }}", "{{ p.path }}")])
    server, rest = body[0], body[1:]
    # The local/path lines come from oranfstab_paths, one pair per storage network.
    rest = [line for line in rest if not line.startswith(("local:", "path:"))]
    loop = [
        "{% for p in oranfstab_paths %}",
        "{% if p.local is defined %}",
        "local: {{ p.local }}",
        "{% endif %}",
        "path: {{ p.path }}",
        "{% endfor %}",
    ]
    # Plan text is literal: inside raw blocks Jinja copies it and evaluates nothing.
    return comment + "\n".join([_raw([server]), *loop, _raw(rest)]) + "\n"


def _raw(lines: list[str]) -> str:
    if any("{%" in line or "%}" in line for line in lines):
        raise ValueError("a Jinja block marker in plan text")
    # Ansible renders templates with trim_blocks: the newline after each tag is dropped.
    return "{% raw %}" + "".join(f"{line}\n" for line in lines) + "{% endraw %}"


def _inventory(f: Facts) -> str:
    head = comment_block(
        header_lines(f, "Ansible inventory: the database host(s) the playbook configures.", [])
    )
    return f"{head}\n[nasplan_{f.db_lower}]\n" + "".join(f"{node}\n" for node in nodes(f))


def render_ansible(f: Facts) -> dict[str, str]:
    if f.os != "linux":
        return {}
    used = [
        *rules_of(f.settings("sysctl")),
        *rules_of(f.plan.mounts),
        *(oranfstab_rules(f) if oranfstab_planned(f) else []),
    ]
    head = comment_block(
        [
            *header_lines(f, "Ansible playbook: the host phase for Linux.", used),
            "",
            f"ansible/inventory.ini puts the database host(s) in the group nasplan_{f.db_lower}.",
            "Dry run: ansible-playbook -i ansible/inventory.ini ansible/site.yml --check --diff",
            "Apply:   ansible-playbook -i ansible/inventory.ini ansible/site.yml",
            "Needs the ansible.posix collection. Use this playbook or host/mounts.sh and",
            "host/tuning.sh, not both: rollback/host_rollback.sh undoes only the scripts' work.",
        ]
    )
    body = dump_playbook(_playbook(f))
    files = {"ansible/site.yml": f"{head}\n---\n{body}", "ansible/inventory.ini": _inventory(f)}
    if oranfstab_planned(f):
        files["ansible/templates/oranfstab.j2"] = _oranfstab_template(f)
    return files

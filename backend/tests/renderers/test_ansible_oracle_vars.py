"""ansible/vars/ansible_oracle_dnfs.yml read as ansible-oracle reads it.

ROLE_TEMPLATE is the loop of roles/orahost_storage/templates/oranfstab.j2 in oravirt/ansible-oracle
(v4.14.0, commit 8b0065d; unchanged since 2018), and the mount's source and options are what
roles/orahost_storage/tasks/main.yml passes to ansible.posix.mount (src "server:export",
opts item.fstaboptions). Rendered on the bundle's variables, they must give the plan's own
oranfstab entries and mounts."""

from __future__ import annotations

from typing import Any

import jinja2
import pytest
import yaml

from nasplan.domain.plan import Plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from tests.renderers.matrix import combo_plan, preset_plan

PATH = "ansible/vars/ansible_oracle_dnfs.yml"
ROLE_TEMPLATE = """server: {{ item.server }}
{% for ips in item.ips %}
 local: {{ ips.local }}
 path: {{ ips.path }}
{% endfor %}
{% for exp in item.exports %}
 export: {{ exp.export }} mount: {{ exp.mount }}
{% endfor %}
"""


class _Loader(yaml.SafeLoader):
    pass


def _unsafe(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    assert isinstance(node, yaml.ScalarNode)
    return loader.construct_scalar(node)


_Loader.add_constructor("!unsafe", _unsafe)


def _vars(plan: Plan) -> dict[str, Any]:
    data: dict[str, Any] = yaml.load(render_bundle_files(plan)[PATH], Loader=_Loader)
    return data


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("preset", ["current-linux-ontap", "current-rac", "current-anf"])
def test_the_roles_oranfstab_is_the_plans(kb: KnowledgeBase, preset: str) -> None:
    plan = preset_plan(kb, preset)
    data = _vars(plan)
    [server] = data["oradnfs"]
    rendered = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(ROLE_TEMPLATE)
    role = _lines(rendered.render(item=server))
    ours = _lines(render_bundle_files(plan)["oracle/oranfstab"])
    ours = [line for line in ours if not line.startswith(("#", "nfs_version:"))]
    if len(server["ips"]) == 1:
        # One path: nasplan's oranfstab names none; the role always writes local:.
        assert role[1].startswith("local: ")
        role = [role[0], *role[2:]]
    assert role == ours


@pytest.mark.parametrize("preset", ["current-linux-ontap", "current-rac"])
def test_the_roles_mounts_are_the_plans(kb: KnowledgeBase, preset: str) -> None:
    plan = preset_plan(kb, preset)
    [server] = _vars(plan)["oradnfs"]
    mounts = {
        f"{server['server']}:{e['export']}": (e["mount"], e["fstaboptions"])
        for e in server["exports"]
    }
    expected = {
        m.export: (m.mount_point, ",".join(m.options))
        for m in plan.mounts
        if {"data", "redo", "control", "archive"} & set(m.serves)
    }
    assert mounts == expected


def test_direct_nfs_is_linked_on(kb: KnowledgeBase) -> None:
    data = _vars(preset_plan(kb, "current-linux-ontap"))
    states = {s["option"]: s["enabled"] for s in data["oracle_all_editions_options_state"]}
    assert states == {"dnfs": True, "uniaud": False}


def test_only_linux_direct_nfs_plans_get_the_file(kb: KnowledgeBase) -> None:
    assert PATH not in render_bundle_files(combo_plan(kb, "linux", "ontap_cluster", False, False))
    assert PATH not in render_bundle_files(combo_plan(kb, "solaris", "ontap_cluster", False, True))
    assert PATH in render_bundle_files(combo_plan(kb, "linux", "ontap7", True, True))


def test_values_are_never_templated(kb: KnowledgeBase) -> None:
    text = render_bundle_files(preset_plan(kb, "current-rac"))[PATH]
    body = text.split("\n---\n", 1)[1]
    for line in body.splitlines():
        if ":" in line and "enabled" not in line and "option" not in line:
            _, _, value = line.partition(": ")
            if value and not line.rstrip().endswith(":"):
                assert value.startswith("!unsafe "), line

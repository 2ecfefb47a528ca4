"""ansible/filer.yml (issue 27, first part): every netapp.ontap task of every clustered ONTAP
bundle validated against the module's real argument spec from the pinned `ansible` package,
`ansible-playbook --syntax-check`, and every filer setting of the plan either in the playbook or
named as left out."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from nasplan.domain.plan import Plan
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.common import BundleMeta, facts
from nasplan.renderers.filer_ansible import EXPORT_RULE_OPTIONS, not_in_playbook
from nasplan.renderers.filer_ansible_common import NFS_SERVER_OPTIONS
from tests.ansible_env import ansible_python
from tests.renderers.matrix import AS_OF, COMBOS, OS_BASE, combo_id, combo_plan, preset_plan
from tests.renderers.test_handover import FULL_SIZING

CHECK = Path(__file__).with_name("playbook_spec_check.py")
# What a storage administrator would put for the values the design leaves open.
FILLED = {
    "<svm>": "svm_ora",
    "<aggregate>": "aggr1",
    "<size>": 500,
    **{f"<storage-subnet-{n}>": f"10.0.{n}.0/24" for n in range(1, 9)},
    "__recorded__": {
        "tcp_max_xfer_size": 65536,
        "nfsv41": "disabled",
        "nfsv4_id_domain": "defaultv4iddomain.com",
        "nfsv3_mount_root_only": "enabled",
        "export_policy": "default",
        "snapshot_policy": "default",
    },
    "__connection__": {
        "ontap_hostname": "cluster1.example.com",
        "ontap_username": "admin",
        "ontap_password": "secret",
    },
}
ONTAP_COMBOS = [c for c in COMBOS if c[1] == "ontap_cluster"]


@pytest.fixture(scope="module")
def ansible() -> Path:
    return ansible_python()


def _playbook(plan: Plan, tmp_path: Path, name: str = "filer.yml") -> Path:
    path = tmp_path / name
    path.write_text(render_bundle_files(plan)[f"ansible/{name}"])
    return path


def _check(ansible: Path, playbook: Path) -> dict[str, Any]:
    done = subprocess.run(
        [str(ansible), str(CHECK), str(playbook), json.dumps(FILLED)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


SAMPLED = ONTAP_COMBOS[:: len(ONTAP_COMBOS) // 4 or 1]


@pytest.mark.parametrize("combo", SAMPLED, ids=[combo_id(*c) for c in SAMPLED])
def test_every_task_fits_the_modules_argument_spec(
    kb: KnowledgeBase, ansible: Path, tmp_path: Path, combo: tuple[str, str, bool, bool]
) -> None:
    plan = combo_plan(kb, *combo)
    result = _check(ansible, _playbook(plan, tmp_path))
    assert result["problems"] == [] and result["checked"] >= 5
    rollback = _check(ansible, _playbook(plan, tmp_path, "filer_rollback.yml"))
    assert rollback["problems"] == [] and rollback["checked"] >= len(plan.volumes) + 1


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("filer.yml", "Fill in the values in angle brackets"),
        ("filer_rollback.yml", "Replace each RECORDED_VALUE"),
    ],
)
def test_a_playbook_with_open_values_stops_before_any_change(
    kb: KnowledgeBase, ansible: Path, tmp_path: Path, name: str, refusal: str
) -> None:
    """Run for real (connection local): the first task refuses, so no netapp.ontap module
    ever runs while a placeholder or a value to record is left."""
    playbook = _playbook(combo_plan(kb, "linux", "ontap_cluster", False, False), tmp_path, name)
    inventory = tmp_path / "inventory.ini"
    inventory.write_text("[ontap]\ncluster1 ansible_connection=local\n")
    connection = ["-e", "ontap_hostname=cluster1", "-e", "ontap_username=admin"]
    run = subprocess.run(
        [str(ansible.with_name("ansible-playbook")), "-i", str(inventory), *connection,
         str(playbook)],
        capture_output=True,
        text=True,
        env={"ANSIBLE_LOCALHOST_WARNING": "false", "PATH": str(ansible.parent)},
    )  # fmt: skip
    assert run.returncode != 0 and refusal in run.stdout, run.stdout + run.stderr
    assert "ok=0" in run.stdout and "failed=1" in run.stdout


SIZED = {"sizing": FULL_SIZING, "handover": {"svm": "svm_ora", "aggregate": "aggr1"}}


@pytest.mark.parametrize("preset", ["current-linux-ontap", "current-rac", "sized", "current-fsxn"])
def test_the_presets_playbooks_fit_and_pass_the_syntax_check(
    kb: KnowledgeBase, ansible: Path, tmp_path: Path, preset: str
) -> None:
    if preset == "sized":
        # Sizing adds each volume's size, snapshot reserve and autosize maximum.
        data = deep_merge(kb.presets["current-linux-ontap"].platform, SIZED)
        plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
        assert any(v.sizing and v.sizing.autosize_max_gb for v in plan.volumes)
    else:
        plan = preset_plan(kb, preset)
    playbook = _playbook(plan, tmp_path)
    result = _check(ansible, playbook)
    assert result["problems"] == [] and result["checked"] >= 5
    if preset == "sized":
        assert "na_ontap_volume_autosize" in playbook.read_text()
        text = playbook.read_text()
        assert "<size>" not in text and "<svm>" not in text and "<aggregate>" not in text
    inventory = tmp_path / "inventory.ini"
    inventory.write_text("[ontap]\ncluster1 ansible_host=127.0.0.1\n")
    syntax = subprocess.run(
        [str(ansible.with_name("ansible-playbook")), "-i", str(inventory), "--syntax-check",
         str(playbook)],
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert syntax.returncode == 0, syntax.stdout + syntax.stderr


def test_a_wrong_option_or_value_is_caught(
    kb: KnowledgeBase, ansible: Path, tmp_path: Path
) -> None:
    """The check can fail: an option the module lacks and a value outside its choices."""
    playbook = _playbook(combo_plan(kb, "linux", "ontap_cluster", False, False), tmp_path)
    plays = yaml.safe_load(playbook.read_text().replace("!unsafe ", ""))
    nfs = next(t for t in plays[0]["tasks"] if "netapp.ontap.na_ontap_nfs" in t)
    nfs["netapp.ontap.na_ontap_nfs"] |= {"tcp_max_transfer": 1, "nfsv41": "maybe"}
    playbook.write_text(yaml.safe_dump(plays))
    problems = _check(ansible, playbook)["problems"]
    assert any("tcp_max_transfer" in p for p in problems), problems
    assert any("nfsv41" in p and "maybe" in p for p in problems), problems


@pytest.mark.parametrize("os_name", list(OS_BASE))
def test_every_filer_setting_is_in_the_playbook_or_named_as_left_out(
    kb: KnowledgeBase, os_name: str
) -> None:
    for rac in (False, True):
        plan = combo_plan(kb, os_name, "ontap_cluster", rac, True)
        text = render_bundle_files(plan)["ansible/filer.yml"]
        f = facts(plan, BundleMeta())
        left = " ".join(not_in_playbook(f))
        for s in f.settings("ontap_nfs_server"):
            assert (s.key in NFS_SERVER_OPTIONS and NFS_SERVER_OPTIONS[s.key] in text) or (
                s.key in left
            ), s.key
        for s in f.settings("ontap_export_policy"):
            assert EXPORT_RULE_OPTIONS[s.key] in text, s.key
        for s in f.settings("ontap_snapshot_policy"):
            assert f"snapshot_policy: !unsafe '{s.value}'" in text
        for v in plan.volumes:
            assert f"name: !unsafe '{v.name}'" in text and f"'{v.export}'" in text


def test_other_filer_families_get_no_filer_playbook(kb: KnowledgeBase) -> None:
    for family in ("ontap7", "sun7000"):
        files = render_bundle_files(combo_plan(kb, "linux", family, False, False))
        assert "ansible/filer.yml" not in files


@pytest.mark.parametrize("preset", ["current-linux-ontap", "current-fsxn", "current-anf"])
def test_a_playbook_the_runbook_names_is_in_the_bundle(kb: KnowledgeBase, preset: str) -> None:
    """Azure NetApp Files gets no filer playbook: its runbook must not point to one."""
    files = render_bundle_files(preset_plan(kb, preset))
    for name in ("ansible/filer.yml", "ansible/filer_rollback.yml"):
        named = [path for path, text in files.items() if name in text and path != name]
        assert name in files or not named, (name, named)


def test_fsx_playbook_attaches_policies_and_never_creates_a_volume(kb: KnowledgeBase) -> None:
    """The FSx API creates the volumes (filer/fsx/, terraform/fsx.tf.json): the playbook gives
    them their export policies, and without an aggregate it cannot create one."""
    files = render_bundle_files(preset_plan(kb, "current-fsxn"))
    plays = yaml.safe_load(files["ansible/filer.yml"].replace("!unsafe ", ""))
    volume_tasks = [t for t in plays[0]["tasks"] if "netapp.ontap.na_ontap_volume" in t]
    assert len(volume_tasks) == 1
    args = volume_tasks[0]["netapp.ontap.na_ontap_volume"]
    assert "aggregate_name" not in args and "size" not in args
    assert args["export_policy"] == "{{ item.export_policy }}"
    assert "aggregate" not in plays[0]["vars"]
    assert all("size_gb" not in v for v in plays[0]["vars"]["volumes"])
    assert "ansible/filer.yml" in files["RUNBOOK.md"]


@pytest.mark.parametrize("name", ["filer.yml", "filer_rollback.yml"])
def test_every_task_that_reads_item_loops(kb: KnowledgeBase, name: str) -> None:
    """`{{ item }}` outside a loop is undefined when the play runs (the spec check alone
    templates it as empty)."""
    text = render_bundle_files(combo_plan(kb, "linux", "ontap_cluster", True, True))[
        f"ansible/{name}"
    ]
    for task in yaml.safe_load(text.replace("!unsafe ", ""))[0]["tasks"]:
        if "{{ item" in json.dumps({k: v for k, v in task.items() if k != "loop_control"}):
            assert "loop" in task, task["name"]

"""Exports name the hosts' storage networks on every path they mount over, never a host name.

A host name resolves to the host's public address, while the mount leaves from its storage
address: an export to ``db01`` refuses every mount over the storage network (issue 20).
"""

from __future__ import annotations

import re
from typing import Any

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.handover import answer_for
from tests.renderers.matrix import AS_OF


def _files(kb: KnowledgeBase, preset: str, patch: dict[str, Any] | None = None) -> dict[str, str]:
    data = deep_merge(kb.presets[preset].platform, patch or {})
    platform = Platform.model_validate({**data, "as_of": AS_OF.isoformat()})
    return render_bundle_files(make_plan(kb, platform))


def _paths(count: int) -> list[dict[str, str]]:
    return [
        {"host_address": f"192.168.{10 + n}.11/24", "filer_address": f"192.168.{10 + n}.21"}
        for n in range(count)
    ]


def _clientmatches(commands: str, policy: str) -> list[str]:
    return re.findall(rf"-policyname {policy} -clientmatch (\S+) ", commands)


def test_direct_nfs_over_four_paths_exports_to_every_path_network(kb: KnowledgeBase) -> None:
    patch = {"network": {"nic_count": 4}, "handover": {"paths": _paths(4)}}
    commands = _files(kb, "current-rac", patch)["filer/commands.txt"]
    networks = [f"192.168.{10 + n}.0/24" for n in range(4)]
    assert _clientmatches(commands, "racdb_oracle") == networks
    assert _clientmatches(commands, "racdb_binaries") == networks


def test_without_answers_exports_name_a_storage_network_placeholder_per_path(
    kb: KnowledgeBase,
) -> None:
    files = _files(kb, "current-rac")
    commands = files["filer/commands.txt"]
    assert _clientmatches(commands, "racdb_oracle") == ["<storage-subnet-1>", "<storage-subnet-2>"]
    assert "-clientmatch rac01" not in commands
    assert "<rac-node-" not in commands
    answer = answer_for("<storage-subnet-2>")
    assert answer is not None and answer.field == "handover.paths[1].host_address"
    assert "<storage-subnet-2>" in files["RUNBOOK.md"]


def test_the_client_subnet_covers_the_paths_inside_it(kb: KnowledgeBase) -> None:
    patch = {
        "network": {"nic_count": 2},
        "handover": {"client_subnet": "192.168.0.0/16", "paths": _paths(2)},
    }
    commands = _files(kb, "current-rac", patch)["filer/commands.txt"]
    assert _clientmatches(commands, "racdb_oracle") == ["192.168.0.0/16"]
    only_subnet = {"handover": {"client_subnet": "192.168.10.0/24"}}
    commands = _files(kb, "current-rac", only_subnet)["filer/commands.txt"]
    assert _clientmatches(commands, "racdb_oracle") == ["192.168.10.0/24", "<storage-subnet-2>"]


def test_kernel_nfs_spread_over_two_paths_exports_to_both(kb: KnowledgeBase) -> None:
    """With the filer's address on both paths, the kernel NFS mounts are spread over them
    (NET-MULTIPATH-SCALING): data files on path 1, the rest on path 2, and the exports name
    both networks."""
    patch = {"oracle": {"dnfs": False}, "handover": {"paths": _paths(2)}}
    files = _files(kb, "current-linux-ontap", patch)
    assert _clientmatches(files["filer/commands.txt"], "prod_oracle") == [
        "192.168.10.0/24",
        "192.168.11.0/24",
    ]
    fstab = files["host/fstab.add"]
    assert "192.168.10.21:/prod_data\t/u02/oradata/PROD\tnfs\t" in fstab
    assert "192.168.11.21:/prod_redo\t/u03/oralog/PROD\tnfs\t" in fstab


def test_kernel_nfs_with_one_filer_address_stays_on_the_first_path(kb: KnowledgeBase) -> None:
    patch = {"oracle": {"dnfs": False}, "handover": {"paths": _paths(1)}}
    files = _files(kb, "current-linux-ontap", patch)
    assert _clientmatches(files["filer/commands.txt"], "prod_oracle") == ["192.168.10.0/24"]
    assert "192.168.10.21:" not in files["host/fstab.add"]


def test_seven_mode_exports_to_the_storage_network_not_the_host(kb: KnowledgeBase) -> None:
    commands = _files(kb, "example-linux-knfs-7mode")["filer/commands.txt"]
    exports = [line for line in commands.splitlines() if line.startswith("exportfs -p")]
    assert exports
    assert all("rw=<storage-subnet-1>,root=<storage-subnet-1> " in line for line in exports)
    answered = _files(kb, "example-linux-knfs-7mode", {"handover": {"paths": _paths(1)}})
    assert (
        "exportfs -p rw=192.168.10.0/24,root=192.168.10.0/24 /vol/"
        in answered["filer/commands.txt"]
    )
    assert "db11g" not in "\n".join(
        line for line in answered["filer/commands.txt"].splitlines() if "exportfs" in line
    )


def test_the_svm_root_volume_policy_lets_every_storage_network_read(kb: KnowledgeBase) -> None:
    patch = {"handover": {"svm": "svm_prod", "paths": _paths(2)}}
    commands = _files(kb, "current-rac", patch)["filer/commands.txt"]
    root_rules = [
        line
        for line in commands.splitlines()
        if line.startswith(
            "vserver export-policy rule create -vserver svm_prod -policyname default"
        )
    ]
    assert root_rules == [
        "vserver export-policy rule create -vserver svm_prod -policyname default "
        f"-clientmatch 192.168.{n}.0/24 -protocol nfs -rorule sys -rwrule never -superuser sys"
        for n in (10, 11)
    ]
    assert commands.index("-policyname default") < commands.index("-policyname racdb_oracle")
    fsx = _files(kb, "current-fsxn")["filer/commands.txt"]
    assert "-policyname default -clientmatch" not in fsx


def _access_table(runbook: str) -> list[list[str]]:
    section = runbook.split("**Who can mount what:**", 1)[1].split("\n\n- ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]
    # md() escapes Markdown's own characters (\\< for <); the cells are compared as read.
    return [[cell.strip().replace("\\", "") for cell in row.strip("|").split("|")] for row in rows]


def test_the_runbook_says_who_can_mount_what_as_the_commands_do(kb: KnowledgeBase) -> None:
    patch = {"network": {"nic_count": 4}, "handover": {"paths": _paths(4)}}
    files = _files(kb, "current-rac", patch)
    rows = _access_table(files["RUNBOOK.md"])
    networks = "192.168.10.0/24, 192.168.11.0/24, 192.168.12.0/24, 192.168.13.0/24"
    root, *volumes = rows
    assert root[0] == "/ (SVM root volume)" and root[3].startswith("read-only")
    assert [r[2] for r in rows] == [networks] * len(rows)
    plan_exports = re.findall(r"-junction-path (\S+) ", files["filer/commands.txt"])
    assert [r[0] for r in volumes] == plan_exports
    binaries = next(r for r in volumes if "oracle_home" in r[1])
    assert "setuid allowed" in binaries[3]
    assert all(r[3].startswith("read-write") for r in volumes)


def test_unanswered_networks_are_flagged_under_the_access_table(kb: KnowledgeBase) -> None:
    runbook = _files(kb, "current-linux-ontap")["RUNBOOK.md"]
    rows = _access_table(runbook)
    assert {r[2] for r in rows} == {"<storage-subnet-1>, <storage-subnet-2>"}
    assert "must be answered before phase 3" in runbook


def test_the_note_under_the_access_table_reads_for_one_host_and_for_several(
    kb: KnowledgeBase,
) -> None:
    single = _files(kb, "tr3322-lab")["RUNBOOK.md"]
    assert "never host names: sf4800 must have an address in one of them on every path" in single
    rac = _files(kb, "current-rac", {"handover": {"cluster_nodes": ["rac01", "rac02"]}})
    assert "never host names: rac01, rac02 must each have an address" in rac["RUNBOOK.md"]


def test_the_access_table_on_7mode_and_a_cloud_service(kb: KnowledgeBase) -> None:
    seven = _access_table(_files(kb, "example-linux-knfs-7mode")["RUNBOOK.md"])
    assert seven and all("rw= and root=" in r[3] for r in seven)
    assert not any("SVM root" in r[0] for r in seven)
    anf = _access_table(_files(kb, "current-anf")["RUNBOOK.md"])
    assert anf and all("no root squashing" in r[3] for r in anf)


def test_seven_mode_over_two_paths_sets_the_mtu_on_each_filer_interface(
    kb: KnowledgeBase,
) -> None:
    """Kernel NFS spread over two paths to a 7-mode filer: jumbo frames on both of its
    interfaces (the second a placeholder the runbook asks for, until the hand-over names it)."""
    patch = {"network": {"nic_count": 2}, "handover": {"paths": _paths(2)}}
    files = _files(kb, "example-linux-knfs-7mode", patch)
    commands = files["filer/commands.txt"]
    assert commands.count("ifconfig e1a mtusize 9000") == 1
    assert "ifconfig <filer-interface-2> mtusize 9000" in commands
    answer = answer_for("<filer-interface-2>")
    assert answer is not None and answer.field == "handover.paths[1].filer_interface"
    named = deep_merge(patch, {})
    named["handover"]["paths"][1]["filer_interface"] = "e0b"
    commands = _files(kb, "example-linux-knfs-7mode", named)["filer/commands.txt"]
    assert "ifconfig e0b mtusize 9000" in commands and "<filer-interface-2>" not in commands
    assert (
        "ifconfig e0b mtusize RECORDED_VALUE"
        in _files(kb, "example-linux-knfs-7mode", named)["rollback/filer_rollback.txt"]
    )

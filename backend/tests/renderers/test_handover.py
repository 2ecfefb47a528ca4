"""Hand-over answers: with all of them the bundle has no placeholder; with some missing the
runbook's first page lists exactly what is left, the question and the files."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from nasplan.domain.plan import Plan
from nasplan.domain.platform import SERVICE_LEVELS, Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.common import PLACEHOLDER_RE
from nasplan.renderers.handover import CLOUD_TEAM, RECORDED_VALUE, answer_for
from tests.renderers.matrix import AS_OF
from tests.renderers.test_golden import PRESETS

FULL_SIZING = {
    "database_gb": 800,
    "growth_pct_per_year": 15,
    "horizon_years": 3,
    "redo_mb_per_s": 4,
    "redo_gb_per_day": 60,
    "archive_retention_days": 5,
    "snapshot_retention_days": 7,
    "daily_change_pct": 3,
    "oracle_homes": 2,
    "oracle_home_gb": 40,
    "crs_gb": 10,
}


def full_answers(kb: KnowledgeBase, preset: str) -> dict[str, Any]:
    """The preset's platform with every hand-over question answered."""
    data = kb.presets[preset].platform
    nic_count = data["network"].get("nic_count", 1)
    vendor = data["filer"]["vendor"]
    handover: dict[str, Any] = {
        "client_subnet": "192.168.10.0/24",
        "nfs4_id_domain": "example.com",
        "oracle_uid": 54321,
        "oracle_gid": 54321,
        "paths": [
            {
                # Later paths on a VLAN: Linux bond0.101, ONTAP a0a-101 (names with . and -).
                "host_interface": f"eth{n + 1}" if n == 0 else f"bond0.{100 + n}",
                "host_address": f"192.168.{10 + n}.11/24",
                "filer_interface": "e0a" if n == 0 else f"a0a-{100 + n}",
                "filer_address": f"192.168.{10 + n}.21",
            }
            for n in range(min(nic_count, 4))
        ],
    }
    if vendor in ("netapp", "aws_fsxn"):
        handover |= {"svm": "svm_prod", "aggregate": "aggr1_ssd", "broadcast_domain": "Storage"}
    if vendor in SERVICE_LEVELS:
        handover["capacity_pool"] = "pool_ora"
    if vendor == "aws_fsxn":
        handover["fsx_svm_id"] = "svm-0123456789abcdef0"
    patch: dict[str, Any] = {
        "host": {"hostname": "dbnode1"},
        "handover": handover,
        "sizing": FULL_SIZING,
    }
    if data["oracle"].get("rac"):
        count = data["oracle"].get("rac_nodes") or 2
        handover["cluster_nodes"] = [f"dbnode{n}" for n in range(1, count + 1)]
    return deep_merge(data, patch)


def _plan(kb: KnowledgeBase, data: dict[str, Any]) -> Plan:
    return make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))


def _files(kb: KnowledgeBase, data: dict[str, Any]) -> dict[str, str]:
    return render_bundle_files(_plan(kb, data))


def _unescape(path: str, text: str) -> str:
    """HTML shows a placeholder escaped; its tags are not placeholders."""
    if not path.endswith(".html"):
        return text
    return re.sub(r"<[^>]*>", "", text).replace("&lt;", "<").replace("&gt;", ">")


@pytest.mark.parametrize("preset", PRESETS)
def test_full_answers_leave_no_placeholder(kb: KnowledgeBase, preset: str) -> None:
    plan = _plan(kb, full_answers(kb, preset))
    files = render_bundle_files(plan)
    assert plan.capacity is not None and plan.capacity.not_sized == []
    assert all(v.size_gb for v in plan.volumes)
    # The cloud account's own names (resource group, region, network) are no platform field:
    # the cloud team gives them, and the runbook's first page asks for each.
    cloud = {
        name
        for text in files.values()
        for name in PLACEHOLDER_RE.findall(text)
        if (answer := answer_for(name)) is not None and answer.field == CLOUD_TEAM
    }
    for name in cloud:
        assert f"{name}:" in _unescape("RUNBOOK.html", files["RUNBOOK.html"]), name
    left = {
        path: sorted(set(PLACEHOLDER_RE.findall(_unescape(path, text))) - cloud)
        for path, text in files.items()
    }
    assert {path: found for path, found in left.items() if found} == {}
    # Values recorded on the day of the change are the filer rollback's only blanks.
    assert {p for p, text in files.items() if RECORDED_VALUE in text} <= {
        "rollback/filer_rollback.txt",
        "ansible/filer_rollback.yml",
        "RUNBOOK.md",
        "RUNBOOK.html",
    }


def test_answers_reach_every_file(kb: KnowledgeBase) -> None:
    files = _files(kb, full_answers(kb, "current-rac"))
    filer = files["filer/commands.txt"]
    assert "-vserver svm_prod " in filer
    assert "-aggregate aggr1_ssd " in filer
    assert "-clientmatch 192.168.10.0/24 " in filer
    assert "-broadcast-domain Storage " in filer or "ontap_port" not in filer
    plan = _plan(kb, full_answers(kb, "current-rac"))
    data = next(v for v in plan.volumes if v.role == "data")
    assert data.size_gb and data.sizing and data.sizing.autosize_max_gb
    assert f"-volume {data.name} -aggregate aggr1_ssd -size {data.size_gb}g " in filer
    assert f"-maximum-size {data.sizing.autosize_max_gb}g" in filer
    assert "ALTER DATABASE ADD LOGFILE THREAD 2" in files["oracle/redo_logs.sql"]
    assert "**Capacity:**" in files["RUNBOOK.md"]
    inventory = files["ansible/inventory.ini"]
    assert inventory.splitlines()[-2:] == ["dbnode1", "dbnode2"]


def test_oranfstab_paths_from_answers(kb: KnowledgeBase) -> None:
    files = _files(kb, full_answers(kb, "current-linux-ontap"))
    body = [line for line in files["oracle/oranfstab"].splitlines() if not line.startswith("#")]
    assert body[1:5] == [
        "local: eth1",
        "path: 192.168.10.21",
        "local: bond0.101",
        "path: 192.168.11.21",
    ]


def test_single_instance_uses_the_host_address_without_interface(kb: KnowledgeBase) -> None:
    data = full_answers(kb, "current-linux-ontap")
    for path in data["handover"]["paths"]:
        del path["host_interface"]
    files = _files(kb, data)
    assert "local: 192.168.10.11\npath: 192.168.10.21\n" in files["oracle/oranfstab"]


def test_missing_answers_are_listed_with_question_and_file(kb: KnowledgeBase) -> None:
    data = full_answers(kb, "current-rac")
    del data["handover"]["svm"]
    data["handover"]["paths"][1].pop("filer_address")
    runbook = _files(kb, data)["RUNBOOK.md"].replace("\\[", "[").replace("\\]", "]")
    first_page = runbook.split("\n## ", 1)[0]
    listed = re.findall(r"^- \\<([a-z0-9-]+)\\>: (.*)$", first_page, flags=re.M)
    assert {name for name, _ in listed} == {"svm", "filer-ip-2"}
    line = dict(listed)
    assert line["svm"].startswith("SVM (vserver) name (handover.svm); in filer/commands.txt")
    assert line["filer-ip-2"].startswith(
        "filer address on storage path 2 (handover.paths[1].filer_address); in "
        "ansible/site.yml, ansible/vars/ansible_oracle_dnfs.yml, oracle/oranfstab"
    )


def test_every_placeholder_has_a_question(kb: KnowledgeBase) -> None:
    seen: set[str] = set()
    for preset in PRESETS:
        for path, text in _files(kb, kb.presets[preset].platform).items():
            seen |= set(PLACEHOLDER_RE.findall(_unescape(path, text)))
    seen -= {"<host-ip-n>", "<filer-ip-n>"}  # the oranfstab note's generic names
    assert seen, "the presets without answers must show placeholders"
    assert {p for p in seen if answer_for(p) is None} == set()


PATH0 = "handover.paths.0"
BAD_ANSWERS: list[tuple[dict[str, Any], str, str]] = [
    ({"client_subnet": "192.168.10.7/24"}, "handover.client_subnet", "host bits set"),
    ({"paths": [{"filer_address": "192.168.10.256"}]}, f"{PATH0}.filer_address", "IPv4"),
    ({"paths": [{"host_address": "192.168.10.11"}]}, f"{PATH0}.host_address", "prefix"),
    (
        {"paths": [{"host_address": "192.168.10.255/24"}]},
        f"{PATH0}.host_address",
        "broadcast",
    ),
    (
        {"paths": [{"host_interface": "eth1; reboot"}]},
        f"{PATH0}.host_interface",
        "interface",
    ),
    ({"svm": "svm prod"}, "handover.svm", "letters"),
    ({"aggregate": "$(id)"}, "handover.aggregate", "letters"),
    ({"cluster_nodes": ["a", "A"]}, "handover.cluster_nodes", "listed twice"),
    ({"oracle_uid": 0}, "handover.oracle_uid", "greater than or equal to 1"),
    ({"paths": [{}, {}, {}]}, "", "network.nic_count is 2"),
    ({"cluster_nodes": ["n1", "n2"]}, "", "only for RAC"),
    ({"capacity_pool": "p1"}, "", "cloud NAS vendors only"),
]


@pytest.mark.parametrize(("answers", "field", "message"), BAD_ANSWERS)
def test_bad_answers_are_refused_naming_the_field(
    kb: KnowledgeBase, answers: dict[str, Any], field: str, message: str
) -> None:
    data = {**kb.presets["current-linux-ontap"].platform, "handover": answers}
    with pytest.raises(ValidationError) as error:
        Platform.model_validate(data)
    first = error.value.errors()[0]
    assert ".".join(str(p) for p in first["loc"]) == field
    assert message in str(first["msg"])


def test_api_names_the_field(client: TestClient, kb: KnowledgeBase) -> None:
    data = full_answers(kb, "current-rac")
    data["handover"]["cluster_nodes"] = ["dbnode1"]
    response = client.post("/api/v1/plans", json=data)
    assert response.status_code == 422
    assert "handover.cluster_nodes" in response.text


def test_every_storage_interface_gets_the_mtu_and_loses_it_on_rollback(
    kb: KnowledgeBase,
) -> None:
    files = _files(kb, full_answers(kb, "current-rac"))  # jumbo frames, two paths
    network = files["host/network.sh"]
    assert "IF=eth1\n" in network and "IF=bond0.101\n" in network
    rollback = files["rollback/host_rollback.sh"]
    assert "while read -r IF MTU; do" in rollback
    verify = files["verify/verify_host.sh"]
    assert "IF=eth1\n" in verify and "IF=bond0.101\n" in verify


def test_two_downloads_are_byte_identical(kb: KnowledgeBase) -> None:
    from nasplan.renderers.bundle import render_bundle

    plan = _plan(kb, full_answers(kb, "current-rac"))
    assert render_bundle(plan) == render_bundle(_plan(kb, full_answers(kb, "current-rac")))

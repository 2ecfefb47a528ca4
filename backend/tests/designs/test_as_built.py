"""As built versus approved: a host's verify report, item by item, against a revision's plan."""

from __future__ import annotations

import os
import platform as host_platform
import subprocess
from pathlib import Path

from fastapi.testclient import TestClient

from nasplan.designs.as_built import compare_verify_report
from nasplan.domain.plan import Plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from nasplan.renderers.common import BundleMeta, facts
from nasplan.renderers.verify_host import host_expectations
from tests.renderers.matrix import preset_plan


def _expected(kb: KnowledgeBase) -> tuple[Plan, list[str]]:
    plan = preset_plan(kb, "current-linux-ontap")
    items = [e.item for e in host_expectations(facts(plan, BundleMeta())) if not e.unseen]
    return plan, items


def _unseen(plan: Plan) -> set[str]:
    return {e.item for e in host_expectations(facts(plan, BundleMeta())) if e.unseen}


def test_every_pass_line_is_verified(kb: KnowledgeBase) -> None:
    plan, items = _expected(kb)
    report = "# host: db01\n" + "".join(f"PASS {item}\n" for item in items) + "summary: ...\n"
    result = compare_verify_report(plan, report)
    assert result.host == "db01" and result.unreadable_lines == 0
    assert result.counts["verified"] == len(items) and result.counts["differs"] == 0


def test_a_fail_line_differs_and_a_silent_item_is_not_checked(kb: KnowledgeBase) -> None:
    plan, items = _expected(kb)
    mount_item = next(i for i in items if i.startswith("/u02/") and "rsize" in i)
    sysctl_item = next(i for i in items if i.startswith("net.core.rmem_max = "))
    report = [f"PASS {i}" for i in items if i not in (mount_item, sysctl_item, items[-1])]
    point, option = mount_item.split(": ", 1)
    report.append(f"FAIL {point}: {option} missing (shown: rw,rsize=65536)")
    report.append("FAIL net.core.rmem_max is 212992, planned 8388608 (LNX-TCP-BUFFERS-8M)")
    result = compare_verify_report(plan, "\n".join(report))
    status = {i.item: (i.status, i.found) for i in result.items}
    assert status[mount_item] == ("differs", f"{point}: {option} missing (shown: rw,rsize=65536)")
    assert status[sysctl_item][0] == "differs"
    assert status[items[-1]] == ("not_checked", None)


def test_a_missing_mount_makes_its_items_differ(kb: KnowledgeBase) -> None:
    plan, _ = _expected(kb)
    report = "FAIL /u02/oradata/PROD: no NFS mount found\n"
    result = compare_verify_report(plan, report)
    data = [
        i
        for i in result.items
        if i.item.startswith("/u02/oradata/PROD: ") and i.item not in _unseen(plan)
    ]
    assert data and all(i.status == "differs" and i.found == "no NFS mount found" for i in data)


def test_the_real_script_writes_a_report_that_reads_back(kb: KnowledgeBase, tmp_path: Path) -> None:
    plan = preset_plan(kb, "current-linux-ontap")
    for path, text in render_bundle_files(plan).items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    report = tmp_path / "as-built.txt"
    run = subprocess.run(
        ["sh", str(tmp_path / "verify/verify_host.sh"), "--report", str(report)],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": os.environ.get("PATH", "") + ":/usr/sbin:/sbin"},
        timeout=120,
        check=False,
    )
    assert run.returncode == 1  # this machine mounts no NFS: the mounts fail
    result = compare_verify_report(plan, report.read_text(encoding="utf-8"))
    assert result.host == host_platform.node()
    # Every item the script can see was reported one way or the other.
    unseen = _unseen(plan)
    silent = {i.item for i in result.items if i.status == "not_checked"}
    assert silent == unseen
    mounts = [i for i in result.items if i.item.startswith("/u0") and i.item not in unseen]
    assert mounts and all(i.status == "differs" for i in mounts)


def test_recording_as_built_needs_the_edit_token(
    designs_client: TestClient, kb: KnowledgeBase
) -> None:
    c = designs_client
    platform = kb.presets["current-linux-ontap"].platform
    created = c.post("/api/v1/designs", json={"name": "as built", "platform": platform}).json()
    design_id, edit = created["id"], created["edit_token"]
    _, items = _expected(kb)
    body = {"revision": 1, "report": "# host: db01\n" + f"PASS {items[0]}\n"}
    refused = c.post(f"/api/v1/designs/{design_id}/as-built", json=body)
    assert refused.status_code == 403
    wrong = c.post(
        f"/api/v1/designs/{design_id}/as-built", json=body, headers={"X-Edit-Token": "nope"}
    )
    assert wrong.status_code == 403
    assert c.get(f"/api/v1/designs/{design_id}/as-built").json()["items"] == []
    first = c.post(
        f"/api/v1/designs/{design_id}/as-built", json=body, headers={"X-Edit-Token": edit}
    )
    assert first.status_code == 201, first.text
    assert first.json()["host"] == "db01" and first.json()["counts"]["verified"] == 1
    body2 = {"revision": 1, "report": "# host: db02\n"}
    c.post(f"/api/v1/designs/{design_id}/as-built", json=body2, headers={"X-Edit-Token": edit})
    listed = c.get(f"/api/v1/designs/{design_id}/as-built").json()["items"]
    assert [x["host"] for x in listed] == ["db02", "db01"]
    assert all(x["revision"] == 1 for x in listed)
    missing = c.post(
        f"/api/v1/designs/{design_id}/as-built",
        json={"revision": 9, "report": "x"},
        headers={"X-Edit-Token": edit},
    )
    assert missing.status_code == 404
    assert (
        c.post(
            f"/api/v1/designs/{design_id}/as-built",
            json={"revision": 1, "report": ""},
            headers={"X-Edit-Token": edit},
        ).status_code
        == 422
    )


def test_a_minimum_met_by_a_larger_value_is_verified(kb: KnowledgeBase) -> None:
    """A minimum (LNX-ORACLE-PREINSTALL-NET) passes with the value in effect after it; a PASS
    line of another item that merely begins the same is not taken for it."""
    plan, items = _expected(kb)
    minimum = next(i for i in items if i.startswith("net.core.wmem_max = "))
    assert minimum == "net.core.wmem_max = 1048576 or more"
    report = [f"PASS {i}" for i in items if i != minimum]
    report.append(f"PASS {minimum} (now 8388608)")
    result = compare_verify_report(plan, "\n".join(report))
    assert result.counts["verified"] == len(items), result.items
    report[-1] = f"PASS {minimum}0 (now 10485760)"
    status = {i.item: i.status for i in compare_verify_report(plan, "\n".join(report)).items}
    assert status[minimum] == "not_checked"

"""GET /designs/{id}/diff/files: what changed in the files two revisions' downloads give."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nasplan.designs.file_diff import (
    MAX_FILE_LINES,
    MAX_LINE_CHARS,
    MAX_TOTAL_LINES,
    RevisionFiles,
    compare_files,
)
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings

API = "/api/v1/designs"
DSS = copy.deepcopy(EXAMPLE_PLATFORM)
DSS["oracle"]["workload"] = "dss"  # the data mount's rsize and wsize go from 32768 to 65536


@pytest.fixture(scope="module")
def api(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("files-diff") / "nasplan.db"
    settings = Settings(
        DATABASE_URL=f"sqlite:///{database}",
        NASPLAN_RATE_LIMIT_COMPUTE="",
        NASPLAN_PUBLIC_URL="https://nasplan.example",
    )
    with TestClient(create_app(settings, kb=kb)) as client:
        yield client


def _design(api: TestClient, *platforms: dict[str, Any]) -> dict[str, Any]:
    """A design with one revision per platform; the answer to its creation."""
    first, *rest = platforms
    created = api.post(API, json={"name": "PROD files", "platform": first})
    assert created.status_code == 201
    design: dict[str, Any] = created.json()
    for base, platform in enumerate(rest, start=1):
        revised = api.post(
            f"{API}/{design['id']}/revisions",
            json={"platform": platform, "base_revision": base},
            headers={"X-Edit-Token": design["edit_token"]},
        )
        assert revised.status_code == 201
    return design


def _files_diff(api: TestClient, design_id: str, base: int, head: int) -> dict[str, Any]:
    answer = api.get(f"{API}/{design_id}/diff/files", params={"from": base, "to": head})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _by_path(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["path"]: f for f in body["files"]}


def test_a_changed_mount_option_shows_in_the_mount_script(api: TestClient) -> None:
    design = _design(api, EXAMPLE_PLATFORM, DSS)
    body = _files_diff(api, design["id"], 1, 2)
    assert (body["from_revision"], body["to_revision"]) == (1, 2)
    mounts = _by_path(body)["host/mounts.sh"]
    assert mounts["status"] == "changed" and mounts["lines_left_out"] == 0
    lines = mounts["lines"]
    assert lines[:2] == ["--- revision 1/host/mounts.sh", "+++ revision 2/host/mounts.sh"]
    data = [line for line in lines if "/u02/oradata/PROD\tnfs" in line]
    assert [line[0] for line in data] == ["-", "+"]
    assert "rsize=32768,wsize=32768" in data[0] and "rsize=65536,wsize=65536" in data[1]
    assert any(line.startswith("@@ -") for line in lines)
    # The redo mount did not change: at most a line of context, never a change.
    assert not any(line[0] in "+-" and "/u03/oralog/PROD\tnfs" in line for line in lines[2:])
    # The revision stamps differ in every file but are no change.
    assert not any(line[0] in "+-" and "Revision: " in line for line in lines[2:])
    assert "host/mounts.sh" not in body["stamp_only"]
    assert {"filer/commands.txt", "host/network.sh"} <= set(body["stamp_only"])
    assert "filer/commands.txt" not in _by_path(body)


def test_identical_revisions_give_no_files(api: TestClient) -> None:
    design = _design(api, EXAMPLE_PLATFORM, EXAMPLE_PLATFORM)
    same = _files_diff(api, design["id"], 1, 2)
    assert same["files"] == []
    # Each file names its own revision and permalink: told apart, but not changed.
    assert "host/mounts.sh" in same["stamp_only"] and "plan.json" in same["stamp_only"]
    assert set(same["not_compared"]) >= {"README.md", "MANIFEST.sha256"}
    itself = _files_diff(api, design["id"], 2, 2)
    assert (itself["files"], itself["stamp_only"]) == ([], [])


def test_an_approved_revision_is_compared_as_its_stored_bundle(api: TestClient) -> None:
    design = _design(api, EXAMPLE_PLATFORM)
    approved = api.post(
        f"{API}/{design['id']}/reviews",
        json={"revision": 1, "reviewer": "Ann", "decision": "approve"},
        headers={"X-Review-Token": design["review_token"]},
    )
    assert approved.status_code == 201
    for platform, base in ((EXAMPLE_PLATFORM, 1), (DSS, 2)):
        revised = api.post(
            f"{API}/{design['id']}/revisions",
            json={"platform": platform, "base_revision": base},
            headers={"X-Edit-Token": design["edit_token"]},
        )
        assert revised.status_code == 201
    # Approved by Ann against not approved: a review status, not a change to run.
    assert _files_diff(api, design["id"], 1, 2)["files"] == []
    changed = _by_path(_files_diff(api, design["id"], 1, 3))
    assert any("rsize=65536" in line for line in changed["host/mounts.sh"]["lines"])
    assert not any("Approved by" in line for f in changed.values() for line in f["lines"])


def test_unknown_design_or_revision_is_404(api: TestClient) -> None:
    design = _design(api, EXAMPLE_PLATFORM)
    unknown = api.get(f"{API}/NoSuchDesign0000000000/diff/files", params={"from": 1, "to": 1})
    assert unknown.status_code == 404
    missing = api.get(f"{API}/{design['id']}/diff/files", params={"from": 1, "to": 9})
    assert missing.status_code == 404
    assert "revision 9" in missing.json()["detail"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"from": 0, "to": 1}, "from"),
        ({"from": 1, "to": "two"}, "to"),
        ({"from": 1}, "to"),
        ({"from": 1, "to": 2**31}, "to"),
    ],
)
def test_bad_revision_numbers_are_422_naming_the_field(
    api: TestClient, params: dict[str, Any], field: str
) -> None:
    design = _design(api, EXAMPLE_PLATFORM)
    answer = api.get(f"{API}/{design['id']}/diff/files", params=params)
    assert answer.status_code == 422
    assert [item["loc"] for item in answer.json()["detail"]] == [["query", field]]


def _files(number: int, files: dict[str, str]) -> RevisionFiles:
    return RevisionFiles(number=number, files=files, digest="0" * 64, permalink=None)


def test_long_diffs_are_cut_and_say_so() -> None:
    long_line = "x" * (MAX_LINE_CHARS + 50)
    old = _files(1, {"a.txt": "\n".join(f"a{n}" for n in range(1000)), "b.txt": "same\n"})
    new = _files(2, {"a.txt": "\n".join(f"b{n}" for n in range(1000)), "b.txt": long_line})
    found = {f.path: f for f in compare_files(old, new).changed}
    whole_a = 3 + 2 * 1000  # ---, +++, one @@ line, every line removed and added
    assert len(found["a.txt"].lines) == MAX_FILE_LINES
    assert found["a.txt"].lines_left_out == whole_a - MAX_FILE_LINES
    assert found["b.txt"].lines_left_out == 0
    cut = found["b.txt"].lines[-1]
    assert len(cut) == MAX_LINE_CHARS and cut.endswith("…") and cut.startswith("+xxx")


def test_the_total_is_bounded_and_every_changed_file_is_still_named() -> None:
    count = MAX_TOTAL_LINES // MAX_FILE_LINES + 3
    paths = [f"f{n:02}.txt" for n in range(count)]
    old = _files(1, {path: "\n".join("old" for _ in range(500)) for path in paths})
    new = _files(2, {path: "\n".join("new" for _ in range(500)) for path in paths})
    found = compare_files(old, new).changed
    assert [f.path for f in found] == paths
    assert sum(len(f.lines) for f in found) == MAX_TOTAL_LINES
    assert found[-1].lines == [] and found[-1].lines_left_out == 3 + 2 * 500


def test_added_and_removed_files() -> None:
    old = _files(1, {"gone.sh": "echo old\n", "README.md": "index 1\n"})
    new = _files(2, {"new.sh": "echo new\n", "README.md": "index 2\n"})
    comparison = compare_files(old, new)
    found = {f.path: (f.status, f.lines[2:]) for f in comparison.changed}
    assert found == {
        "gone.sh": ("removed", ["@@ -1 +0,0 @@", "-echo old"]),
        "new.sh": ("added", ["@@ -0,0 +1 @@", "+echo new"]),
    }
    assert comparison.not_compared == ["README.md"]

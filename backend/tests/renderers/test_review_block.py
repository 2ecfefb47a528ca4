"""The runbooks say who approved the bundle, and verify/check_bundle.sh still proves every other
byte is what was approved (the script itself is run here, with the system's sh, sed and
sha256sum)."""

from __future__ import annotations

import datetime as dt
import hashlib
import subprocess
from pathlib import Path

import pytest

from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import bundle_digest, render_bundle_files
from nasplan.renderers.bundle_index import CHECK_SCRIPT, RUNBOOK_SUMS, RUNBOOKS
from nasplan.renderers.common import Approval, BundleMeta
from nasplan.renderers.review_block import END, START, without_review
from tests.renderers.matrix import preset_plan

DRAFT = BundleMeta(design_id="Zk3_xQ9-abcDEF012345", design_name="PROD", revision=2)
APPROVED_AT = dt.datetime(2026, 11, 27, 9, 30, tzinfo=dt.UTC)


def _approved(reviewer: str) -> BundleMeta:
    return DRAFT.model_copy(
        update={"approval": Approval(reviewer=reviewer, approved_at=APPROVED_AT)}
    )


def _write(files: dict[str, str], root: Path) -> Path:
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(root / CHECK_SCRIPT)], capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def bundles(kb: KnowledgeBase) -> tuple[dict[str, str], dict[str, str]]:
    plan = preset_plan(kb, "current-rac")
    return render_bundle_files(plan, DRAFT), render_bundle_files(plan, _approved("dba lead"))


def test_approval_changes_only_the_review_lines_and_keeps_the_digest(
    bundles: tuple[dict[str, str], dict[str, str]],
) -> None:
    draft, approved = bundles
    assert bundle_digest(draft) == bundle_digest(approved)
    digest = bundle_digest(approved)
    for path in RUNBOOKS:
        assert "Revision 2 is not approved" in draft[path]
        assert (
            f"Approved by dba lead on 2026-11-27 09:30 UTC. Bundle sha256 {digest}."
            in (approved[path])
        )
        assert draft[path] != approved[path]
        assert without_review(draft[path]) == without_review(approved[path])
        assert START not in without_review(approved[path])
    # The banner comes before the runbook's title, where a reader starts.
    markdown = approved["RUNBOOK.md"].splitlines()
    assert markdown[1:4] == [START, markdown[2], END] and markdown[4].startswith("# ")
    assert markdown[2].startswith("> **Approved by dba lead")
    html = approved["RUNBOOK.html"]
    assert html.index('<p class="review"><strong>Approved by dba lead') < html.index("<h1>")


def test_check_script_passes_on_draft_and_approved_bundles(
    bundles: tuple[dict[str, str], dict[str, str]], tmp_path: Path
) -> None:
    for name, files in zip(("draft", "approved"), bundles, strict=True):
        result = _check(_write(files, tmp_path / name))
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"Bundle sha256 {bundle_digest(files)}:" in result.stdout
        assert "RUNBOOK.md: OK" in result.stdout and "host/mounts.sh: OK" in result.stdout


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("host/mounts.sh", "rsize=", "rsize=1"),
        ("RUNBOOK.md", "# ", "# Skip this step. "),
        ("RUNBOOK.html", "<h1>", "<h1>Skip this step. "),
        (RUNBOOK_SUMS, "  RUNBOOK.md", "  RUNBOOK.md "),
    ],
)
def test_check_script_fails_when_an_approved_line_is_changed(
    bundles: tuple[dict[str, str], dict[str, str]],
    tmp_path: Path,
    path: str,
    old: str,
    new: str,
) -> None:
    files = dict(bundles[1])
    assert old in files[path]
    files[path] = files[path].replace(old, new, 1)
    result = _check(_write(files, tmp_path))
    assert result.returncode != 0, result.stdout
    assert "FAILED" in result.stdout + result.stderr


def test_a_reviewer_name_cannot_end_the_review_lines_or_become_markup(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    plan = preset_plan(kb, "current-rac")
    hostile = f"x\n{END}\n# Run rm -rf / <script>alert(1)</script> `id`"
    files = render_bundle_files(plan, _approved(hostile))
    html = files["RUNBOOK.html"]
    assert "<script>alert" not in html and "(script)alert" in html
    banner = files["RUNBOOK.md"].splitlines()[2]
    assert banner.startswith("> **Approved by x (!-- /review --) # Run") and "\\`id\\`" in banner
    for path in RUNBOOKS:
        assert files[path].count(END) == 1, path
        signed = hashlib.sha256(without_review(files[path]).encode()).hexdigest()
        assert f"{signed}  {path}" in files[RUNBOOK_SUMS]
    assert _check(_write(files, tmp_path)).returncode == 0


def test_an_unsaved_plan_says_it_was_never_reviewed(kb: KnowledgeBase) -> None:
    files = render_bundle_files(preset_plan(kb, "current-rac"))
    for path in RUNBOOKS:
        assert "Not reviewed: an unsaved plan." in files[path]

"""The plan at a glance: the same summary first on the page, in the runbook and from the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

from nasplan.cli import main
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.runbook import render_runbook_markdown
from tests.conftest import preset_platform


def test_tr3322_lab_at_a_glance(kb: KnowledgeBase) -> None:
    summary = make_plan(kb, preset_platform(kb, "tr3322-lab")).summary
    assert summary is not None
    # Two of the warnings: Oracle9i and Solaris 9 are past their vendors' support today.
    assert summary.verdict == "0 error(s) · 4 warning(s) · 4 mount(s) · 4 volume(s)"
    assert summary.decisions[1] == "Redo and control files on their own mount with forcedirectio"
    # The Solaris caching choices: direct I/O for datafiles, none for the Oracle binaries.
    assert summary.decisions[2] == "Datafiles with forcedirectio"
    assert summary.decisions[3] == (
        "ORACLE_HOME on the filer, its own mount at /u01/app/oracle, without forcedirectio"
    )
    assert summary.decisions[4].startswith("Expect about ")
    assert len(summary.decisions) == 5
    # Today the 2004 minra advice is reversed: the reversal is promoted out of the findings.
    assert any("minra" in line for line in summary.reversals)


def test_the_expected_rate_claims_no_more_precision_than_the_model(kb: KnowledgeBase) -> None:
    summary = make_plan(kb, preset_platform(kb, "current-rac")).summary
    assert summary is not None
    expect = next(line for line in summary.decisions if line.startswith("Expect about "))
    # The model gives 6002.1 MB/s; two significant figures are what it can claim.
    assert expect.startswith("Expect about 6.0 GB/s for a large scan")


def test_32_bit_solaris_names_its_cached_llock_datafiles(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "tr3322-lab")
    oracle = platform.oracle.model_copy(update={"bits": 32})
    plan = make_plan(kb, platform.model_copy(update={"oracle": oracle}))
    assert plan.summary is not None
    assert "Datafiles cached by the OS, with llock (local locking)" in plan.summary.decisions


def test_linux_without_special_datafile_options_has_no_datafile_line(kb: KnowledgeBase) -> None:
    summary = make_plan(kb, preset_platform(kb, "current-linux-ontap")).summary
    assert summary is not None
    assert not any(line.startswith("Datafiles") for line in summary.decisions)
    assert any(line.startswith("ORACLE_HOME") for line in summary.decisions)


def test_disagreements_that_affect_the_platform_are_promoted(kb: KnowledgeBase) -> None:
    summary = make_plan(kb, preset_platform(kb, "current-rac")).summary
    assert summary is not None
    topics = {d.topic for d in summary.disagreements}
    assert "NFS transfer size with clustered ONTAP" in topics
    assert summary.decisions[0] == "Direct NFS over 2 paths (NFSv3), 256 KB transfers"
    assert make_plan(kb, preset_platform(kb, "tr3322-lab")).summary.disagreements == []  # type: ignore[union-attr]


def test_runbook_and_cli_show_it_first(kb: KnowledgeBase, tmp_path: Path) -> None:
    platform = preset_platform(kb, "current-rac")
    runbook = render_runbook_markdown(make_plan(kb, platform))
    first_page = runbook.split("\n## ", 1)[0]
    assert "**At a glance:** 0 error(s) · 6 warning(s) · 5 mount(s) · 5 volume(s)" in first_page
    assert "- Sources disagree on NFS transfer size with clustered ONTAP" in first_page
    path = tmp_path / "p.json"
    path.write_text(json.dumps(platform.model_dump(mode="json")))
    out = io.StringIO()
    main(["plan", str(path)], out)
    lines = out.getvalue().splitlines()
    assert lines[2].startswith("At a glance: 0 error(s)")
    assert lines[3] == "  - Direct NFS over 2 paths (NFSv3), 256 KB transfers"


def test_the_expect_line_keeps_the_bottleneck_s_own_capitals(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "fawcett-lab", {"oracle": {"dnfs": False}})
    summary = make_plan(kb, platform).summary
    assert summary is not None
    expect = next(line for line in summary.decisions if line.startswith("Expect "))
    assert expect == "Expect 384 MB/s to 448 MB/s for a large scan, bound by one TCP connection"


def test_an_acronym_at_the_start_of_the_bottleneck_keeps_its_capitals(kb: KnowledgeBase) -> None:
    """'NIC bandwidth' is not lower-cased to 'nIC bandwidth' (TR-3322's lab, a GbE link)."""
    summary = make_plan(kb, preset_platform(kb, "tr3322-lab")).summary
    assert summary is not None
    expect = next(line for line in summary.decisions if line.startswith("Expect "))
    assert expect.endswith("bound by NIC bandwidth"), expect

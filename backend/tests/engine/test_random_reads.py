"""Random 8 KB reads and the host's CPU in the expectations (issue 22)."""

from __future__ import annotations

import pytest

from nasplan.domain.figures import count_words, random_reads_words
from nasplan.engine.calibration import calibrate
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import preset_platform


def test_fawcett_s_90k_reads_are_within_the_modelled_ceiling(kb: KnowledgeBase) -> None:
    """Fawcett reached about 90K 8 KB reads a second with Direct NFS on one 10GbE link, with
    bandwidth left: the link's ceiling in 8 KB reads must be above that, and the model must not
    claim to predict the figure (the calibration point says it is a ceiling)."""
    e = make_plan(kb, preset_platform(kb, "fawcett-lab")).expectations
    assert e.random_8k_reads_ceiling is not None
    # 1,177 MB/s of payload on 10GbE at MTU 1500, over 8,324 bytes per read reply.
    assert e.random_8k_reads_ceiling == pytest.approx(1177e6 / 8324, rel=0.01)
    assert e.random_8k_reads_ceiling > 90_000
    row = next(r for r in calibrate(kb) if r.point.id == "fawcett-dnfs-random-8k")
    assert row.point.source.id == "fawcett-dnfs"
    assert not row.point.reached and row.ratio is not None and row.ratio > 1


def test_a_kernel_client_carries_fewer_random_reads_than_direct_nfs(kb: KnowledgeBase) -> None:
    dnfs = make_plan(kb, preset_platform(kb, "fawcett-lab")).expectations
    knfs = make_plan(kb, preset_platform(kb, "fawcett-lab", {"oracle": {"dnfs": False}}))
    k = knfs.expectations
    assert dnfs.random_8k_reads_ceiling is not None and k.random_8k_reads_ceiling is not None
    # One TCP connection, about 416 MB/s: about 50,000 reads of 8,324 bytes a second.
    assert k.random_8k_reads_ceiling == pytest.approx(415.75e6 / 8324, rel=0.01)
    assert k.random_8k_reads_ceiling < dnfs.random_8k_reads_ceiling
    # The time per read is the same network and stack either way.
    assert k.random_8k_reads_per_read_in_flight == dnfs.random_8k_reads_per_read_in_flight


def test_reads_per_read_in_flight_follow_the_8k_overhead(kb: KnowledgeBase) -> None:
    e = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode")).expectations
    assert e.random_8k_reads_per_read_in_flight == pytest.approx(1e6 / e.nfs_overhead_8k_us, abs=10)
    ceiling, to_fill = e.random_8k_reads_ceiling, e.random_8k_reads_in_flight_to_fill
    each = e.random_8k_reads_per_read_in_flight
    assert ceiling is not None and to_fill is not None and each is not None
    assert to_fill * each >= ceiling > (to_fill - 1) * each


def test_a_client_no_source_measured_gets_no_ceiling(kb: KnowledgeBase) -> None:
    e = make_plan(kb, preset_platform(kb, "example-aix")).expectations
    assert e.planned_scan_mb_s is None
    assert e.random_8k_reads_ceiling is None and e.random_8k_reads_in_flight_to_fill is None
    assert e.random_8k_reads_per_read_in_flight is not None
    words = random_reads_words(None, e.random_8k_reads_per_read_in_flight, None)
    assert "no source measured this client's ceiling" in words


def test_a_cloud_service_level_caps_random_reads_too(kb: KnowledgeBase) -> None:
    e = make_plan(kb, preset_platform(kb, "current-anf")).expectations
    assert e.service_ceiling_mb_s is not None and e.random_8k_reads_ceiling is not None
    assert e.random_8k_reads_ceiling == pytest.approx(e.service_ceiling_mb_s * 1e6 / 8324, rel=0.01)


def test_the_cpu_note_cites_what_was_measured_for_the_client(kb: KnowledgeBase) -> None:
    linux_knfs = make_plan(kb, preset_platform(kb, "example-linux-knfs-7mode")).expectations
    dnfs = make_plan(kb, preset_platform(kb, "fawcett-lab")).expectations
    solaris_knfs = make_plan(
        kb, preset_platform(kb, "fawcett-lab", {"oracle": {"dnfs": False}})
    ).expectations
    assert linux_knfs.client_cpu_note and "22%" in linux_knfs.client_cpu_note
    assert solaris_knfs.client_cpu_note and "22%" not in solaris_knfs.client_cpu_note
    assert dnfs.client_cpu_note and dnfs.client_cpu_note.startswith("Direct NFS spends less")
    for note in (linux_knfs.client_cpu_note, solaris_knfs.client_cpu_note, dnfs.client_cpu_note):
        assert "after 32 users" in note


@pytest.mark.parametrize(
    ("count", "words"),
    [(141_400, "140,000"), (49_900, "50,000"), (3_370, "3,400"), (145_000, "150,000"), (42, "42")],
)
def test_counts_are_rounded_to_what_the_model_can_claim(count: float, words: str) -> None:
    assert count_words(count) == words


def test_a_link_faster_than_any_measured_says_its_ceiling_is_the_framing_bound(
    kb: KnowledgeBase,
) -> None:
    """Issue 22: 99% of a 25GbE jumbo link is the framing bound; the sources measured 97-100%
    of it on GbE (Closson) and 97% on 10GbE (Fawcett), nothing faster."""
    fast = make_plan(kb, preset_platform(kb, "current-linux-ontap")).expectations
    note = next(a for a in fast.assumptions if "payload ceiling" in a)
    assert "3.1 GB/s here, MTU 9000" in note
    assert "114 to 118 MB/s on GbE" in note and "1,140 MB/s on 10GbE against 1,177 MB/s" in note
    assert "no source measured a faster link" in note
    measured = make_plan(kb, preset_platform(kb, "fawcett-lab")).expectations
    assert not any("payload ceiling" in a for a in measured.assumptions)

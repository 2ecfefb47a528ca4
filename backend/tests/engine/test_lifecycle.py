"""Support lifecycle and certification (knowledge/lifecycle.yaml) judged on the plan's date.

Every case names its date: what is supported changes with the calendar, the tests must not.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from nasplan.domain.plan import Finding
from nasplan.engine.lifecycle import judge_release
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.lifecycle import LifecycleCatalog, PartialDate, lifecycle_problems
from tests.conftest import preset_platform

LIFECYCLE = "COMPAT-VENDOR-LIFECYCLE"
CERTIFIED = "COMPAT-ORACLE-OS-CERTIFIED"
DAY = dt.date(2026, 11, 26)


def _findings(
    kb: KnowledgeBase, preset: str, as_of: dt.date, patch: dict[str, Any] | None = None
) -> list[Finding]:
    plan = make_plan(kb, preset_platform(kb, preset, patch or {}, as_of=as_of), DAY)
    return [f for f in plan.findings if f.rule in (LIFECYCLE, CERTIFIED)]


def _about(findings: list[Finding], words: str) -> Finding:
    hits = [f for f in findings if words in f.message]
    assert len(hits) == 1, [f.message for f in findings]
    return hits[0]


def test_a_stack_past_support_on_the_plan_date_gets_warnings(kb: KnowledgeBase) -> None:
    # Solaris 9, Oracle9i and Data ONTAP 7.0 planned on 2026-11-26 (the example).
    found = _findings(kb, "tr3322-lab", DAY)
    oracle = _about(found, "Oracle9i Release 2")
    assert oracle.severity == "warning"
    assert "Extended Support (July 2010)" in oracle.message
    assert "Oracle Lifetime Support Policy" in oracle.message
    solaris = _about(found, "Solaris 9")
    assert solaris.severity == "warning"
    assert "October 2014" in solaris.message and "(secondary)" in solaris.message
    # The table holds no Data ONTAP 7-mode dates, so the filer is not judged.
    assert len(found) == 2


def test_the_same_stack_in_its_own_time_is_supported(kb: KnowledgeBase) -> None:
    assert _findings(kb, "tr3322-lab", dt.date(2005, 6, 1)) == []


def test_inside_paid_extended_support_is_a_note(kb: KnowledgeBase) -> None:
    found = _findings(kb, "tr3322-lab", dt.date(2008, 6, 1))
    note = _about(found, "Oracle9i Release 2")
    assert note.severity == "info"
    assert "Premier Support after July 2007" in note.message
    assert "Extended Support only, until July 2010" in note.message


@pytest.mark.parametrize(
    ("as_of", "expected"),
    [
        (dt.date(2029, 12, 31), None),  # a month-only end counts to its last day
        (dt.date(2030, 1, 1), "info"),
        (dt.date(2032, 12, 31), "info"),
        (dt.date(2033, 1, 1), "warning"),
    ],
)
def test_boundaries_of_19c_support(kb: KnowledgeBase, as_of: dt.date, expected: str | None) -> None:
    # A plan cannot be dated in the future, so the judgement is asked for directly.
    entry = next(e for e in kb.lifecycle.releases if e.label == "Oracle Database 19c")
    judged = judge_release(kb, entry, as_of)
    assert (judged[0] if judged else None) == expected


def test_time_travel_before_the_releases_existed_is_an_error(kb: KnowledgeBase) -> None:
    found = _findings(kb, "current-rac", dt.date(2007, 6, 1))
    for label, released in (
        ("Oracle Database 19c", "on 25 April 2019"),
        ("Red Hat Enterprise Linux 9", "on 18 May 2022"),
        ("ONTAP 9.14.1", "in January 2024"),
    ):
        finding = _about(found, label)
        assert finding.severity == "error"
        assert f"first released {released}; on 2007-06-01 it did not exist yet" in (finding.message)


def test_a_release_month_counts_from_its_first_day(kb: KnowledgeBase) -> None:
    before = _findings(kb, "current-linux-ontap", dt.date(2023, 12, 31))
    assert _about(before, "ONTAP 9.14.1").severity == "error"
    on_time = _findings(kb, "current-linux-ontap", dt.date(2024, 1, 1))
    assert [f for f in on_time if "ONTAP" in f.message] == []


def test_a_current_stack_today_has_nothing_to_say(kb: KnowledgeBase) -> None:
    assert _findings(kb, "current-linux-ontap", DAY) == []


def test_hp_ux_past_standard_support(kb: KnowledgeBase) -> None:
    found = _findings(kb, "example-hpux", DAY)
    assert _about(found, "HP-UX 11i v3").severity == "warning"


def test_19c_on_an_os_its_guide_does_not_list_is_an_error(kb: KnowledgeBase) -> None:
    found = _findings(kb, "current-linux-ontap", DAY, {"host": {"os_version": "rhel6"}})
    error = _about(found, "not certified on Red Hat Enterprise Linux 6")
    assert error.severity == "error" and error.rule == CERTIFIED
    assert "Oracle Linux 7, 8 and 9" in error.message


@pytest.mark.parametrize(("version", "refused"), [("19.18", True), ("19.19", False)])
def test_19c_on_red_hat_9_from_19_19(kb: KnowledgeBase, version: str, refused: bool) -> None:
    found = _findings(kb, "current-rac", DAY, {"oracle": {"version": version}})
    errors = [f for f in found if f.rule == CERTIFIED]
    assert bool(errors) is refused
    if refused:
        assert "from 19.19 on; 19.18 is older" in errors[0].message


def test_19c_on_solaris_10_is_an_error(kb: KnowledgeBase) -> None:
    found = _findings(
        kb, "fawcett-lab", DAY, {"oracle": {"version": "19.21"}, "host": {"os_version": "10u8"}}
    )
    assert _about(found, "not certified on Solaris 10").severity == "error"


def test_no_list_no_judgement(kb: KnowledgeBase) -> None:
    # 11.2.0.4 on Oracle Linux 6: no closed list was read for 11.2, so no certification finding.
    found = _findings(kb, "example-linux-knfs-7mode", dt.date(2014, 1, 1))
    assert [f for f in found if f.rule == CERTIFIED] == []


@pytest.mark.parametrize(
    ("text", "earliest", "latest", "shown"),
    [
        ("2007", dt.date(2007, 1, 1), dt.date(2007, 12, 31), "2007"),
        ("2024-02", dt.date(2024, 2, 1), dt.date(2024, 2, 29), "February 2024"),
        ("2020-11-30", dt.date(2020, 11, 30), dt.date(2020, 11, 30), "30 November 2020"),
    ],
)
def test_partial_dates(text: str, earliest: dt.date, latest: dt.date, shown: str) -> None:
    date = PartialDate(text=text)
    assert (date.earliest, date.latest, str(date)) == (earliest, latest, shown)


@pytest.mark.parametrize("text", ["07-2007", "2007-13", "2007-02-30", "soon"])
def test_bad_partial_dates_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="date"):
        PartialDate(text=text)


def test_unknown_ids_in_the_table_are_named() -> None:
    catalog = LifecycleCatalog.model_validate(
        {
            "releases": [
                {
                    "product": "os",
                    "os": "linux",
                    "os_releases": ["rhel99"],
                    "label": "RHEL 99",
                    "vendor": "Red Hat",
                    "available": "2099",
                    "confidence": "secondary",
                    "sources": [{"id": "eold-rhel", "locator": "none"}],
                }
            ],
            "certification": [],
        }
    )
    problems = lifecycle_problems(catalog, {"linux": {"rhel9"}}, {"ontap_cluster"})
    assert problems == ["knowledge/lifecycle.yaml: RHEL 99: unknown linux release rhel99"]

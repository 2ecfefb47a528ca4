"""Golden plans for the sources' own lab platforms: the settings they used, or why we differ."""

from __future__ import annotations

import datetime as dt

from nasplan.domain.plan import Plan
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import TODAY, preset_platform

TR3322_SI = {
    "rw",
    "bg",
    "vers=3",
    "proto=tcp",
    "hard",
    "intr",
    "rsize=32768",
    "wsize=32768",
    "forcedirectio",
}
TR3496_NFS = {
    "rw",
    "rsize=32768",
    "wsize=32768",
    "vers=3",
    "forcedirectio",
    "bg",
    "hard",
    "intr",
    "proto=tcp",
}


def _mount(plan: Plan, role: str) -> set[str]:
    return set(next(m for m in plan.mounts if role in m.serves).options)


def _setting(plan: Plan, key: str) -> str:
    return next(s.value for s in plan.settings if s.key == key)


def test_tr3322_as_published_in_2004(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "tr3322-lab", as_of=dt.date(2004, 6, 1)), TODAY)
    for role in ("data", "redo", "archive"):
        assert _mount(plan, role) == TR3322_SI
    assert _mount(plan, "oracle_home") == TR3322_SI - {"forcedirectio"}
    assert _setting(plan, "minra") == "on"
    assert _setting(plan, "tcp_xmit_hiwat") == "65536"
    assert _setting(plan, "tcp_recv_hiwat") == "65536"
    assert _setting(plan, "nfs.tcp.xfersize") == "65536"
    assert _setting(plan, "nfs.tcp.recvwindowsize") == "65536"
    assert _setting(plan, "_enable_listio") == "TRUE"
    assert _setting(plan, "ce:ce_taskq_disable") == "1"
    assert _setting(plan, "accept-jumbo") == "1"


def test_tr3322_rac_adds_noac(kb: KnowledgeBase) -> None:
    platform = preset_platform(
        kb, "tr3322-lab", {"oracle": {"rac": True, "rac_nodes": 2}}, dt.date(2004, 6, 1)
    )
    plan = make_plan(kb, platform, TODAY)
    assert _mount(plan, "data") == TR3322_SI | {"noac"}


def test_tr3322_today_differs_with_reasons(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "tr3322-lab"), TODAY)
    data = _mount(plan, "data")
    assert data == (TR3322_SI - {"intr"}) | {"nointr", "suid"}
    assert _setting(plan, "minra") == "off"
    replaced = {s.rule: s for s in plan.superseded}
    assert replaced["NTAP-MINRA-ON-OLTP"].by == ["NTAP-MINRA-OFF"]
    assert replaced["MNT-INTR-2004"].by == ["MNT-NOINTR"]
    assert any(
        f.rule == "NTAP-MINRA-OFF" and "NTAP-MINRA-ON-OLTP" in f.related_rules
        for f in plan.findings
    )


def test_tr3496_lab_settings(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "tr3496-lab", as_of=dt.date(2007, 1, 1)), TODAY)
    assert _mount(plan, "data") == TR3496_NFS
    assert _mount(plan, "redo") == TR3496_NFS
    for key, value in {
        "nvfail": "on",
        "nfs.v3.enable": "on",
        "nfs.tcp.enable": "on",
        "nfs.tcp.xfersize": "65536",
        "nfs.tcp.recvwindowsize": "65536",
        "filesystemio_options": "setall",
        "_kgl_large_heap_warning_threshold": "4194304",
    }.items():
        assert _setting(plan, key) == value, key
    # The lab's own kernel and database values are reported as what it used, never applied.
    lab = " ".join(f.message for f in plan.findings if "TR-3496 lab used" in f.message)
    for fact in (
        "nfs:nfs3_max_threads=64",
        "rlim_fd_cur=1024",
        "sq_max_size=100",
        "65535-byte tcp_xmit_hiwat",
        "db_writer_processes=4",
    ):
        assert fact in lab, fact
    assert not {"db_writer_processes", "rlim_fd_cur", "tcp_xmit_hiwat"} & {
        s.key for s in plan.settings
    }
    volumes = {v.role: v.holds for v in plan.volumes}
    assert volumes["data"] == ["data"]
    assert volumes["redo"] == ["redo", "control"]


def test_fawcett_lab_settings(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "fawcett-lab", as_of=dt.date(2010, 1, 1)), TODAY)
    for key, value in {
        "tcp_recv_hiwat": "400000",
        "tcp_xmit_hiwat": "400000",
        "tcp_max_buf": "2097152",
        "tcp_cwnd_max": "2097152",
        "dnfs": "on",
    }.items():
        assert _setting(plan, key) == value, key
    assert not [f for f in plan.findings if f.severity == "error"]
    assert "DNFS-MOUNT-TUNING-MOOT" in plan.applied_rules
    assert plan.expectations.serial_client is False


def test_minra_flips_between_2005_and_2009(kb: KnowledgeBase) -> None:
    values = {
        year: _setting(
            make_plan(kb, preset_platform(kb, "tr3322-lab", as_of=dt.date(year, 6, 1)), TODAY),
            "minra",
        )
        for year in (2005, 2008, 2009, 2026)
    }
    assert values == {2005: "on", 2008: "on", 2009: "off", 2026: "off"}


def test_minra_reversal_stops_at_ontap_651(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "tr3322-e4500"), TODAY)
    assert _setting(plan, "minra") == "on"
    assert "NTAP-MINRA-PRE-651" in plan.applied_rules

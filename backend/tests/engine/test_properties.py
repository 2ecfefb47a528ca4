"""Property-based: over the whole platform space, every plan is consistent and traced."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nasplan.domain.platform import FSX_THROUGHPUTS, SERVICE_LEVELS, Platform
from nasplan.engine.planner import plan_with_diagnostics
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import load_knowledge

KB = load_knowledge()
TODAY = dt.date(2026, 11, 22)


def _cloud(draw: st.DrawFn, vendor: str) -> dict[str, Any]:
    """Cloud NAS vendors need a service level and a provisioned capacity (FSx for ONTAP: a
    throughput capacity)."""
    if vendor == "aws_fsxn":
        return {"throughput_mb_s": draw(st.sampled_from(FSX_THROUGHPUTS))}
    levels = SERVICE_LEVELS.get(vendor)
    if levels is None:
        return {}
    return {
        "service_level": draw(st.sampled_from(levels)),
        "capacity_tib": draw(st.sampled_from([1, 4, 16, 100])),
    }


def _filer_release(vendor: str) -> st.SearchStrategy[str | None]:
    entry = KB.filers.vendors[vendor]  # type: ignore[index]
    known = [r for f in entry.families for r in f.known]
    if not known:
        return st.none()
    return st.sampled_from(known) if entry.release_required else st.none() | st.sampled_from(known)


@st.composite
def platforms(draw: st.DrawFn) -> dict[str, Any]:
    os_name = draw(st.sampled_from(sorted(KB.os)))
    os_entry = KB.os[os_name]
    vendor = draw(st.sampled_from(sorted(KB.filers.vendors)))
    rac = draw(st.booleans())
    oracle_version = draw(
        st.sampled_from(
            [
                "8.1.7",
                "9.2.0.4",
                "10.1.0.5",
                "10.2.0.1",
                "10.2.0.4",
                "11.1.0.7",
                "11.2.0.4",
                "12.1.0.2",
                "12.2.0.1",
                "18.3",
                "19.21",
                "21.3",
                "23.5",
            ]
        )
    )
    return {
        "host": {
            "os": os_name,
            "os_version": draw(st.sampled_from([r.id for r in os_entry.releases])),
            "arch": draw(st.sampled_from(["sparc", "x86_64", "power", "ia64"])),
            "memory_gb": draw(st.none() | st.integers(1, 4096)),
            "nic_interface": draw(
                st.none() | st.sampled_from(["ce0", "ge1", "eth1", "en0", "e1000g0"])
            ),
        },
        "network": {
            "nic_gbps": draw(st.sampled_from([1, 10, 25, 40, 100])),
            "nic_count": draw(st.integers(1, 6)),
            "jumbo_frames": draw(st.booleans()),
            "switch": draw(st.sampled_from(["store_and_forward", "cut_through", "hub"])),
            "switch_hops": draw(st.integers(0, 4)),
            "router_hops": draw(st.integers(0, 3)),
            "dedicated_storage_network": draw(st.booleans()),
            "rtt_us": draw(st.none() | st.floats(50, 20000)),
        },
        "oracle": {
            "version": oracle_version,
            "bits": draw(st.sampled_from([32, 64])),
            "rac": rac,
            "rac_nodes": draw(st.integers(2, 8)) if rac else None,
            "dnfs": draw(st.booleans()),
            "nfs_version": draw(st.sampled_from(["3", "4.1"])),
            "archivelog": draw(st.booleans()),
            "workload": draw(st.sampled_from(["oltp", "dss", "mixed"])),
            "instances": draw(st.integers(1, 4)),
        },
        "filer": {
            "vendor": vendor,
            "os_version": draw(_filer_release(vendor)),
            **_cloud(draw, vendor),
        },
        "layout": {
            "oracle_home": draw(st.sampled_from(["nas", "local"])),
            "filer_host": "filer01",
            "db_name": "PROD",
            "volumes": draw(st.sampled_from(["separate", "shared"])),
        },
        "as_of": draw(st.dates(dt.date(2003, 1, 1), TODAY)).isoformat(),
    }


def _check(kb: KnowledgeBase, data: dict[str, Any]) -> None:
    result = plan_with_diagnostics(kb, Platform.model_validate(data), TODAY)
    plan = result.plan
    assert result.undeclared == [], result.undeclared
    applied = set(plan.applied_rules)
    vocabulary = kb.option_index
    os_name = plan.platform.host.os

    roles = {r for m in plan.mounts for r in m.serves}
    assert {"data", "redo", "control", "archive"} <= roles or plan.as_of < dt.date(2004, 5, 1)
    assert ("oracle_home" in roles) == (
        plan.platform.layout.oracle_home == "nas" and plan.as_of >= dt.date(2004, 5, 1)
    )
    for mount in plan.mounts:
        keys = [vocabulary[(os_name, o.split("=", 1)[0])].key for o in mount.options]
        assert len(keys) == len(set(keys)), mount.options
        assert not ({"forcedirectio", "llock"} <= set(mount.options)), mount.options
        assert set(mount.rules) <= applied
        for option in mount.options:
            assert mount.option_rules[option], option
        if os_name == "solaris" and mount.role == "oracle_home":
            assert "forcedirectio" not in mount.options
        if not plan.platform.oracle.rac:
            assert "noac" not in mount.options and "actimeo=0" not in mount.options
        else:
            assert "llock" not in mount.options
        assert "proto=udp" not in mount.options
    slots = [(s.target, s.key, tuple(s.applies_to), s.scope) for s in plan.settings]
    assert len(slots) == len(set(slots)), slots
    for setting in plan.settings:
        assert set(setting.rules) <= applied
    for finding in plan.findings:
        assert finding.rule in kb.rules
    for volume in plan.volumes:
        assert set(volume.rules) <= applied
    used = {r for m in plan.mounts for r in m.rules} | {r for s in plan.settings for r in s.rules}
    assert used <= set(plan.rules)
    assert plan.expectations.single_stream_mb_s > 0
    assert plan.expectations.single_stream_mb_s <= plan.expectations.nic_payload_ceiling_mb_s


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(platforms())
def test_plans_are_consistent_and_traced(data: dict[str, Any]) -> None:
    _check(KB, data)

"""The platforms the bundle tests render: every OS x filer family x RAC x dNFS combination,
and the knowledge base's presets."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from nasplan.domain.plan import Plan
from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.merge import deep_merge

AS_OF = dt.date(2026, 6, 1)  # fixed, so the goldens do not change with the calendar

OS_BASE = {
    "solaris": "tr3496-lab",
    "linux": "current-linux-ontap",
    "aix": "example-aix",
    "hpux": "example-hpux",
}
OS_PATCH: dict[str, dict[str, Any]] = {
    "solaris": {"host": {"os_version": "10u8"}, "network": {"nic_gbps": 10}},
    "linux": {"host": {"os_version": "ol8"}},
    "aix": {"host": {"os_version": "7.2"}},
    "hpux": {},
}
FILERS: dict[str, dict[str, Any]] = {
    "ontap7": {"vendor": "netapp", "model": "FAS3270", "os_version": "8.1", "interface": "e1a"},
    "ontap_cluster": {
        "vendor": "netapp",
        "model": "AFF A400",
        "os_version": "9.14.1",
        "interface": "e0e",
    },
    "sun7000": {"vendor": "sun", "model": "7410", "os_version": "2010.Q1", "interface": None},
}
ORACLE = "19.21"

COMBOS = list(itertools.product(OS_BASE, FILERS, (False, True), (False, True)))


def combo_id(os_name: str, family: str, rac: bool, dnfs: bool) -> str:
    return f"{os_name}-{family}-{'rac' if rac else 'si'}-{'dnfs' if dnfs else 'knfs'}"


def combo_platform(kb: KnowledgeBase, os_name: str, family: str, rac: bool, dnfs: bool) -> Platform:
    data = deep_merge(kb.presets[OS_BASE[os_name]].platform, OS_PATCH[os_name])
    data = deep_merge(
        data,
        {
            "filer": FILERS[family],
            "oracle": {
                "version": ORACLE,
                "rac": rac,
                "rac_nodes": 2 if rac else None,
                "dnfs": dnfs,
            },
            "layout": {"oracle_home": "nas" if rac else "local"},
            "as_of": AS_OF.isoformat(),
        },
    )
    if FILERS[family]["interface"] is None:
        data["filer"].pop("interface", None)
    return Platform.model_validate(data)


def combo_plan(kb: KnowledgeBase, os_name: str, family: str, rac: bool, dnfs: bool) -> Plan:
    return make_plan(kb, combo_platform(kb, os_name, family, rac, dnfs))


def preset_plan(kb: KnowledgeBase, preset: str) -> Plan:
    data = dict(kb.presets[preset].platform)
    data["as_of"] = AS_OF.isoformat()
    return make_plan(kb, Platform.model_validate(data))

"""The filer's verification files: verify/filer_checks.txt, what to look at after the filer
phase, and verify/filer_collect.txt, the read-only commands whose output an audit of the filer
reads (NetApp families only)."""

from __future__ import annotations

from nasplan.renderers.collector import plan_setting_keys
from nasplan.renderers.common import FAMILY_LABELS, Facts, header
from nasplan.renderers.filer import filer_steps
from nasplan.renderers.filer_collector import (
    COLLECTED_MECHANISMS,
    FilerCollectorFamily,
    filer_collector_text,
)
from nasplan.renderers.filer_common import STORAGE
from nasplan.renderers.handover import filer_interface, svm


def filer_checks_text(f: Facts) -> str:
    """verify/filer_checks.txt: what to look at on the filer after the filer phase."""
    steps = [s for s in filer_steps(f) if s.phase in ("filer", "network") and s.expect]
    checks = f.checks("filer", "switch")
    rules = [*(r for s in steps for r in s.rules), *(r for c in checks for r in c.rules)]
    lines = [
        header(f, "Filer checks: what to look at after the filer phase.", rules),
        f"# {STORAGE.capitalize()}, at the filer console. These commands only show values.",
    ]
    for c in checks:
        lines += [f"\n# ---- {c.what} ({', '.join(c.rules)})", c.command, f"# Expect: {c.expect}"]
    for s in steps:
        lines += [f"\n# ---- {s.title}", f"# Expect: {s.expect}"]
    return "\n".join(lines) + "\n"


_COLLECTOR_FAMILY: dict[str, FilerCollectorFamily] = {
    "ontap_cluster": "ontap_cluster",
    "fsxn": "ontap_cluster",  # FSx for ONTAP: the same ONTAP CLI, over SSH as fsxadmin
    "ontap7": "ontap7",
}


def filer_collect_files(f: Facts) -> dict[str, str]:
    """The storage team's read-only commands with this plan's SVM, volumes and port, on the
    NetApp families whose CLI the list speaks."""
    family = _COLLECTOR_FAMILY.get(f.family)
    if family is None:
        return {}
    return {
        "verify/filer_collect.txt": filer_collector_text(
            plan_setting_keys(f.plan),
            family,
            f.plan.kb_version,
            svm=svm(f),
            volumes=[v.name for v in f.plan.volumes],
            port=filer_interface(f) if f.settings("ontap_port") else None,
            header=header(
                f,
                "The storage team's read-only filer commands, for an audit of the filer as "
                f"built ({FAMILY_LABELS[f.family]}).",
                [
                    r
                    for s in f.plan.settings
                    if s.mechanism in COLLECTED_MECHANISMS
                    for r in s.rules[:1]
                ],
            ),
        )
    }

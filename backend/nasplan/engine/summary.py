"""The plan at a glance: a verdict line, the decisions that matter for this platform, the
vendor disagreements that affect it and the reversals of earlier advice, each in one line.

Everything here restates the plan (no rule of its own): the page, the runbook and the CLI all
show this same summary first.
"""

from __future__ import annotations

from nasplan.domain.figures import rate_words
from nasplan.domain.plan import Mount, Plan
from nasplan.domain.plan_explanations import Disagreement, PlanSummary
from nasplan.knowledge.schema import Conflict


def _option(mount: Mount | None, name: str) -> str | None:
    if mount is None:
        return None
    return next((o.split("=", 1)[1] for o in mount.options if o.startswith(f"{name}=")), None)


def _mount_for(plan: Plan, role: str) -> Mount | None:
    return next((m for m in plan.mounts if m.role == role), None) or next(
        (m for m in plan.mounts if role in m.serves), None
    )


# Options that decide how the OS caches and locks a mount's files.
_CACHING = ("forcedirectio", "noac", "actimeo=0", "cio", "llock")


def _caching(mount: Mount) -> list[str]:
    return [o for o in mount.options if o in _CACHING]


def _redo_line(plan: Plan) -> str | None:
    redo = _mount_for(plan, "redo")
    if redo is None:
        return None
    own = redo.role == "redo"
    where = "on their own mount" if own else f"on the {redo.role} mount"
    special = _caching(redo)
    return f"Redo and control files {where}" + (f" with {', '.join(special)}" if special else "")


def _data_line(plan: Plan) -> str | None:
    data = _mount_for(plan, "data")
    special = _caching(data) if data is not None else []
    if not special:
        return None
    if "llock" in special and "forcedirectio" not in special:
        others = [o for o in special if o != "llock"]
        return "Datafiles cached by the OS, with llock (local locking)" + (
            f" and {', '.join(others)}" if others else ""
        )
    return f"Datafiles with {', '.join(special)}"


def _home_line(plan: Plan) -> str:
    home = _mount_for(plan, "oracle_home")
    if home is None:
        return "ORACLE_HOME on local disk"
    line = f"ORACLE_HOME on the filer, its own mount at {home.mount_point}"
    data = _mount_for(plan, "data")
    direct = data is not None and "forcedirectio" in data.options
    if direct and "forcedirectio" not in home.options:
        line += ", without forcedirectio"
    return line


def _client_line(plan: Plan) -> str:
    e = plan.expectations
    data = _mount_for(plan, "data")
    rsize = _option(data, "rsize")
    size = f", {int(rsize) // 1024} KB transfers" if rsize and rsize.isdigit() else ""
    version = plan.platform.oracle.nfs_version
    return f"{e.planned_client or 'kernel NFS'} (NFSv{version}){size}"


def _expect_line(plan: Plan) -> str:
    e = plan.expectations
    name = e.bottleneck.split(":", 1)[0].strip()
    # Lower-case the first letter of a word, not of an acronym: "One TCP connection" reads
    # "one TCP connection", "NIC bandwidth" stays as it is.
    acronym = name[1:2].isupper()
    bound = (name if acronym else name[:1].lower() + name[1:]) if name else "the model"
    if e.planned_scan_low_mb_s is not None and e.planned_scan_high_mb_s is not None:
        low, high = rate_words(e.planned_scan_low_mb_s), rate_words(e.planned_scan_high_mb_s)
        return f"Expect {low} to {high} for a large scan, bound by {bound}"
    if e.planned_scan_mb_s is not None:
        return f"Expect about {rate_words(e.planned_scan_mb_s)} for a large scan, bound by {bound}"
    return f"Expect about {rate_words(e.single_stream_mb_s)} per serial stream, bound by {bound}"


def summarize(plan: Plan, conflicts: list[tuple[Conflict, str]]) -> PlanSummary:
    """``conflicts``: each vendor disagreement the plan resolved, with the rule it followed."""
    counts = {s: sum(1 for f in plan.findings if f.severity == s) for s in ("error", "warning")}
    verdict = (
        f"{counts['error']} error(s) · {counts['warning']} warning(s) · "
        f"{len(plan.mounts)} mount(s) · {len(plan.volumes)} volume(s)"
    )
    decisions = [
        _client_line(plan),
        *(line for line in [_redo_line(plan), _data_line(plan)] if line),
        _home_line(plan),
        _expect_line(plan),
        f"{len(plan.volumes)} volume(s): "
        + ", ".join(f"{v.name} ({'+'.join(v.holds)})" for v in plan.volumes),
    ][:5]
    reversals = [f.message for f in plan.findings if f.message.startswith("Advice changed on ")]
    return PlanSummary(
        verdict=verdict,
        decisions=decisions,
        disagreements=[
            Disagreement(topic=c.topic, followed=c.winner.position, rule=rule)
            for c, rule in conflicts
        ],
        reversals=reversals,
    )

"""Every choice a client offers, served from knowledge/ so no client hard-codes a list."""

from __future__ import annotations

from fastapi import APIRouter

from nasplan.api.deps import KbDep
from nasplan.api.schemas import Catalog

router = APIRouter(tags=["catalog"])


@router.get("/catalog", response_model=Catalog)
def catalog(kb: KbDep) -> Catalog:
    constraints = [
        {
            "rule": rule.id,
            "title": rule.title,
            "when": rule.when.model_dump(exclude_none=True),
            "messages": [f.message for f in rule.effects.findings if f.severity == "error"],
        }
        for rule in kb.rules.values()
        if any(f.severity == "error" for f in rule.effects.findings)
    ]
    return Catalog(
        kb_version=kb.version,
        os={
            name: {
                "label": entry.label,
                "arches": entry.arches,
                "default_interface": entry.default_interface,
                "mount_table": entry.mount_table,
                "rsize_max": entry.rsize_max,
                "releases": [r.model_dump(exclude_none=True) for r in entry.releases],
            }
            for name, entry in kb.os.items()
        },
        oracle=kb.oracle.model_dump(),
        filers={
            vendor: {
                "label": entry.label,
                "release_required": entry.release_required,
                "release_pattern": entry.release_pattern,
                "models": entry.models,
                "families": [
                    {"id": f.id, "label": f.label, "releases": f.releases, "known": f.known}
                    for f in entry.families
                ],
            }
            for vendor, entry in kb.filers.vendors.items()
        },
        network=kb.network.model_dump(),
        workloads=[
            {"id": "oltp", "label": "OLTP (transactions)"},
            {"id": "dss", "label": "DSS (scans, reporting)"},
            {"id": "mixed", "label": "Mixed"},
        ],
        nfs_versions=[{"id": "3", "label": "NFSv3"}, {"id": "4.1", "label": "NFSv4.1"}],
        presets=[p.model_dump(exclude_none=True) for p in kb.presets.values()],
        constraints=constraints,
    )

"""Every choice a client offers, served from knowledge/ so no client hard-codes a list."""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter

from nasplan.api.deps import KbDep
from nasplan.api.schemas import (
    Catalog,
    Choice,
    ConditionFieldChoice,
    Constraint,
    CountWords,
    FilerFamilyChoice,
    OsChoice,
    OsReleaseChoice,
    PresetChoice,
    VendorChoice,
)
from nasplan.audit.kinds import FILE_KINDS
from nasplan.domain.platform import FSX_THROUGHPUTS, Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.conditions import CONDITION_FIELDS

router = APIRouter(tags=["catalog"])


@router.get("/catalog", response_model=Catalog)
def catalog(kb: KbDep) -> Catalog:
    constraints = [
        Constraint(
            rule=rule.id,
            title=rule.title,
            when=rule.when.model_dump(exclude_none=True),
            messages=[f.message for f in rule.effects.findings if f.severity == "error"],
        )
        for rule in kb.rules.values()
        if any(f.severity == "error" for f in rule.effects.findings)
    ]
    return Catalog(
        kb_version=kb.version,
        os={
            name: OsChoice(
                label=entry.label,
                arches=list(entry.arches),
                default_interface=entry.default_interface,
                mount_table=entry.mount_table,
                rsize_max=entry.rsize_max,
                releases=[OsReleaseChoice(**r.model_dump()) for r in entry.releases],
            )
            for name, entry in kb.os.items()
        },
        oracle=kb.oracle,
        filers={
            vendor: VendorChoice(
                label=entry.label,
                release_required=entry.release_required,
                release_pattern=entry.release_pattern,
                models=entry.models,
                families=[
                    FilerFamilyChoice(
                        id=f.id,
                        label=f.label,
                        releases=f.releases,
                        known=f.known,
                        managed_network=f.managed_network,
                    )
                    for f in entry.families
                ],
                service_levels=[level for f in entry.families for level in f.service_levels],
                throughput_capacities=list(FSX_THROUGHPUTS) if vendor == "aws_fsxn" else [],
            )
            for vendor, entry in kb.filers.vendors.items()
        },
        network=kb.network,
        workloads=_options(kb, "oracle.workload"),
        nfs_versions=_options(kb, "oracle.nfs_version"),
        presets=[
            PresetChoice(
                id=p.id,
                kind=p.kind,
                label=p.label,
                source=p.source,
                assumed=p.assumed,
                platform=Platform.model_validate(p.platform),
            )
            for p in kb.presets.values()
        ],
        constraints=constraints,
        condition_fields=condition_field_choices(),
        file_kinds=[Choice(id=kind, label=spec.label) for kind, spec in FILE_KINDS.items()],
        fields=kb.fields,
    )


def _options(kb: KnowledgeBase, path: str) -> list[Choice]:
    field = next(f for f in kb.fields if f.path == path)
    return [Choice(id=o.value, label=o.label) for o in field.options or []]


def condition_field_choices() -> list[ConditionFieldChoice]:
    return [
        ConditionFieldChoice(
            name=name,
            kind=spec.kind,
            noun=spec.noun,
            answer=spec.answer,
            values=spec.values,
            template=spec.template,
            counts=CountWords(**asdict(spec.counts)) if spec.counts else None,
        )
        for name, spec in CONDITION_FIELDS.items()
    ]

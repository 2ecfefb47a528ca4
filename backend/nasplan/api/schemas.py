"""API-only response shapes (the domain models live in nasplan.domain)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from nasplan.domain.clean_text import ONE_LINE_ERRORS, ONE_LINE_PATTERN
from nasplan.domain.plan_explanations import RuleExplanation
from nasplan.domain.platform import DATE_RANGE, BoundedDate, Platform
from nasplan.engine.diff import Change
from nasplan.knowledge.catalog import Fact, NetworkCatalog, OracleCatalog
from nasplan.knowledge.conditions import ConditionKind, Conditions
from nasplan.knowledge.fields import AnswerField
from nasplan.knowledge.schema import Conflict, Rule, Source, SourceRef
from nasplan.renderers.plan_view import PlanView


class Health(BaseModel):
    status: str
    kb_version: str
    rules: int


class RuleSummary(BaseModel):
    id: str
    title: str
    category: str
    severity: str
    confidence: str
    effective_from: dt.date
    date_confidence: str = "exact"
    retired_on: dt.date | None
    supersedes: list[str]
    superseded_by: list[str]
    sources: list[str] = Field(description="Source ids, e.g. tr-3322.")
    # No Field(description=...) here: FastAPI applies a field's description to the shared core
    # schema of the Conditions model, and every later JSON schema of Rule.when then carries it.
    when: Conditions


class KnowledgeIndex(BaseModel):
    kb_version: str
    released: dt.date
    summary: str
    changelog: str
    rules: list[RuleSummary]
    sources: list[Source]
    facts: list[Fact]
    conflicts: list[Conflict]


class HistoryEntry(BaseModel):
    id: str
    title: str
    effective_from: dt.date
    retired_on: dt.date | None
    replaced_by: list[str]


class RuleExplanations(BaseModel):
    kb_version: str
    rules: dict[str, RuleExplanation] = Field(
        description="Each rule's explanation by id, as a plan with ?explain=full inlines it."
    )


class RuleDetail(Rule):
    superseded_by: list[str]
    history: list[HistoryEntry] = Field(
        description="The supersession chain this rule belongs to, oldest first."
    )
    cited_sources: list[Source]
    conflicts: list[Conflict]
    facts: list[Fact]


class CompareRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    platform: Platform
    from_as_of: BoundedDate = Field(description=f"The earlier date, {DATE_RANGE}.")
    to_as_of: BoundedDate | None = Field(
        default=None, description=f"The later date, {DATE_RANGE}. Default: today."
    )


class NotYetReleasedOut(BaseModel):
    label: str = Field(description="The release, e.g. 'Oracle Database 19c'.")
    available: str = Field(description="When it came out, e.g. 'on 25 April 2019'.")


class CompareResponse(BaseModel):
    from_as_of: dt.date
    to_as_of: dt.date
    kb_version: str
    changes: list[Change]
    not_yet_released: list[NotYetReleasedOut] = Field(
        default=[],
        description="The platform's releases that did not exist yet on from_as_of "
        "(knowledge/lifecycle.yaml): the earlier plan describes a platform nobody could have "
        "built then.",
    )


class OsReleaseChoice(BaseModel):
    id: str
    label: str
    key: str
    distro: str | None = None


class OsChoice(BaseModel):
    label: str
    arches: list[str]
    default_interface: str
    mount_table: str
    rsize_max: int
    releases: list[OsReleaseChoice]


class FilerFamilyChoice(BaseModel):
    id: str
    label: str
    releases: str
    known: list[str]
    managed_network: bool = Field(
        default=False,
        description="A managed cloud service: the network to it is the provider's (no "
        "switches, hops or MTU for the tenant to change; CLOUD-NETWORK-PROVIDER-PATH).",
    )


class VendorChoice(BaseModel):
    label: str
    release_required: bool
    release_pattern: str | None
    models: list[str]
    families: list[FilerFamilyChoice]
    service_levels: list[str] = Field(
        default=[],
        description="Cloud NAS: the service levels to choose from; the platform then needs "
        "filer.service_level and filer.capacity_tib.",
    )
    throughput_capacities: list[int] = Field(
        default=[],
        description="Amazon FSx for NetApp ONTAP: the throughput capacities (MBps per HA pair) "
        "to choose from; the platform then needs filer.throughput_mb_s.",
    )


class Choice(BaseModel):
    id: str
    label: str


class PresetChoice(BaseModel):
    id: str
    kind: str
    label: str
    source: SourceRef | None = None
    assumed: list[str]
    platform: Platform


class Constraint(BaseModel):
    rule: str
    title: str
    when: dict[str, Any]
    messages: list[str]


class CountWords(BaseModel):
    one: str
    many: str
    exactly: str | None
    between: str | None
    at_least: str | None
    at_most: str | None


class ConditionFieldChoice(BaseModel):
    """One field a rule's `when` may set, as knowledge/schema.py declares it."""

    name: str
    kind: ConditionKind
    noun: str = Field(description="How the field is named in prose.")
    answer: str | None = Field(
        description="The platform answer it reads (`host.os`); null when nasplan derives it."
    )
    values: dict[str, str] = Field(
        description="Words for each value (flags as `true`/`false`); a value without words "
        "is shown as the catalog labels it or as written."
    )
    template: str = Field(description="A list of values in words: `{values}` is the or-list.")
    counts: CountWords | None = Field(description="For integer ranges: the counting words.")


class Catalog(BaseModel):
    kb_version: str
    os: dict[str, OsChoice]
    oracle: OracleCatalog
    filers: dict[str, VendorChoice]
    network: NetworkCatalog
    workloads: list[Choice]
    nfs_versions: list[Choice]
    presets: list[PresetChoice]
    constraints: list[Constraint] = Field(
        description="Combinations the knowledge base refuses (compatibility rules with errors)."
    )
    condition_fields: list[ConditionFieldChoice] = Field(
        description="The fields of a rule's `when`, in order, with their wording."
    )
    file_kinds: list[Choice] = Field(
        description="The files and command outputs the audit reads, as people name them."
    )
    fields: list[AnswerField] = Field(
        description="Every platform answer in the wizard's order: its type and limits, its "
        "words, its step and widget, its opening answer and the answers it depends on.",
    )


class WhatIfVariant(BaseModel):
    # Either a patch or a platform (the validator below), in JSON Schema (if/then/else: see
    # nasplan.domain.platform).
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "if": {"properties": {"patch": {"type": "object"}}, "required": ["patch"]},
            "then": {"properties": {"platform": {"type": "null"}}},
            "else": {"properties": {"platform": {"type": "object"}}, "required": ["platform"]},
        },
    )

    label: Annotated[
        str,
        StringConstraints(min_length=1, max_length=80, pattern=ONE_LINE_PATTERN),
        ONE_LINE_ERRORS,
    ] = Field(description="A name for the variant, e.g. 'Direct NFS'.")
    patch: dict[str, Any] | None = Field(
        default=None,
        description="Answers to change, merged into the base platform (same shape, any subset): "
        "the merged platform must be a valid platform, errors name "
        "`body.variants.N.patch.<field>`.",
    )
    platform: Platform | None = Field(default=None, description="A whole platform instead.")

    @model_validator(mode="after")
    def _one_of(self) -> WhatIfVariant:
        if (self.patch is None) == (self.platform is None):
            raise ValueError("give either patch or platform")
        return self


class WhatIfRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    base: Platform
    variants: list[WhatIfVariant] = Field(min_length=1, max_length=4)


class GainSource(BaseModel):
    id: str
    title: str
    locator: str
    published: dt.date | None


class MeasuredGainOut(BaseModel):
    id: str
    change: str
    figure: str = Field(description="What the source measured, with its numbers.")
    measured_under: str = Field(description="The platform and test it was measured on.")
    source: GainSource
    fact: str | None = Field(description="The fact of the knowledge base that holds it.")
    reverse: bool = Field(
        default=False,
        description="The variant makes the opposite change to the one measured (e.g. Direct "
        "NFS back to the kernel client): expect the reverse of the figure.",
    )


class ExpectationPair(BaseModel):
    field: str
    base: float | str | bool | None
    variant: float | str | bool | None


class WhatIfVariantOut(BaseModel):
    label: str
    plan: PlanView
    changes: list[Change] = Field(description="Item by item, platform answers included.")
    expectations: list[ExpectationPair] = Field(
        description="nasplan's model figures, base and variant side by side."
    )
    measured_gains: list[MeasuredGainOut] = Field(
        description="What the sources measured for changes of this kind: evidence with its "
        "conditions, not a prediction for this platform."
    )


class WhatIfResponse(BaseModel):
    kb_version: str
    base: PlanView
    variants: list[WhatIfVariantOut]

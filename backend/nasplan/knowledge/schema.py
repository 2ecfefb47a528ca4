"""Schema of the knowledge base files in ``knowledge/``.

Every YAML file is validated against these models when the knowledge base loads; a broken
file stops start-up with the file, the rule id and the field named (see ``loader.py``).
The authoring guide is ``knowledge/README.md``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from nasplan.domain.platform import (
    OsName,
)
from nasplan.domain.vocabulary import (
    Confidence,
    DateConfidence,
    Mechanism,
    Role,
    RuleCategory,
    RuleSeverity,
    Severity,
    Target,
)
from nasplan.knowledge.conditions import Conditions

RuleId = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$", max_length=60)]
SourceId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=40)]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MountOptions(_Doc):
    """Options this rule puts on the mounts of the given roles, in the OS's own syntax."""

    roles: list[Role] = Field(min_length=1)
    options: list[str] = Field(min_length=1)
    os: list[OsName] | None = Field(
        default=None, description="Only on these host OSes (for rules whose advice differs by OS)."
    )
    severity: RuleSeverity | None = Field(
        default=None,
        description="How much these options weigh when it differs from the rule's severity "
        "(bg guards the boot, not the data that hard guards).",
    )


class ForbiddenOptions(_Doc):
    """Options that must never appear on mounts of the given roles (enforced by the planner)."""

    roles: list[Role] = Field(min_length=1)
    options: list[str] = Field(min_length=1)


class UnsetGives(_Doc):
    """What a count parameter left unset amounts to: ``bytes`` in units of another parameter's
    size (``unit_key``, ``unit_default`` where it is not shown)."""

    bytes: int = Field(gt=0)
    unit_key: str = Field(min_length=1, max_length=80)
    unit_default: int = Field(gt=0)


class SettingEffect(_Doc):
    action: Literal["set", "unset"] = "set"
    target: Target
    key: str = Field(min_length=1, max_length=80)
    value: str = Field(max_length=200)
    mechanism: Mechanism
    roles: list[Role] | None = Field(
        default=None, description="For per-volume settings: the volumes (by role) it applies to."
    )
    requires: Literal["none", "remount", "reboot", "instance_restart", "online"] = "online"
    scope: str | None = Field(
        default=None,
        max_length=120,
        description="Where the setting lives when not a volume: a file or an interface "
        "({nic_interface}, {filer_interface} are filled in).",
    )
    at_least: bool = Field(
        default=False,
        description="The value is a minimum its sources give: a larger number meets it.",
    )
    unset_gives: UnsetGives | None = Field(
        default=None,
        description="For an unset count: what leaving it out gives, so a count written out at "
        "that value is not a change to make.",
    )


class VolumeEffect(_Doc):
    """A volume on the filer holding the files of the given roles."""

    role: Role
    holds: list[Role] = Field(min_length=1)


class FindingEffect(_Doc):
    severity: Severity
    message: str = Field(min_length=10, max_length=600)


CheckPlace = Literal["host", "filer", "oracle", "switch"]
CheckStage = Literal["before", "after"]
ModelCheck = Literal[
    "expectations_model",
    "os_arch_supported",
    "transfer_size_caps",
    "tcp_window_vs_bdp",
    "serial_client",
    "vendor_lifecycle",
    "oracle_os_certified",
    "anf_volume_qos",
    "anf_volume_group",
    "knfs_path_spread",
    "known_mount_options",
]


class CheckEffect(_Doc):
    """A check the runbook runs, with what a good result looks like: after the change to verify
    it, or before the window as a go/no-go gate."""

    what: str = Field(min_length=8, max_length=200)
    where: CheckPlace
    commands: dict[str, str] = Field(
        min_length=1,
        description="Command by host OS (solaris, linux, aix, hpux), filer family, or `any`.",
    )
    expect: str = Field(min_length=8, max_length=300)
    stage: CheckStage = Field(
        default="after",
        description="`after`: a verification once the change is made (the verify scripts); "
        "`before`: a go/no-go gate the runbook runs before the window opens.",
    )


class Effects(_Doc):
    mount_options: list[MountOptions] = Field(default_factory=list)
    forbid_options: list[ForbiddenOptions] = Field(default_factory=list)
    settings: list[SettingEffect] = Field(default_factory=list)
    volumes: list[VolumeEffect] = Field(default_factory=list)
    findings: list[FindingEffect] = Field(default_factory=list)
    checks: list[CheckEffect] = Field(default_factory=list)
    model_checks: list[ModelCheck] = Field(
        default_factory=list,
        description="Named checks implemented by the planner that this rule cites and explains.",
    )


class SourceRef(_Doc):
    id: SourceId
    locator: str = Field(min_length=2, max_length=160, description="Section, appendix or comment.")
    edition: dt.date | None = Field(
        default=None, description="Which revision of the document, when it has several."
    )


class RuleCase(_Doc):
    """A platform on which the rule's behaviour is asserted by the test suite."""

    name: str = Field(min_length=3, max_length=120)
    preset: str = Field(description="A preset id from knowledge/catalog/presets.yaml.")
    patch: dict[str, Any] = Field(default_factory=dict, description="Deep-merged over the preset.")
    as_of: dt.date | None = None


class RuleCases(_Doc):
    fires: list[RuleCase] = Field(min_length=1)
    silent: list[RuleCase] = Field(min_length=1)


class Rule(_Doc):
    id: RuleId
    title: str = Field(min_length=8, max_length=140)
    category: RuleCategory
    severity: RuleSeverity
    confidence: Confidence = "verified"
    when: Conditions = Conditions()
    effects: Effects
    rationale: str = Field(min_length=40, max_length=2000)
    sources: list[SourceRef] = Field(min_length=1)
    effective_from: dt.date
    date_confidence: DateConfidence = Field(
        default="exact",
        description="exact: the first source that gave this advice is dated so; "
        "earliest_evidence: the advice is older than that date, which is the earliest dated "
        "copy we can cite; inferred: the date comes from a source that states the principle for "
        "another case (date_note says which).",
    )
    date_note: str | None = Field(default=None, min_length=20, max_length=400)
    retired_on: dt.date | None = Field(
        default=None, description="Advice withdrawn everywhere from this date on."
    )
    supersedes: list[RuleId] = Field(
        default_factory=list,
        description="Older rules this one replaces wherever both apply (the older one keeps "
        "applying where this one does not).",
    )
    tests: RuleCases

    @model_validator(mode="after")
    def _dates_in_order(self) -> Rule:
        if self.date_confidence != "exact" and self.date_note is None:
            raise ValueError("date_note must say why the date is not exact")
        if self.retired_on is not None and self.retired_on <= self.effective_from:
            raise ValueError("retired_on must be after effective_from")
        if self.id in self.supersedes:
            raise ValueError("a rule cannot supersede itself")
        return self


class Source(_Doc):
    id: SourceId
    title: str
    number: str | None = None
    publisher: str
    authors: str | None = None
    published: dt.date | None = Field(description="Null when the copy we cite is undated.")
    revised: dt.date | None = None
    revision_note: str | None = None
    editions: list[dt.date] = Field(
        default_factory=list,
        description="Other dated copies of a living document that rules cite by edition (e.g. "
        "the first commit of a passage in the vendor's documentation repository).",
    )
    kind: Literal["seed", "public"]
    url: str | None = None
    notes: str | None = None


class ConflictSide(_Doc):
    rules: list[RuleId] = Field(min_length=1)
    position: str = Field(min_length=10, max_length=400)


class Conflict(_Doc):
    """Sources that disagree. When a rule of the winning side fires, the losing side's rules are
    set aside on that platform and the plan carries a finding that cites both sides."""

    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    topic: str = Field(min_length=8, max_length=200)
    winner: ConflictSide
    losers: list[ConflictSide] = Field(min_length=1)
    precedence: Literal[
        "vendor-current-documentation",
        "newer-measurement",
        "safety-first",
        "scope-of-source",
    ]
    reason: str = Field(min_length=20, max_length=800)
    severity: Literal["warning", "info"]


class KbRelease(_Doc):
    version: Annotated[str, StringConstraints(pattern=r"^\d{4}\.\d{1,2}\.\d+$")]
    released: dt.date
    summary: str

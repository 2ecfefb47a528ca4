"""What each field of a rule's ``when`` is: the one declaration the rest derives from.

Every field of :class:`Conditions` below carries a :class:`ConditionField`
beside its type. From it the engine compiles predicates and files rules in its index
(``engine/conditions.py``, ``engine/index.py``: one loop each, by kind), the evaluation memo
knows what a rule reads, the catalog API serves the wording the front end shows, and
``nasplan kb docs`` writes ``knowledge/docs/conditions.md``. A new field is one new line in
``Conditions``; nothing else names it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from nasplan.domain.platform import (
    Arch,
    FilerVendor,
    NfsVersion,
    OracleHomePlacement,
    OsName,
    SwitchKind,
    VolumeLayout,
    Workload,
)

ConditionKind = Literal["one_of", "equals", "int_range", "version_range", "os_release_range"]
# Domains sized by the loaded catalog rather than by the field's type.
CatalogDomain = Literal["os", "os_releases", "filer_families"]

KIND_MEANING: dict[ConditionKind, str] = {
    "one_of": "a list: the platform's value is one of them",
    "equals": "one value: the platform's value equals it",
    "int_range": "`{min, max}`, both inclusive, either left out",
    "version_range": "a version range such as `>=11.2,<19`",
    "os_release_range": "a range over the catalog's release ids of the one OS in `os`, "
    "such as `>=9u5,<10`",
}


@dataclass(frozen=True)
class RangeWords:
    """A count in words: "exactly 1 NIC", "2 or more NICs", "no switch hops". A template, when
    given, replaces the counting phrase ({n}, {min}, {max} are filled in)."""

    one: str
    many: str
    exactly: str | None = None
    between: str | None = None
    at_least: str | None = None
    at_most: str | None = None


@dataclass(frozen=True)
class ConditionField:
    kind: ConditionKind
    # Dotted attribute path on the resolved platform (knowledge/resolve.py).
    reads: str
    # How the field is named in prose ("the host OS").
    noun: str
    # The platform answer it comes from ("host.os"); None when nasplan derives the value.
    answer: str | None = None
    # How many values the field can take, for the index; None: count the type's values.
    domain: int | CatalogDomain | None = None
    # Words for the values of an `equals` field ("true" / "false" for flags).
    values: dict[str, str] = field(default_factory=dict)
    # A `one_of` list in words: "{values}" is the or-list of the values' labels.
    template: str = "{values}"
    counts: RangeWords | None = None


FilerFamily = Literal[
    "ontap7", "ontap_cluster", "sun7000", "zfssa", "anf", "gcnv", "fsxn", "generic"
]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_specifier(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        SpecifierSet(value)
    except InvalidSpecifier as exc:
        raise ValueError(f"not a version range like '>=9.2,<11': {value!r}") from exc
    return value


class IntRange(_Doc):
    min: int | None = None
    max: int | None = None


def _flag(reads: str, noun: str, yes: str, no: str, answer: str | None = None) -> ConditionField:
    return ConditionField(
        "equals",
        reads,
        noun,
        answer=answer or reads.removeprefix("platform."),
        values={"true": yes, "false": no},
    )


def _count(reads: str, noun: str, one: str, many: str, **templates: str) -> ConditionField:
    return ConditionField(
        "int_range",
        reads,
        noun,
        answer=reads.removeprefix("platform."),
        counts=RangeWords(one, many, **templates),
    )


class Conditions(_Doc):
    """When a rule applies. Every field left out matches anything; all given fields must match.

    Each field's :class:`ConditionField` says what it reads on the resolved platform and how it
    reads in words; the engine, the index, the catalog API and the generated docs use only that.
    """

    os: Annotated[
        list[OsName] | None,
        ConditionField("one_of", "platform.host.os", "host OS", "host.os", domain="os"),
    ] = None
    os_release: Annotated[
        str | None,
        ConditionField(
            "os_release_range", "os_key", "OS release", "host.os_version", domain="os_releases"
        ),
    ] = Field(
        default=None,
        description="Range over catalog release ids of the single OS named in `os`, "
        "e.g. '>=9u5,<10'.",
    )
    arch: Annotated[
        list[Arch] | None,
        ConditionField(
            "one_of",
            "platform.host.arch",
            "processor architecture",
            "host.arch",
            values={
                "sparc": "SPARC",
                "x86_64": "x86-64",
                "power": "POWER",
                "ia64": "Itanium (IA-64)",
            },
        ),
    ] = None
    filer_vendor: Annotated[
        list[FilerVendor] | None,
        ConditionField("one_of", "platform.filer.vendor", "filer vendor", "filer.vendor"),
    ] = None
    filer_family: Annotated[
        list[FilerFamily] | None,
        ConditionField("one_of", "filer_family.id", "filer family", domain="filer_families"),
    ] = None
    filer_release: Annotated[
        str | None,
        ConditionField("version_range", "filer_version", "filer software release", "filer.release"),
    ] = Field(default=None, description="Range over the filer software release (one vendor).")
    oracle: Annotated[
        str | None,
        ConditionField("version_range", "oracle_version", "Oracle release", "oracle.version"),
    ] = Field(default=None, description="Range over the Oracle release.")
    bits: Annotated[
        Literal[32, 64] | None,
        ConditionField(
            "equals",
            "platform.oracle.bits",
            "Oracle binaries",
            "oracle.bits",
            values={"32": "32-bit Oracle", "64": "64-bit Oracle"},
        ),
    ] = None
    rac: Annotated[bool | None, _flag("platform.oracle.rac", "RAC", "RAC", "single instance")] = (
        None
    )
    instances: Annotated[
        IntRange | None,
        _count(
            "platform.oracle.instances",
            "database instances on the host",
            "database instance on the host",
            "database instances on the host",
        ),
    ] = None
    dnfs: Annotated[
        bool | None,
        _flag("platform.oracle.dnfs", "Direct NFS", "Direct NFS on", "kernel NFS (Direct NFS off)"),
    ] = None
    nfs_version: Annotated[
        list[NfsVersion] | None,
        ConditionField(
            "one_of",
            "platform.oracle.nfs_version",
            "NFS version",
            "oracle.nfs_version",
            values={"3": "NFSv3", "4.1": "NFSv4.1"},
        ),
    ] = None
    workload: Annotated[
        list[Workload] | None,
        ConditionField(
            "one_of",
            "platform.oracle.workload",
            "workload",
            "oracle.workload",
            values={"oltp": "OLTP", "dss": "DSS", "mixed": "mixed"},
            template="{values} workload",
        ),
    ] = None
    archivelog: Annotated[
        bool | None,
        _flag("platform.oracle.archivelog", "ARCHIVELOG mode", "archivelog on", "archivelog off"),
    ] = None
    memory_gb: Annotated[
        IntRange | None,
        _count(
            "platform.host.memory_gb",
            "host memory in GB",
            "GB",
            "GB",
            exactly="memory exactly {n} GB",
            between="memory {min}\N{EN DASH}{max} GB",
            at_least="memory {n} GB or more",
            at_most="memory up to {n} GB",
        ),
    ] = None
    oracle_home: Annotated[
        OracleHomePlacement | None,
        ConditionField(
            "equals",
            "platform.layout.oracle_home",
            "ORACLE_HOME placement",
            "layout.oracle_home",
            values={"nas": "ORACLE_HOME on the filer", "local": "ORACLE_HOME on local disk"},
        ),
    ] = None
    volumes: Annotated[
        VolumeLayout | None,
        ConditionField(
            "equals",
            "platform.layout.volumes",
            "volume layout",
            "layout.volumes",
            values={
                "separate": "volumes separate (data; redo and control; archive)",
                "shared": "volumes shared (data, redo and control in one)",
            },
        ),
    ] = None
    nic_gbps: Annotated[
        IntRange | None,
        _count(
            "platform.network.nic_gbps",
            "NIC speed in Gb/s",
            "NIC",
            "NICs",
            exactly="{n} Gb/s NICs",
            between="{min}\N{EN DASH}{max} Gb/s NICs",
            at_least="NICs of {n} Gb/s or faster",
            at_most="NICs of {n} Gb/s or slower",
        ),
    ] = None
    nic_count: Annotated[
        IntRange | None,
        _count("platform.network.nic_count", "storage NICs per host", "NIC", "NICs"),
    ] = None
    nic_driver: Annotated[
        list[str] | None,
        ConditionField(
            "one_of", "nic_driver", "NIC driver", domain=12, template="NIC driver {values}"
        ),
    ] = Field(
        default=None,
        description="Driver of the host NIC: its interface name without the instance "
        "number (ce, ge, e1000g).",
    )
    jumbo_frames: Annotated[
        bool | None,
        _flag(
            "platform.network.jumbo_frames", "jumbo frames", "jumbo frames on", "jumbo frames off"
        ),
    ] = None
    switch: Annotated[
        list[SwitchKind] | None,
        ConditionField(
            "one_of",
            "platform.network.switch",
            "kind of switch",
            "network.switch",
            values={
                "store_and_forward": "store-and-forward switch",
                "cut_through": "cut-through switch",
                "hub": "hub (shared medium)",
            },
        ),
    ] = None
    switch_hops: Annotated[
        IntRange | None,
        _count("platform.network.switch_hops", "switch hops", "switch hop", "switch hops"),
    ] = None
    router_hops: Annotated[
        IntRange | None,
        _count("platform.network.router_hops", "router hops", "router hop", "router hops"),
    ] = None
    dedicated_storage_network: Annotated[
        bool | None,
        _flag(
            "platform.network.dedicated_storage_network",
            "dedicated storage network",
            "dedicated storage network",
            "no dedicated storage network",
        ),
    ] = None
    any_of: list[Conditions] | None = Field(
        default=None, description="At least one of these condition sets matches."
    )
    none_of: list[Conditions] | None = Field(
        default=None, description="None of these condition sets matches."
    )

    @field_validator("oracle", "filer_release")
    @classmethod
    def _version_range(cls, value: str | None) -> str | None:
        return _check_specifier(value)

    @model_validator(mode="after")
    def _single_os_for_release(self) -> Conditions:
        if self.os_release is not None and (self.os is None or len(self.os) != 1):
            raise ValueError("os_release needs exactly one os")
        if self.filer_release is not None and (
            self.filer_vendor is None or len(self.filer_vendor) != 1
        ):
            raise ValueError("filer_release needs exactly one filer_vendor")
        return self


# Conditions that combine others rather than read the platform.
NESTED_CONDITIONS = ("any_of", "none_of")


def _condition_fields() -> dict[str, ConditionField]:
    fields: dict[str, ConditionField] = {}
    for name, info in Conditions.model_fields.items():
        declared = [m for m in info.metadata if isinstance(m, ConditionField)]
        if name in NESTED_CONDITIONS:
            continue
        if len(declared) != 1:
            raise TypeError(f"Conditions.{name} needs exactly one ConditionField")
        fields[name] = declared[0]
    return fields


# Every condition field, in declaration order, with what it reads and how it reads in words.
CONDITION_FIELDS: dict[str, ConditionField] = _condition_fields()

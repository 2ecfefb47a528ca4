"""Schema of ``knowledge/lifecycle.yaml``: vendor support lifecycles and certified OS releases.

Dates may be a year, a month or a day, as the vendor gives them. An ``available`` date is read
as the earliest day it can mean and an ``ends`` date as the latest, so that nasplan never says
a release did not exist yet, or is out of support, on a day it might not have been.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import Literal

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from nasplan.domain.platform import OsName
from nasplan.domain.vocabulary import Confidence
from nasplan.knowledge.conditions import FilerFamily
from nasplan.knowledge.schema import SourceRef

_PARTIAL_DATE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$")


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PartialDate(_Doc):
    """A date given to the year, the month or the day."""

    text: str

    @field_validator("text")
    @classmethod
    def _valid(cls, value: str) -> str:
        match = _PARTIAL_DATE.match(value)
        if match is None:
            raise ValueError("a date is YYYY, YYYY-MM or YYYY-MM-DD")
        year, month, day = (int(g) if g else None for g in match.groups())
        try:
            dt.date(year or 1, month or 1, day or 1)
        except ValueError as exc:
            raise ValueError(f"not a real date ({exc})") from exc
        return value

    def _parts(self) -> tuple[int, int | None, int | None]:
        match = _PARTIAL_DATE.match(self.text)
        assert match is not None
        year, month, day = match.groups()
        return int(year), int(month) if month else None, int(day) if day else None

    @property
    def earliest(self) -> dt.date:
        year, month, day = self._parts()
        return dt.date(year, month or 1, day or 1)

    @property
    def latest(self) -> dt.date:
        year, month, day = self._parts()
        month = month or 12
        return dt.date(year, month, day or calendar.monthrange(year, month)[1])

    @property
    def with_preposition(self) -> str:
        """'on 25 April 2019', 'in January 2024', 'in 2007'."""
        return ("on " if self._parts()[2] is not None else "in ") + str(self)

    def __str__(self) -> str:
        year, month, day = self._parts()
        if day is not None:
            return f"{self.earliest:%-d %B %Y}"
        if month is not None:
            return f"{self.earliest:%B %Y}"
        return str(year)


def _to_partial(value: object) -> object:
    if isinstance(value, dt.date):
        return {"text": value.isoformat()}
    if isinstance(value, str | int):
        return {"text": str(value)}
    return value


class SupportPhase(_Doc):
    name: str = Field(min_length=3, max_length=60, description="The vendor's name for the phase.")
    ends: PartialDate

    @field_validator("ends", mode="before")
    @classmethod
    def _date(cls, value: object) -> object:
        return _to_partial(value)


class LifecycleEntry(_Doc):
    """One product release and the dates its vendor supports it until."""

    product: Literal["oracle", "os", "filer"]
    label: str = Field(min_length=3, max_length=80)
    vendor: str = Field(min_length=2, max_length=40)
    os: OsName | None = None
    os_releases: list[str] = Field(default_factory=list, description="Catalog release ids.")
    family: FilerFamily | None = None
    match: str | None = Field(default=None, description="Version range (Oracle or filer).")
    available: PartialDate | None = Field(default=None, description="General availability.")
    standard: SupportPhase | None = Field(
        default=None, description="The support included with the licence or subscription."
    )
    extended: SupportPhase | None = Field(
        default=None, description="Paid or limited support after it, when the vendor offers it."
    )
    note: str | None = Field(default=None, min_length=10, max_length=300)
    confidence: Confidence
    sources: list[SourceRef] = Field(min_length=1)

    @field_validator("available", mode="before")
    @classmethod
    def _date(cls, value: object) -> object:
        return None if value is None else _to_partial(value)

    @model_validator(mode="after")
    def _shape(self) -> LifecycleEntry:
        if self.product == "os" and (self.os is None or not self.os_releases):
            raise ValueError("an os entry names os and os_releases")
        if self.product == "oracle" and self.match is None:
            raise ValueError("an oracle entry names its version range in match")
        if self.product == "filer" and (self.family is None or self.match is None):
            raise ValueError("a filer entry names family and match")
        if self.available is None and self.standard is None:
            raise ValueError("an entry gives at least a release date or a support end")
        if self.extended is not None and self.standard is None:
            raise ValueError("extended support follows a standard phase")
        if (
            self.standard is not None
            and self.extended is not None
            and self.extended.ends.latest < self.standard.ends.latest
        ):
            raise ValueError("extended support cannot end before standard support")
        return self


class Certification(_Doc):
    """Host OS releases an Oracle release's installation guide does not list (a closed list)."""

    oracle: str = Field(description="Oracle version range.")
    oracle_label: str = Field(min_length=3, max_length=60)
    os: OsName
    listed: str = Field(min_length=5, max_length=200, description="What the guide lists.")
    not_certified: list[str] = Field(default_factory=list, description="Catalog release ids.")
    minimum_oracle: dict[str, str] = Field(
        default_factory=dict, description="OS release id -> first Oracle version certified on it."
    )
    confidence: Confidence
    sources: list[SourceRef] = Field(min_length=1)


class LifecycleCatalog(_Doc):
    releases: list[LifecycleEntry]
    certification: list[Certification]

    def sources(self) -> list[SourceRef]:
        refs = [ref for entry in self.releases for ref in entry.sources]
        return refs + [ref for cert in self.certification for ref in cert.sources]


def lifecycle_problems(
    catalog: LifecycleCatalog, os_releases: dict[str, set[str]], families: set[str]
) -> list[str]:
    """Ids and ranges in lifecycle.yaml that the catalog does not know or cannot parse."""
    where = "knowledge/lifecycle.yaml"
    problems: list[str] = []
    for entry in catalog.releases:
        if entry.os is not None:
            problems += [
                f"{where}: {entry.label}: unknown {entry.os} release {r}"
                for r in entry.os_releases
                if r not in os_releases.get(entry.os, set())
            ]
        if entry.family is not None and entry.family not in families:
            problems.append(f"{where}: {entry.label}: unknown filer family {entry.family}")
        if entry.match is not None and not _valid_range(entry.match):
            problems.append(f"{where}: {entry.label}: field match: not a version range")
    for cert in catalog.certification:
        known = os_releases.get(cert.os, set())
        problems += [
            f"{where}: {cert.oracle_label} on {cert.os}: unknown release {r}"
            for r in (*cert.not_certified, *cert.minimum_oracle)
            if r not in known
        ]
        if not _valid_range(cert.oracle):
            problems.append(f"{where}: {cert.oracle_label}: field oracle: not a version range")
    return problems


def _valid_range(text: str) -> bool:
    try:
        SpecifierSet(text)
    except InvalidSpecifier:
        return False
    return True

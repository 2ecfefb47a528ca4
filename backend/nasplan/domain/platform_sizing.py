"""The platform's optional capacity inputs, from which the plan sizes the volumes."""

from __future__ import annotations

from pydantic import Field

from nasplan.domain.platform_base import StrictModel


class Sizing(StrictModel):
    """Optional capacity inputs. Each volume gets a size only when the inputs for its files are
    given; nothing is guessed."""

    database_gb: float | None = Field(
        default=None,
        gt=0,
        le=10_000_000,
        description="Datafiles today, GB.",
        json_schema_extra={"x-what": "the datafiles' size in GB"},
    )
    growth_pct_per_year: float | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="Yearly growth of the datafiles, %.",
        json_schema_extra={"x-what": "the yearly growth in %"},
    )
    horizon_years: int | None = Field(
        default=None,
        ge=0,
        le=30,
        description="Years the volumes must last before resizing.",
        json_schema_extra={"x-what": "the horizon in years"},
    )
    redo_mb_per_s: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Peak redo rate, MB/s.",
        json_schema_extra={"x-what": "the peak redo rate in MB/s"},
    )
    redo_gb_per_day: float | None = Field(
        default=None,
        gt=0,
        le=10_000_000,
        description="Redo written per day, GB.",
        json_schema_extra={"x-what": "the redo per day in GB"},
    )
    archive_retention_days: int | None = Field(
        default=None,
        ge=1,
        le=3650,
        description="Days archived logs stay on the archive volume.",
        json_schema_extra={"x-what": "the archive retention in days"},
    )
    snapshot_retention_days: int | None = Field(
        default=None,
        ge=1,
        le=3650,
        description="Days the filer keeps snapshots of the data.",
        json_schema_extra={"x-what": "the snapshot retention in days"},
    )
    daily_change_pct: float | None = Field(
        default=None,
        gt=0,
        le=100,
        description="Share of the data changed per day, %.",
        json_schema_extra={"x-what": "the daily change in %"},
    )
    oracle_homes: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Oracle homes on the ORACLE_HOME volume.",
        json_schema_extra={"x-what": "the number of Oracle homes"},
    )
    oracle_home_gb: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Space one Oracle home takes with its patches, GB (your figure: the knowledge "
        "base has no cited one for every platform).",
        json_schema_extra={"x-what": "one Oracle home's size in GB"},
    )
    crs_gb: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Space for the Clusterware files (OCR, voting files), GB (your figure).",
        json_schema_extra={"x-what": "the Clusterware files' size in GB"},
    )

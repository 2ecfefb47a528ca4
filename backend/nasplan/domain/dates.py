"""The dates a request may give: between the oldest advice the knowledge base holds and today.

An earlier or a later day is a typing error, and planning for it would tell nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import AfterValidator, Strict, ValidationInfo

EARLIEST_DATE = dt.date(1990, 1, 1)
DATE_RANGE = f"{EARLIEST_DATE} to today"


def _out_of_range(info: ValidationInfo, *, early: bool) -> ValueError:
    name = info.field_name or "the date"
    if early:
        return ValueError(f"{name} must be {EARLIEST_DATE} or later")
    return ValueError(f"{name} cannot be in the future")


def _date_in_range(value: dt.date, info: ValidationInfo) -> dt.date:
    if value < EARLIEST_DATE:
        raise _out_of_range(info, early=True)
    if value > dt.date.today():
        raise _out_of_range(info, early=False)
    return value


_EARLIEST_MOMENT = dt.datetime.combine(EARLIEST_DATE, dt.time(), dt.UTC)


def _moment_in_range(value: dt.datetime, info: ValidationInfo) -> dt.datetime:
    # Its day in UTC (a time without a zone is UTC, as the designs store them). Compared, not
    # converted: astimezone() overflows on 9999-12-31T23:00-01:00.
    moment = value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    tomorrow = dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1)
    if moment < _EARLIEST_MOMENT:
        raise _out_of_range(info, early=True)
    if moment >= dt.datetime.combine(tomorrow, dt.time(), dt.UTC):
        raise _out_of_range(info, early=False)
    return value


# Read from their ISO text also in strict models (JSON has no date type).
BoundedDate = Annotated[dt.date, Strict(False), AfterValidator(_date_in_range)]
BoundedDateTime = Annotated[dt.datetime, Strict(False), AfterValidator(_moment_in_range)]

"""Azure NetApp Files' application volume group for Oracle, as the plan gives it: whether the
plan's layout fits the group, and which of the group's volume specs each planned volume takes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from nasplan.domain.text_types import DbName, VolumeName

# The group's volume specs (ms-anf-avg-oracle-api: volumeSpecName).
VolumeSpec = Literal[
    "ora-data1",
    "ora-data2",
    "ora-data3",
    "ora-data4",
    "ora-data5",
    "ora-data6",
    "ora-data7",
    "ora-data8",
    "ora-log",
    "ora-log-mirror",
    "ora-binary",
    "ora-backup",
]


class GroupMember(BaseModel):
    model_config = ConfigDict(frozen=True)

    volume: VolumeName
    spec: VolumeSpec


class VolumeGroupPlan(BaseModel):
    """The group when the layout fits it (``members``), or why it does not (``not_used``)."""

    model_config = ConfigDict(frozen=True)

    application_identifier: DbName = Field(description="The Oracle SID the group is named for.")
    members: list[GroupMember] = Field(
        default_factory=list, description="Each planned volume with the spec it takes."
    )
    not_used: list[str] = Field(
        default_factory=list,
        description="Why the plan's layout does not fit the group; empty when it does.",
    )

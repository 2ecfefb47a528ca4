"""Azure NetApp Files: whether the plan's layout fits an application volume group for Oracle,
and which of the group's specs each volume takes (ANF-AVG-ORACLE).

The group needs a datafile volume and an online redo log volume apart, the Oracle SID as its
identifier (3 to 12 characters), and at most eight data volumes; it takes one log mirror,
binary and backup volume each (ms-anf-avg-oracle-api). The plan's volumes map onto it by what
they hold: datafiles to ora-data1, online redo logs (with the control files) to ora-log,
archived redo logs to ora-backup (Microsoft's layout keeps archive logs and backups there),
ORACLE_HOME to ora-binary.
"""

from __future__ import annotations

from typing import get_args

from nasplan.domain.plan import Finding, Volume
from nasplan.domain.platform import Platform
from nasplan.domain.volume_group import GroupMember, VolumeGroupPlan, VolumeSpec

SID_LENGTH = (3, 12)
_SPEC_BY_ROLE: dict[str, VolumeSpec] = {
    "redo": "ora-log",
    "archive": "ora-backup",
    "oracle_home": "ora-binary",
}


# Datafile volumes take ora-data1, ora-data2, ... in turn (more than the group has: none).
_DATA_SPECS: tuple[VolumeSpec, ...] = tuple(
    spec for spec in get_args(VolumeSpec) if spec.startswith("ora-data")
)


def _members(volumes: list[Volume]) -> tuple[list[GroupMember], list[str]]:
    members: list[GroupMember] = []
    reasons: list[str] = []
    data_seen = 0
    for volume in volumes:
        spec = _SPEC_BY_ROLE.get(volume.role)
        if volume.role == "data":
            data_seen += 1
            spec = _DATA_SPECS[data_seen - 1] if data_seen <= len(_DATA_SPECS) else None
        if "data" in volume.holds and "redo" in volume.holds:
            reasons.append(
                f"{volume.name} holds the datafiles and the redo logs together; the group "
                "needs them on a data volume and a log volume"
            )
        elif spec is None:
            reasons.append(f"{volume.name} ({volume.role}) has no volume spec in the group")
        else:
            members.append(GroupMember(volume=volume.name, spec=spec))
    specs = {m.spec for m in members}
    if not reasons and not {"ora-data1", "ora-log"} <= specs:
        reasons.append("the group needs a data volume and a log volume")
    return members, reasons


def volume_group_plan(
    platform: Platform, volumes: list[Volume], rule_id: str
) -> tuple[VolumeGroupPlan, list[Finding]]:
    sid = platform.layout.db_name
    members, reasons = _members(volumes)
    low, high = SID_LENGTH
    if not low <= len(sid) <= high:
        reasons.append(
            f"the group's identifier is the Oracle SID, {low} to {high} characters; "
            f"{sid} has {len(sid)}"
        )
    if reasons:
        group = VolumeGroupPlan(application_identifier=sid, not_used=reasons)
        message = (
            "The volumes are created one by one, not as an application volume group for "
            "Oracle: " + "; ".join(reasons) + "."
        )
    else:
        group = VolumeGroupPlan(application_identifier=sid, members=members)
        message = (
            f"The bundle also carries the volumes as an application volume group for Oracle "
            f"{sid}, an alternative to creating them one by one: "
            + ", ".join(f"{m.volume} as {m.spec}" for m in members)
            + ". The group needs a manual QoS capacity pool and, in a region with availability "
            "zones, the database VM's zone."
        )
    return group, [Finding(severity="info", rule=rule_id, message=message)]

"""Which Oracle files an NFS line of a pasted mount table carries.

Real mount tables do not use nasplan's mount points, so each line is matched to a file role
from, in order: what the user says lives there, the planned mount point, then words in the
mount point, the export path and the volume name (oradata, redo, arch, ...). The reason is
kept so the page can show it and the user can correct it.

The word patterns are alternations of fixed words with one-character borders, so a search is
linear in the text; like the parsers, it reads no text longer than ``MAX_LINE_CHARS`` (a mount
point or device that long comes from no real line, and names nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from nasplan.audit.parsers import MAX_LINE_CHARS, MountEntry
from nasplan.domain.plan import Mount, Plan
from nasplan.domain.vocabulary import Role

# Words that name a file role in paths and volume names, most specific first. "log" alone is
# redo only when nothing else matched (alert logs and "oralog" are both common).
_WORDS: list[tuple[Role, re.Pattern[str]]] = [
    ("crs", re.compile(r"(^|[^a-z])(crs|ocr|grid)([^a-z]|$)|vot(e|ing)|shared_config")),
    (
        "backup",
        re.compile(
            r"(backup|bkup|rman|dpump|datapump|data_pump|expdp|imagecopy|image_copy"
            r"|(^|[^a-z])(bak|dumps?)([^a-z]|$))"
        ),
    ),
    ("archive", re.compile(r"(arch|archive|oraarch|arc_?log|fra)")),
    ("redo", re.compile(r"(redo|origlog|mirrlog|onlinelog|oralog|(^|[^a-z])logs?([^a-z]|$))")),
    ("control", re.compile(r"(ctl|control)")),
    (
        "oracle_home",
        re.compile(
            r"(orahome|oracle_home|dbhome|db_home|/product|/app/oracle"
            r"|(^|[^a-z])bin(aries|ary|y)?([^a-z]|$))"
        ),
    ),
    # "data" begins "dataguard" (a Data Guard staging share) and ends "metadata": neither
    # holds data files.
    ("data", re.compile(r"(oradata|sapdata|(?<!meta)data(?!guard)|dbf|datafile)")),
]


# A Grid Infrastructure home or base under an Oracle base (/u01/app/19.0.0/grid, /u01/app/grid:
# Oracle's Optimal Flexible Architecture) holds programs, not the cluster's registry and voting
# files, though "grid" alone names those (a /u02/grid mount). "shared_config" above is where the
# oracle-base RAC-on-NFS builds put the registry and voting files.
_GRID_HOME = re.compile(r"(^|[^a-z])grid([^a-z]|$)")
_UNDER_APP = "/app/"


# Bare OFA mount points (/u01, /u02, ...). Together, /u01, /u02 and /u03 are the layout of
# NetApp's Oracle reports (TR-4987, TR-4992: binaries, data files, logs), and /u01 is where
# Oracle's Optimal Flexible Architecture puts the Oracle base (/u01/app/oracle).
_OFA_POINT = re.compile(r"^/u0[1-9]$")
_OFA_TRIO: dict[str, Role] = {"/u01": "oracle_home", "/u02": "data", "/u03": "redo"}


# Words that name what is not Oracle's (tools, scripts, software depots): such a line is read
# as "other" unless a word above named an Oracle file first.
_NOT_ORACLE = re.compile(
    r"(^|[^a-z])(tools?|scripts?|software|media|installers?|staging)([^a-z]|$)"
)


# What a user may say a mount holds: a file role (backup: RMAN backups, Data Pump dumps), or
# "other" (exports, tools, anything that is not Oracle's).
DeclaredRole = Literal[
    "data", "redo", "control", "archive", "oracle_home", "crs", "backup", "other"
]


# What a role rests on, from the surest to the least sure: the user's answer, the planned mount
# point, a word in the mount point or export, an inference from the rest of the paste, or
# nothing (the page asks).
RoleBasis = Literal["yours", "planned", "named", "inferred", "unknown"]


@dataclass(frozen=True)
class RoleGuess:
    role: Role | None
    reason: str
    planned: Mount | None
    basis: RoleBasis
    other: bool = False


def planned_mount_for(plan: Plan, role: Role) -> Mount | None:
    """The planned mount that carries a role (its own mount first, then a shared one)."""
    own = next((m for m in plan.mounts if m.role == role), None)
    return own or next((m for m in plan.mounts if role in m.serves), None)


def guess_role(
    entry: MountEntry,
    plan: Plan,
    declared: dict[str, list[DeclaredRole]],
    sole_line: bool = False,
    neighbours: frozenset[str] = frozenset(),
) -> RoleGuess:
    """``sole_line``: the line is the only NFS mount its paste shows; ``neighbours``: the
    mount points of every NFS line of the paste."""
    point = entry.mount_point.rstrip("/") or "/"
    given = declared.get(point) or declared.get(entry.mount_point)
    if given:
        reason = f"you said {point} holds {', '.join(given)}"
        roles = [r for r in given if r != "other"]
        if not roles:
            return RoleGuess(None, reason, None, "yours", other=True)
        role: Role = roles[0]
        return RoleGuess(role, reason, planned_mount_for(plan, role), "yours")
    for mount in plan.mounts:
        if mount.mount_point == point:
            reason = f"{point} is the planned {mount.role} mount point"
            return RoleGuess(mount.role, reason, mount, "planned")
    for where, text in (("mount point", point), ("export", entry.device)):
        if len(text) > MAX_LINE_CHARS:
            continue
        lowered = text.lower()
        if where == "mount point" and _UNDER_APP in lowered and _GRID_HOME.search(lowered):
            return RoleGuess(
                "oracle_home",
                f"the mount point {text} is a Grid Infrastructure home under an Oracle base, "
                "which holds programs",
                planned_mount_for(plan, "oracle_home"),
                "named",
            )
        for role, pattern in _WORDS:
            if pattern.search(lowered):
                return RoleGuess(
                    role,
                    f"the {where} {text} names {role.replace('_', ' ')} files",
                    planned_mount_for(plan, role),
                    "named",
                )
    trio = {p for p in neighbours if _OFA_POINT.match(p)}
    if point in _OFA_TRIO and set(_OFA_TRIO) <= trio:
        ofa_role = _OFA_TRIO[point]
        return RoleGuess(
            ofa_role,
            f"{point} beside /u01, /u02 and /u03: the layout of NetApp's Oracle reports puts "
            f"the binaries, the data files and the logs there, so {point} holds "
            f"{ofa_role.replace('_', ' ')} files; say so if yours differ",
            planned_mount_for(plan, ofa_role),
            "inferred",
        )
    crs = next((m for m in plan.mounts if m.role == "crs"), None)
    if sole_line and plan.platform.oracle.rac and crs is not None:
        # A cluster keeps its registry and voting files on shared storage; where the plan puts
        # them on NFS and the paste shows one NFS mount, that mount is the shared storage, and
        # the Clusterware files are the most demanding of what it holds.
        return RoleGuess(
            "crs",
            f"{point} is the only NFS mount of a RAC node, so it holds the Clusterware files "
            "(with whatever else is shared); say so if they are elsewhere",
            crs,
            "inferred",
        )
    if len(point) <= MAX_LINE_CHARS and (match := _NOT_ORACLE.search(point.lower())):
        return RoleGuess(
            None,
            f"the mount point {point} names {match.group(2)}, not Oracle files",
            None,
            "named",
            other=True,
        )
    reason = f"nothing in {point} or {entry.device} names an Oracle file"
    return RoleGuess(None, reason, None, "unknown")

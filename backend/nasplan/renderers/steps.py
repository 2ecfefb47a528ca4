"""One step of carrying out a plan: shared by the bundle's command files and the runbook."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

Phase = Literal["prereq", "network", "filer", "host", "oracle", "verify", "rollback"]
Requires = Literal["none", "online", "remount", "reboot", "instance_restart"]
# Where a step stands in the database outage: it stops the database, starts it, or stops and
# starts one instance at a time.
OutageMark = Literal["stop", "start", "rolling"]

PHASES: list[tuple[Phase, str]] = [
    ("prereq", "Prerequisites and pre-checks"),
    ("network", "Network"),
    ("filer", "Filer"),
    ("host", "Host"),
    ("oracle", "Oracle"),
    ("verify", "Verification"),
    ("rollback", "Rollback"),
]

REQUIRES_TEXT: dict[str, str] = {
    "none": "nothing: it changes nothing",
    "online": "nothing: takes effect at once",
    "remount": "remount: applies to NFS mounts made after the change",
    "reboot": "reboot of the host",
    "instance_restart": "a database restart: the stop and start steps of its phase",
}
_REQUIRES_ORDER = ["none", "online", "remount", "instance_restart", "reboot"]

# nasplan's own judgement of what can go wrong, by what the change needs.
RISK_BY_REQUIRES: dict[str, str] = {
    "none": "None: reads only.",
    "online": "Low: takes effect at once and can be set back the same way.",
    "remount": "Medium: mounted file systems keep the old behaviour until they are mounted "
    "again, which needs the database down.",
    "instance_restart": "Medium: takes effect only when the instance restarts; plan the restart.",
    "reboot": "High: needs a reboot; a wrong kernel or driver line can stop the host from "
    "booting, so keep the copies the script saves and a console at hand.",
}


def strongest(requires: Sequence[str]) -> Requires:
    known = [r for r in requires if r in _REQUIRES_ORDER]
    if not known:
        return "online"
    value = max(known, key=_REQUIRES_ORDER.index)
    return value  # type: ignore[return-value]


@dataclass
class Step:
    phase: Phase
    who: str
    title: str
    commands: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    expect: str = ""
    requires: Requires = "online"
    risk: str = ""
    notes: list[str] = field(default_factory=list)
    manual: bool = False
    file: str | None = None
    language: str = "sh"
    outage: OutageMark | None = None
    # The database opens on the new volumes here: backing out after it loses what it changed.
    no_return: bool = False

    def risk_text(self) -> str:
        return self.risk or RISK_BY_REQUIRES[self.requires]

"""As built versus approved: what the bundle's verify script found on a host, item by item
against the revision's plan.

The report is the output of ``verify/verify_host.sh`` (``--report FILE`` writes it with a
header naming the host): lines that start with PASS, FAIL or CHECK. Each planned item is
``verified`` when its PASS line is there, ``differs`` when its FAIL line is, and
``not_checked`` when the script printed neither (or cannot see the item at all). What the host
showed is kept to its first ``MAX_FOUND_CHARS`` characters: the report is the client's text.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from nasplan.domain.plan import Plan
from nasplan.renderers.common import BundleMeta, facts
from nasplan.renderers.verify_host import host_expectations

Status = Literal["verified", "differs", "not_checked"]
_HOST = re.compile(r"^# host: (?P<host>[A-Za-z0-9._-]{1,253})\s*$")
_RESULT = re.compile(r"^(?P<status>PASS|FAIL|CHECK) (?P<text>.*)$")
MAX_FOUND_CHARS = 1000


class AsBuiltItem(BaseModel):
    item: str
    status: Status
    found: str | None = Field(default=None, description="What the host showed, when it differs.")


class AsBuiltResult(BaseModel):
    host: str | None
    counts: dict[Status, int]
    items: list[AsBuiltItem]
    unreadable_lines: int = Field(description="Report lines that were not PASS, FAIL or CHECK.")


def compare_verify_report(plan: Plan, report: str) -> AsBuiltResult:
    passed: set[str] = set()
    failed: list[str] = []
    host: str | None = None
    unreadable = 0
    for raw in report.splitlines():
        line = raw.rstrip("\r")
        if match := _HOST.match(line):
            host = match["host"]
        elif match := _RESULT.match(line):
            if match["status"] == "PASS":
                passed.add(match["text"])
            elif match["status"] == "FAIL":
                failed.append(match["text"])
        elif line.strip() and not line.startswith(("#", "==", "--", "$", "   ", "summary:")):
            unreadable += 1
    missing_mounts = {
        text.removesuffix(": no NFS mount found")
        for text in failed
        if text.endswith(": no NFS mount found")
    }
    items: list[AsBuiltItem] = []
    for expected in host_expectations(facts(plan, BundleMeta())):
        if expected.unseen:
            items.append(AsBuiltItem(item=expected.item, status="not_checked"))
        # A minimum's PASS line adds the value in effect: "key = 262144 or more (now ...)".
        elif expected.item in passed or any(p.startswith(f"{expected.item} (") for p in passed):
            items.append(AsBuiltItem(item=expected.item, status="verified"))
        elif expected.group and expected.group in missing_mounts:
            items.append(
                AsBuiltItem(item=expected.item, status="differs", found="no NFS mount found")
            )
        else:
            found = next((t for t in failed if t.startswith(expected.fail_prefix)), None)
            items.append(
                AsBuiltItem(item=expected.item, status="differs", found=_shortened(found))
                if found is not None
                else AsBuiltItem(item=expected.item, status="not_checked")
            )
    counts: dict[Status, int] = {"verified": 0, "differs": 0, "not_checked": 0}
    for item in items:
        counts[item.status] += 1
    return AsBuiltResult(host=host, counts=counts, items=items, unreadable_lines=unreadable)


def _shortened(text: str) -> str:
    return text if len(text) <= MAX_FOUND_CHARS else text[: MAX_FOUND_CHARS - 1] + "…"

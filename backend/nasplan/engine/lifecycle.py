"""Support lifecycle and certification findings: the platform's releases against
``knowledge/lifecycle.yaml`` on the plan's date.

Only what the table holds is judged: a release with no entry gets no finding, never a guess.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from nasplan.domain.plan import Finding
from nasplan.domain.vocabulary import Severity
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.lifecycle import Certification, LifecycleEntry
from nasplan.knowledge.resolve import ResolvedPlatform
from nasplan.knowledge.schema import SourceRef
from nasplan.knowledge.versions import in_catalog_range, oracle_version


def matching_entries(kb: KnowledgeBase, resolved: ResolvedPlatform) -> list[LifecycleEntry]:
    """The entries for the platform's Oracle release, host OS release and filer release."""
    platform = resolved.platform
    found: list[LifecycleEntry] = []
    for entry in kb.lifecycle.releases:
        if entry.product == "oracle":
            hit = entry.match is not None and in_catalog_range(resolved.oracle_version, entry.match)
        elif entry.product == "os":
            hit = entry.os == platform.host.os and resolved.os_release.id in entry.os_releases
        else:
            hit = (
                entry.family == resolved.filer_family.id
                and resolved.filer_version is not None
                and entry.match is not None
                and in_catalog_range(resolved.filer_version, entry.match)
            )
        if hit:
            found.append(entry)
    return found


@dataclass(frozen=True)
class NotYetReleased:
    """A release of the platform that did not exist yet on the plan's date."""

    label: str
    available: str  # "on 25 April 2019", "in January 2024"


def not_yet_released(kb: KnowledgeBase, resolved: ResolvedPlatform) -> list[NotYetReleased]:
    """The platform's releases first released after its date: a plan for that day describes
    a platform nobody could have built then."""
    return [
        NotYetReleased(entry.label, entry.available.with_preposition)
        for entry in matching_entries(kb, resolved)
        if entry.available is not None and resolved.as_of < entry.available.earliest
    ]


def lifecycle_findings(
    kb: KnowledgeBase, resolved: ResolvedPlatform, rule_id: str
) -> list[Finding]:
    day = resolved.as_of
    findings: list[Finding] = []
    for entry in matching_entries(kb, resolved):
        message = judge_release(kb, entry, day)
        if message is not None:
            severity, text = message
            findings.append(Finding(severity=severity, rule=rule_id, message=text))
    return findings


def judge_release(
    kb: KnowledgeBase, entry: LifecycleEntry, day: dt.date
) -> tuple[Severity, str] | None:
    """The finding for one release on one day: none while in standard support."""
    cite = _cite(kb, entry.sources, entry.confidence)
    note = f" {entry.note}" if entry.note else ""
    if entry.available is not None and day < entry.available.earliest:
        return (
            "error",
            f"{entry.label} was first released {entry.available.with_preposition}; on "
            f"{day.isoformat()} it did not exist yet. Choose a release available then, or plan "
            f"for a later date ({cite}).",
        )
    standard, extended = entry.standard, entry.extended
    if standard is None or day <= standard.ends.latest:
        return None
    if extended is not None and day <= extended.ends.latest:
        return (
            "info",
            f"{entry.label} left {entry.vendor}'s {standard.name} after {standard.ends}; on "
            f"{day.isoformat()} it has {extended.name} only, until {extended.ends}.{note} "
            f"({cite}).",
        )
    last = extended or standard
    return (
        "warning",
        f"{entry.label} is past the end of {entry.vendor}'s {last.name} ({last.ends}): on "
        f"{day.isoformat()} the vendor no longer fixes it. Plan the move to a supported "
        f"release with this change, or record why the risk is accepted.{note} ({cite}).",
    )


def certification_findings(
    kb: KnowledgeBase, resolved: ResolvedPlatform, rule_id: str
) -> list[Finding]:
    findings: list[Finding] = []
    for cert in kb.lifecycle.certification:
        if cert.os != resolved.platform.host.os or not in_catalog_range(
            resolved.oracle_version, cert.oracle
        ):
            continue
        message = _certification_message(kb, cert, resolved)
        if message is not None:
            findings.append(Finding(severity="error", rule=rule_id, message=message))
    return findings


def _certification_message(
    kb: KnowledgeBase, cert: Certification, resolved: ResolvedPlatform
) -> str | None:
    release_id, os_label = resolved.os_release.id, resolved.os_release.label
    cite = _cite(kb, cert.sources, cert.confidence)
    if release_id in cert.not_certified:
        return (
            f"{cert.oracle_label} is not certified on {os_label}: its installation guide lists "
            f"{cert.listed}. Choose one of those, or an Oracle release certified on "
            f"{os_label} ({cite})."
        )
    minimum = cert.minimum_oracle.get(release_id)
    if minimum is not None and resolved.oracle_version < oracle_version(minimum):
        return (
            f"{cert.oracle_label} is certified on {os_label} from {minimum} on; "
            f"{resolved.platform.oracle.version} is older. Plan {minimum} or later ({cite})."
        )
    return None


def _cite(kb: KnowledgeBase, refs: list[SourceRef], confidence: str) -> str:
    labels = [kb.sources[ref.id].number or kb.sources[ref.id].title for ref in refs]
    cited = f"{'sources' if len(labels) > 1 else 'source'}: {'; '.join(labels)}"
    return cited + (" (secondary)" if confidence == "secondary" else "")

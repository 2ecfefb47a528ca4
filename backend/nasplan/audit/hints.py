"""What the pasted files say about the platform, where that disagrees with the one described.

The audit compares against the plan for the platform the user gave; a Solaris vfstab audited as
Linux, or a 7-mode `options nfs` audited against ONTAP 9, would give findings that do not apply.
These hints say so, in words, and suggest the answer to change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextlib import suppress

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion
from pydantic import BaseModel, Field, PrivateAttr

from nasplan.audit.detect import guess_oracle_release
from nasplan.audit.filer_signs import export_sign
from nasplan.audit.kinds import implied_os, spec_of
from nasplan.audit.parsers import Parameter
from nasplan.audit.suggestion_check import compatible_suggestions
from nasplan.audit.suggestions import PlatformSuggestion
from nasplan.domain.plan import Plan
from nasplan.domain.platform import FilerVendor, Platform
from nasplan.domain.text_types import ORACLE_VERSION_PATTERN
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import OracleRelease
from nasplan.knowledge.versions import in_range, oracle_version
from nasplan.renderers.common import filer_family

_FAMILY_WORDS = {"ontap7": "Data ONTAP 7-mode", "ontap_cluster": "clustered ONTAP"}


def _platform_release(kb: KnowledgeBase, platform: Platform) -> str | None:
    try:
        version = oracle_version(platform.oracle.version)
    except InvalidVersion:
        return None
    return next(
        (r.id for r in kb.oracle.releases if in_range(version, SpecifierSet(r.range))), None
    )


class PlatformHints(BaseModel):
    messages: list[str] = Field(default_factory=list)
    suggestions: list[PlatformSuggestion] = Field(default_factory=list)

    def add(self, message: str, suggestion: PlatformSuggestion) -> None:
        self.messages.append(message)
        # Two pastes pointing one field at two values suggest neither.
        clash = [s for s in self.suggestions if s.field == suggestion.field]
        if any(s.value != suggestion.value for s in clash):
            self.suggestions = [s for s in self.suggestions if s.field != suggestion.field]
            self._clashed.add(suggestion.field)
        elif not clash and suggestion.field not in self._clashed:
            self.suggestions.append(suggestion)

    _clashed: set[str] = PrivateAttr(default_factory=set)


def release_version(release: OracleRelease, compatible: str, examples: list[str]) -> str:
    """A version inside the release's range to put in the platform: compatible itself when it
    is a full version there, else the catalog's example for the release, else its lower bound."""
    spec = SpecifierSet(release.range)
    candidates = [compatible] if re.fullmatch(ORACLE_VERSION_PATTERN, compatible) else []
    for example in [*candidates, *examples]:
        with suppress(InvalidVersion):
            if in_range(oracle_version(example), spec):
                return example
    lower: list[str] = [s.version for s in spec if s.operator == ">="]
    return lower[0] if lower else release.id


def _compatible(params: list[Parameter]) -> str:
    value = next((p.value for p in params if p.name.lower() == "compatible"), "")
    return value.strip().strip("'\"")


def _latest_known(kb: KnowledgeBase, vendor: FilerVendor, family: str) -> str | None:
    entry = kb.filers.vendors.get(vendor)
    if entry is None:
        return None
    known: list[str] = next((f.known for f in entry.families if f.id == family), [])
    return known[-1] if known else None


def _family_hint(
    kb: KnowledgeBase,
    hints: PlatformHints,
    platform: Platform,
    family: str,
    wanted: str,
    what: str,
    why: str,
    because: str = "",
) -> None:
    """A hint (and, where the catalog knows a release, a suggestion) when ``what`` comes from
    another NetApp family than the platform's filer runs; ``why`` starts the suggestion's
    reason, ``because`` is the evidence, if any."""
    if family not in _FAMILY_WORDS or wanted not in _FAMILY_WORDS or wanted == family:
        return
    words = _FAMILY_WORDS[wanted]
    message = (
        f"{what} {'point to' if because else 'comes from'} {words}"
        + (f" ({because})" if because else "")
        + f", but the platform's filer runs {_FAMILY_WORDS[family]}: check the filer's "
        "software release."
    )
    release = _latest_known(kb, platform.filer.vendor, wanted)
    if release is None:
        hints.messages.append(message)
        return
    hints.add(
        message,
        PlatformSuggestion(
            field="filer.os_version",
            value=release,
            label=f"{words} {release}",
            reason=f"{why}; the latest {words} release in the catalog is suggested, adjust it "
            "to the one that runs.",
        ),
    )


def platform_hints(
    kb: KnowledgeBase,
    plan: Plan,
    kinds: Iterable[str],
    params: list[Parameter],
    devices: Iterable[str] = (),
) -> PlatformHints:
    """What the pastes say about the platform where it differs from the one described: a
    sentence each, and the answer to change where the paste determines it. ``kinds`` are the
    pasted file kinds, ``params`` the Oracle parameters the audit read from them, ``devices``
    the NFS devices (server:/path) of the pasted mount tables."""
    platform = plan.platform
    family = filer_family(plan)
    hints = PlatformHints()
    os_name = platform.host.os
    for kind in kinds:
        implied = implied_os(kind)
        if implied is not None and implied != os_name:
            label = kb.os[implied].label
            hints.add(
                f"The pasted {kind} comes from {label}, but the platform's host "
                f"runs {kb.os[os_name].label}: set the host's operating system to match for "
                "findings that apply.",
                PlatformSuggestion(
                    field="host.os",
                    value=implied,
                    label=label,
                    reason=f"{kind} is a {label} file; choose the release after applying.",
                ),
            )
        spec = spec_of(kind)
        wanted_family = spec.implies_filer_family if spec is not None else None
        if wanted_family is not None:
            _family_hint(
                kb,
                hints,
                platform,
                family,
                wanted_family,
                f"The pasted {kind}",
                f"{kind} is {_FAMILY_WORDS.get(wanted_family, '')} output",
            )
    sign = export_sign(kb, devices)
    if sign is not None and sign.vendor == platform.filer.vendor:
        _family_hint(
            kb,
            hints,
            platform,
            family,
            sign.family,
            "The pasted mounts",
            f"the mounts' export paths are named as {_FAMILY_WORDS.get(sign.family, '')} "
            "names its exports",
            because=sign.evidence,
        )
    pasted = guess_oracle_release(params, kb.oracle)
    planned = _platform_release(kb, platform)
    if pasted is not None and planned is not None and pasted != planned:
        found = next(r for r in kb.oracle.releases if r.id == pasted)
        hints.add(
            f"compatible in the pasted parameters points to {found.label} or later, but the "
            f"platform says Oracle {platform.oracle.version}: check the Oracle release "
            "(compatible may stay lower than the software after an upgrade).",
            PlatformSuggestion(
                field="oracle.version",
                value=release_version(found, _compatible(params), kb.oracle.examples),
                label=found.label,
                reason="compatible is at least this release; the software may be newer.",
            ),
        )
    kept, withheld = compatible_suggestions(kb, plan, hints.suggestions)
    for suggestion in hints.suggestions:
        if suggestion.field not in withheld:
            continue
        rules = sorted(withheld[suggestion.field])
        why = (
            "; ".join(f"{rule}: {kb.rules[rule].title}" for rule in rules if rule in kb.rules)
            or "the platform it gives is not valid"
        )
        hints.messages.append(
            f"{suggestion.label} is not offered to apply: with the other answers it gives a "
            f"platform the knowledge base refuses ({why}). Change those answers first."
        )
    hints.suggestions = kept
    return hints

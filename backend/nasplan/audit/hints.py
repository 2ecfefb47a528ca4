"""What the pasted files say about the platform, where that disagrees with the one described.

The audit compares against the plan for the platform the user gave; a Solaris vfstab audited as
Linux, or a 7-mode `options nfs` audited against ONTAP 9, would give findings that do not apply.
These hints say so, in words, and suggest the answer to change.
"""

from __future__ import annotations

from collections.abc import Mapping

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion

from nasplan.audit.detect import guess_oracle_release, guess_os
from nasplan.audit.outputs import parse_show_parameter, parse_spfile_text
from nasplan.audit.parsers import Parameter, parse_init_ora
from nasplan.domain.plan import Plan
from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.versions import in_range, oracle_version
from nasplan.renderers.common import filer_family

_FAMILY_OF_KIND = {
    "vol_options": "ontap7",
    "options_nfs": "ontap7",
    "ontap_fields": "ontap_cluster",
}
_FAMILY_WORDS = {"ontap7": "Data ONTAP 7-mode", "ontap_cluster": "clustered ONTAP"}


def _platform_release(kb: KnowledgeBase, platform: Platform) -> str | None:
    try:
        version = oracle_version(platform.oracle.version)
    except InvalidVersion:
        return None
    return next(
        (r.id for r in kb.oracle.releases if in_range(version, SpecifierSet(r.range))), None
    )


def platform_hints(kb: KnowledgeBase, plan: Plan, files: Mapping[str, str]) -> list[str]:
    platform = plan.platform
    family = filer_family(plan)
    hints: list[str] = []
    os_name = platform.host.os
    for kind in files:
        implied = guess_os(kind)
        if implied is not None and implied != os_name:
            hints.append(
                f"The pasted {kind} comes from {kb.os[implied].label}, but the platform's host "
                f"runs {kb.os[os_name].label}: set the host's operating system to match for "
                "findings that apply."
            )
        wanted_family = _FAMILY_OF_KIND.get(kind)
        if wanted_family is not None and family in _FAMILY_WORDS and wanted_family != family:
            hints.append(
                f"The pasted {kind} comes from {_FAMILY_WORDS[wanted_family]}, but the platform's "
                f"filer runs {_FAMILY_WORDS[family]}: check the filer's software release."
            )
    params: list[Parameter] = []
    for kind, parser in (
        ("init.ora", parse_init_ora),
        ("spfile", parse_spfile_text),
        ("show_parameter", parse_show_parameter),
    ):
        if kind in files:
            params += parser(files[kind]).items
    pasted = guess_oracle_release(params, kb.oracle)
    planned = _platform_release(kb, platform)
    if pasted is not None and planned is not None and pasted != planned:
        label = next((r.label for r in kb.oracle.releases if r.id == pasted), pasted)
        hints.append(
            f"compatible in the pasted parameters points to {label} or later, but the platform "
            f"says Oracle {platform.oracle.version}: check the Oracle release (compatible may "
            "stay lower than the software after an upgrade)."
        )
    return hints

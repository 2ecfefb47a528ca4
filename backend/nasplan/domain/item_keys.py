"""The name of each mount, setting and finding of a plan: what a plan diff's ``key`` says, what
a review item points at, and what the plan view serves beside each item so no client rebuilds it.
"""

from __future__ import annotations

from nasplan.domain.plan import Finding, Mount, Setting


def mount_key(m: Mount) -> str:
    return f"{'+'.join(m.serves)} {m.mount_point}"


def setting_key(s: Setting) -> str:
    where = f" [{', '.join(s.applies_to)}]" if s.applies_to else ""
    scope = f" ({s.scope})" if s.scope else ""
    return f"{s.target} {s.key}{where}{scope}"


def finding_key(f: Finding) -> str:
    return f"{f.rule}: {f.message}"

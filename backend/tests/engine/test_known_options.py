"""The planner's known_mount_options check (LNX-MNT-KNOWN-OPTIONS): an option the OS release's
NFS client does not take would fail the mount, so a plan that composed one says so as an error.
Loading refuses a catalog that gives Linux such an option, so the check is shown here on a
composition made by hand."""

from __future__ import annotations

from nasplan.engine.compose import Composition, OptionContribution
from nasplan.engine.findings import _check_option_names
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import preset_platform


def test_an_option_the_client_does_not_take_is_an_error(kb: KnowledgeBase) -> None:
    rule = kb.rules["LNX-MNT-KNOWN-OPTIONS"]
    platform = preset_platform(kb, "current-linux-ontap")
    written = [OptionContribution("data", option, rule) for option in ("rw", "hard", "vers=3")]
    assert _check_option_names(kb, platform, Composition(written, []), rule) == []
    odd = [*written, OptionContribution("data", "forcedirectio", rule)]
    findings = _check_option_names(kb, platform, Composition(odd, []), rule)
    assert [(f.severity, f.rule) for f in findings] == [("error", "LNX-MNT-KNOWN-OPTIONS")]
    assert "forcedirectio" in findings[0].message
    # Solaris takes forcedirectio, and its client list is not in the catalog: nothing to say.
    solaris = preset_platform(kb, "tr3322-lab")
    assert _check_option_names(kb, solaris, Composition(odd, []), rule) == []

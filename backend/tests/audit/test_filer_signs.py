"""The filer family that pasted mounts point to, from their export paths (issue 24: a 7-mode
fstab judged against clustered ONTAP)."""

from __future__ import annotations

import pytest

from nasplan.audit.compare import audit
from nasplan.audit.filer_signs import export_sign
from nasplan.audit.kinds import FileKind
from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase

SEVEN_MODE_FSTAB = (
    "filer01:/vol/oradata /u02/oradata nfs rw,bg,hard,vers=3,tcp,rsize=32768,wsize=32768 0 0\n"
    "filer01:/vol/oralog /u03/oralog nfs rw,bg,hard,vers=3,tcp 0 0\n"
)


@pytest.mark.parametrize(
    ("devices", "family"),
    [
        (["filer01:/vol/oradata", "filer01:/vol/oralog/q1"], "ontap7"),
        (["filer01:/vol/oradata", "svm1:/ora_log"], None),  # the paths disagree
        (["zfssa1:/export/oradata"], None),  # two families share /export/
        (["svm1:/ora_data"], None),  # the root prefix says nothing
        (["/dev/sdb1", "tmpfs"], None),  # no NFS device
    ],
)
def test_one_family_only_when_every_path_shows_it(
    kb: KnowledgeBase, devices: list[str], family: str | None
) -> None:
    sign = export_sign(kb, devices)
    assert (sign.family if sign else None) == family


def test_a_7_mode_fstab_against_clustered_ontap_suggests_the_7_mode_release(
    kb: KnowledgeBase,
) -> None:
    platform = Platform.model_validate(kb.presets["current-linux-ontap"].platform)
    report = audit(kb, platform, {"fstab": SEVEN_MODE_FSTAB})
    (suggestion,) = [s for s in report.platform_suggestions if s.field == "filer.os_version"]
    assert suggestion.value == "8.2" and suggestion.label == "Data ONTAP 7-mode 8.2"
    assert any("under /vol/ (/vol/oradata, /vol/oralog)" in h for h in report.platform_hints)


def test_a_7_mode_fstab_against_a_7_mode_filer_says_nothing(kb: KnowledgeBase) -> None:
    data = kb.presets["current-linux-ontap"].platform
    platform = Platform.model_validate(
        {**data, "filer": {**data["filer"], "os_version": "8.1", "interface": "e1a"}}
    )
    report = audit(kb, platform, {"fstab": SEVEN_MODE_FSTAB})
    assert not [s for s in report.platform_suggestions if s.field == "filer.os_version"]
    assert not [h for h in report.platform_hints if "/vol/" in h]


def test_suggestions_apply_together_or_are_withheld_with_the_rule(kb: KnowledgeBase) -> None:
    """The issue's case: an 11.2.0.4 pfile and a 7-mode fstab against the default OL9 / 19c /
    ONTAP 9.14.1 platform: both answers are offered, and applied together the platform plans
    without an error. With NFSv4.1 kept, 7-mode is withheld (NFSv4.1 needs clustered ONTAP)."""
    from nasplan.audit.suggestion_check import apply_suggestions
    from nasplan.engine.planner import make_plan

    data = kb.presets["current-linux-ontap"].platform
    files: dict[FileKind, str] = {
        "fstab": SEVEN_MODE_FSTAB,
        "init.ora": "*.compatible='11.2.0.4'\n*.db_name='PROD'\n",
    }
    report = audit(kb, Platform.model_validate(data), files)
    suggested = {s.field: s.value for s in report.platform_suggestions}
    assert suggested == {"filer.os_version": "8.2", "oracle.version": "11.2.0.4"}
    applied = apply_suggestions(kb, Platform.model_validate(data), report.platform_suggestions)
    assert applied is not None
    assert not [f for f in make_plan(kb, applied).findings if f.severity == "error"]

    v41 = {**data, "oracle": {**data["oracle"], "nfs_version": "4.1", "dnfs": False}}
    report = audit(kb, Platform.model_validate(v41), files)
    assert [s.field for s in report.platform_suggestions] == ["oracle.version"]
    (withheld,) = [h for h in report.platform_hints if "is not offered to apply" in h]
    assert (
        withheld.startswith("Data ONTAP 7-mode 8.2 is not offered") and "COMPAT-NFS41" in withheld
    )

"""The filer family that pasted mounts point to, from their export paths (issue 24: a 7-mode
fstab judged against clustered ONTAP)."""

from __future__ import annotations

import pytest

from nasplan.audit.compare import audit
from nasplan.audit.filer_signs import export_sign
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

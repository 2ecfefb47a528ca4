"""Every host setting the plan lists is written where it survives a reboot (issue 20).

Linux: sysctl files are applied at boot before the sunrpc module is loaded, so its keys
(the RPC slot tables) are kept as module options in /etc/modprobe.d instead.
"""

from __future__ import annotations

import pytest

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from tests.renderers.matrix import AS_OF
from tests.renderers.test_golden import PRESETS

LINUX_PRESETS = ["current-linux-ontap", "current-rac", "example-linux-knfs-7mode"]


def _bundle(kb: KnowledgeBase, preset: str) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    data = kb.presets[preset].platform
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    settings = [(str(s.mechanism), s.key, s.value) for s in plan.settings if s.target == "host"]
    return settings, render_bundle_files(plan)


@pytest.mark.parametrize("preset", [p for p in PRESETS if p in LINUX_PRESETS])
def test_every_linux_sysctl_has_a_file_read_at_boot_or_module_load(
    kb: KnowledgeBase, preset: str
) -> None:
    settings, files = _bundle(kb, preset)
    sysctl_files = [
        text
        for path, text in files.items()
        if path.startswith("host/90-nasplan-") or path == "host/sysctl.conf.add"
    ]
    modprobe = files.get("host/modprobe-options.conf", "")
    sysctls = [(key, value) for mechanism, key, value in settings if mechanism == "sysctl"]
    assert sysctls
    for key, value in sysctls:
        if key.startswith("sunrpc."):
            line = f"options sunrpc {key.removeprefix('sunrpc.')}={value}"
            assert line in modprobe.splitlines(), (preset, key)
            assert all(f"{key} = " not in text for text in sysctl_files), (preset, key)
        else:
            assert any(f"{key} = {value}" in text.splitlines() for text in sysctl_files), (
                preset,
                key,
            )
    tuning = files["host/tuning.sh"]
    if any(key.startswith("sunrpc.") for key, _ in sysctls):
        assert "/etc/modprobe.d/90-nasplan-" in tuning
        rollback = files["rollback/host_rollback.sh"]
        assert "/etc/modprobe.d/90-nasplan-" in rollback
        assert "/etc/modprobe.d/90-nasplan-" in files["verify/verify_host.sh"]

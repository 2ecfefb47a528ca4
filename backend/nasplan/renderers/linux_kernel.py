"""Linux kernel settings written where they survive a reboot.

Boot applies the sysctl files (``/etc/sysctl.d``, or ``/etc/sysctl.conf`` on releases before
systemd) early, before most modules are loaded. A key that a module provides (``sunrpc.*``,
from the module that NFS loads with its first mount) does not exist yet then, so a sysctl file
cannot keep it: its value is a module parameter, kept in ``/etc/modprobe.d`` and applied each
time the module loads. The live value is still set with ``sysctl -w`` once the module is in.
"""

from __future__ import annotations

from dataclasses import dataclass

from nasplan.domain.plan import Setting
from nasplan.renderers.common import Facts, cite, header, linux_reads_sysctl_d

# sysctl prefix -> the module whose parameters those keys are (key = prefix + parameter name).
MODULE_OF_PREFIX = {"sunrpc.": "sunrpc"}


@dataclass(frozen=True)
class ModuleOption:
    module: str
    parameter: str
    setting: Setting

    @property
    def line(self) -> str:
        return f"options {self.module} {self.parameter}={self.setting.value}"


def _module_option(setting: Setting) -> ModuleOption | None:
    for prefix, module in MODULE_OF_PREFIX.items():
        if setting.key.startswith(prefix):
            return ModuleOption(module, setting.key.removeprefix(prefix), setting)
    return None


def linux_sysctls(f: Facts) -> list[Setting]:
    """Every sysctl the plan sets on a Linux host (set live by host/tuning.sh)."""
    return f.settings("sysctl") if f.os == "linux" else []


def boot_sysctls(f: Facts) -> list[Setting]:
    """The sysctls a sysctl file keeps across a reboot (module parameters aside)."""
    return [s for s in linux_sysctls(f) if _module_option(s) is None]


def module_options(f: Facts) -> list[ModuleOption]:
    """The sysctls kept as module parameters in /etc/modprobe.d."""
    found = (_module_option(s) for s in linux_sysctls(f))
    return [option for option in found if option is not None]


def sysctl_target(f: Facts) -> str:
    if linux_reads_sysctl_d(f.plan):
        return f"/etc/sysctl.d/90-nasplan-{f.db_lower}.conf"
    return "/etc/sysctl.conf"


def modprobe_target(f: Facts) -> str:
    return f"/etc/modprobe.d/90-nasplan-{f.db_lower}.conf"


def modprobe_text(f: Facts, options: list[ModuleOption]) -> str:
    """The /etc/modprobe.d file: one ``options`` line per parameter, each led by its rule."""
    target = modprobe_target(f)
    lines = [
        header(
            f,
            f"Module options for {target}: host/tuning.sh installs it. The module reads them "
            "each time it loads, at every boot too (a sysctl file is applied before it is "
            "loaded, so it cannot keep these).",
            [r for o in options for r in o.setting.rules],
        )
    ]
    for option in options:
        lines += [f"# {cite(f.plan, option.setting.rules[0])}", option.line]
    return "\n".join(lines) + "\n"

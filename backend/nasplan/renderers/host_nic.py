"""host/network.sh and the driver .conf lines: the storage interface MTU and NIC driver settings,
in each host OS's own commands and files, kept where they survive a reboot."""

from __future__ import annotations

from dataclasses import dataclass, field

from nasplan.domain.plan import Setting
from nasplan.renderers.common import Facts, cite, header, render_template, rules_of


@dataclass
class _DriverFile:
    path: str
    begin: str
    end: str
    block: str


@dataclass
class _Mtu:
    value: str
    rules: list[str]
    interface: str = ""
    read: str = ""
    set: str = ""
    persist_file: str = ""
    # Linux: keep the MTU in the interface's NetworkManager profile, else its ifcfg file.
    persist_linux: bool = False
    # What to do when the interface refuses the MTU (the script goes on).
    refused: str = ""
    manual: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def storage_interfaces(f: Facts) -> list[str]:
    """The host interfaces that carry NFS: each storage path's where the hand-over names them,
    else the one host interface the platform gives."""
    named = list(dict.fromkeys(p.host_interface for p in f.handover.paths if p.host_interface))
    return named or ([f.host_if] if f.host_if else [])


def mtu_plans(f: Facts, setting: Setting) -> list[_Mtu]:
    """The MTU change for every storage interface (one manual step when none is named)."""
    return [mtu_plan(f, setting, i) for i in storage_interfaces(f)] or [mtu_plan(f, setting)]


def mtu_plan(f: Facts, setting: Setting, interface: str | None = None) -> _Mtu:
    mtu = _Mtu(value=setting.value, rules=setting.rules)
    interface = interface or f.host_if
    if interface is None:
        mtu.manual = [
            f"The platform names no storage interface: set MTU {setting.value} on the interface "
            "that carries NFS traffic (give host.nic_interface to get the commands here)."
        ]
        return mtu
    mtu.interface = interface
    mtu.refused = (
        f"{interface} refused MTU {setting.value} (see the error above): its driver or adapter "
        "must accept jumbo frames first; the rest of this script goes on, run it again after "
        "fixing that."
    )
    release = f.plan.platform.host.os_version
    if f.os == "linux":
        mtu.read = 'cat "/sys/class/net/$IF/mtu"'
        mtu.set = 'ip link set dev "$IF" mtu "$MTU"'
        mtu.persist_linux = True
    elif f.os == "solaris" and release == "11":
        mtu.manual = [
            "Solaris 11 keeps the MTU as a datalink property: Oracle's procedure (Enabling "
            f"Support for Jumbo Frames) is dladm set-linkprop -p mtu={setting.value} on the "
            f"datalink under {interface}, with the IP interfaces over that link removed first "
            "(a busy link refuses the change); nasplan does not remove IP interfaces itself."
        ]
    elif f.os == "solaris":
        mtu.read = (
            'ifconfig "$IF" | nawk \'{ for (i = 1; i < NF; i++) if ($i == "mtu") print $(i + 1) }\''
        )
        mtu.set = 'ifconfig "$IF" mtu "$MTU"'
        mtu.persist_file = f"/etc/hostname.{interface}"
        if interface.startswith("e1000g"):
            mtu.refused = (
                f"{interface} refused MTU {setting.value} (see the error above): the e1000g "
                "driver takes jumbo frames only with MaxFrameSize=3 for this instance in "
                "/kernel/drv/e1000g.conf, read when the driver loads; the rest of this script "
                "goes on, run it again once that is in place."
            )
    elif f.os == "aix":
        mtu.read = 'lsattr -El "$IF" -a mtu -F value'
        mtu.set = 'chdev -l "$IF" -a mtu="$MTU"'
        mtu.notes = [
            "chdev records the MTU in the ODM, so it persists. The Ethernet adapter under "
            f"{interface} must accept jumbo frames first; that adapter attribute depends on the "
            "adapter, and nasplan has no cited command for it."
        ]
    else:
        mtu.manual = [
            f"nasplan has no cited HP-UX command to set MTU {setting.value} on {interface} "
            "persistently: use your release's LAN administration tools, then check the path "
            "with verify/verify_host.sh."
        ]
    return mtu


def network_files(f: Facts) -> dict[str, str]:
    files: dict[str, str] = {}
    driver = f.settings("driver_conf") if f.os == "solaris" else []
    interface = [s for s in f.settings("interface") if s.target == "host" and s.key == "mtu"]
    by_file: dict[str, list[Setting]] = {}
    for s in driver:
        by_file.setdefault(s.scope or "", []).append(s)
    driver_files: list[_DriverFile] = []
    for path, settings in by_file.items():
        block_lines = [f"# BEGIN {f.marker}"]
        for s in settings:
            block_lines += [f"# {cite(f.plan, s.rules[0])}", f"{s.key}={s.value};"]
        block_lines.append(f"# END {f.marker}")
        block = "\n".join(block_lines)
        base = path.rsplit("/", 1)[-1]
        files[f"host/{base}.add"] = (
            header(
                f,
                f"Lines for {path}: host/network.sh adds them; reboot to apply.",
                rules_of(settings),
            )
            + "\n"
            + block
            + "\n"
        )
        driver_files.append(
            _DriverFile(path=path, begin=block_lines[0], end=block_lines[-1], block=block)
        )
    mtus = [m for s in interface for m in mtu_plans(f, s)]
    files["host/network.sh"] = render_template(
        "host_network.sh.j2",
        f=f,
        root=True,
        header=header(
            f,
            "NIC settings: driver configuration and the storage interface MTU.",
            rules_of([*driver, *interface]),
        ),
        path="host/network.sh",
        driver_files=driver_files,
        mtu=mtus,
    )
    return files

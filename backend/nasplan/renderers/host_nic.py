"""host/network.sh and the driver .conf lines: the storage interface MTU and NIC driver settings,
in each host OS's own commands and files, kept where they survive a reboot."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nasplan.domain.plan import Setting
from nasplan.renderers.common import Facts, cite, header, render_template, rules_of
from nasplan.renderers.handover import storage_path_count


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


@dataclass
class _AdapterAttribute:
    """AIX: an attribute of the Ethernet adapter under a storage interface (en1 -> ent1)."""

    interface: str
    adapter: str  # empty when the interface name is not enN
    key: str
    value: str
    rules: list[str]


@dataclass
class _DriverEntry:
    """Solaris: one instance's entry in a driver .conf list that has one value per instance."""

    interface: str
    path: str
    key: str
    value: str
    instance: int | None  # None when the interface name ends in no instance number
    rules: list[str]

    @property
    def position(self) -> int:
        return (self.instance or 0) + 1


def adapter_attributes(f: Facts) -> list[_AdapterAttribute]:
    if f.os != "aix":
        return []
    found = []
    for s in f.settings("aix_adapter"):
        for interface in storage_interfaces(f):
            number = re.fullmatch(r"en(\d+)", interface)
            adapter = f"ent{number.group(1)}" if number else ""
            found.append(_AdapterAttribute(interface, adapter, s.key, s.value, s.rules))
    return found


def driver_entries(f: Facts) -> list[_DriverEntry]:
    if f.os != "solaris":
        return []
    found = []
    for s in f.settings("driver_conf_entry"):
        for interface in storage_interfaces(f):
            number = re.search(r"(\d+)$", interface)
            instance = int(number.group(1)) if number else None
            found.append(_DriverEntry(interface, s.scope or "", s.key, s.value, instance, s.rules))
    return found


def nic_notes(f: Facts) -> list[str]:
    """What the NIC step does by hand or at the next boot, for the runbook."""
    notes = [
        f"By hand: {_unnamed_path_step(s, n)}. The script says so too; the go/no-go check of "
        "that path before anything mounts fails until it is done."
        for s in f.settings("interface")
        if s.target == "host"
        for n in unnamed_paths(f)
    ]
    for a in adapter_attributes(f):
        where = f"the adapter {a.adapter}" if a.adapter else f"the adapter under {a.interface}"
        notes.append(
            f"{a.key}={a.value} on {where}, with chdev -P: it applies at the next restart, and "
            f"only then does {a.interface} take the new MTU (reboot, then run the script again)."
        )
    for e in driver_entries(f):
        entry = (
            f"entry {e.position} (instance {e.instance}, {e.interface})"
            if e.instance is not None
            else f"the entry of {e.interface}'s instance"
        )
        notes.append(
            f"By hand: in {e.path}, {entry} of the {e.key} list set to {e.value}, the other "
            f"entries left as they are; the driver reads it at boot, so reboot, then run the "
            "script again for the MTU."
        )
    return notes


def storage_interfaces(f: Facts) -> list[str]:
    """The host interfaces that carry NFS: each storage path's where the hand-over names them,
    else the one host interface the platform gives."""
    named = list(dict.fromkeys(p.host_interface for p in f.handover.paths if p.host_interface))
    return named or ([f.host_if] if f.host_if else [])


def mtu_plans(f: Facts, setting: Setting) -> list[_Mtu]:
    """The MTU change for every storage interface (one manual step when none is named), and a
    manual step for each further storage path whose interface the hand-over does not name."""
    planned = [mtu_plan(f, setting, i) for i in storage_interfaces(f)] or [mtu_plan(f, setting)]
    return planned + [
        _Mtu(
            value=setting.value,
            rules=setting.rules,
            manual=[_unnamed_path_step(setting, n)],
        )
        for n in unnamed_paths(f)
    ]


def _unnamed_path_step(setting: Setting, n: int) -> str:
    return (
        f"storage path {n} names no host interface: set MTU {setting.value} on the interface "
        f"that carries it (give handover.paths[{n - 1}].host_interface to get the commands here)"
    )


def unnamed_paths(f: Facts) -> list[int]:
    """Storage paths after the first (1-based) that the host mounts over but whose interface
    the hand-over does not name."""
    paths = f.handover.paths
    return [
        n
        for n in range(2, storage_path_count(f) + 1)
        if n > len(paths) or not paths[n - 1].host_interface
    ]


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
            "chdev records the MTU in the ODM, so it persists."
            + (
                " The Ethernet adapter under it takes jumbo frames after the restart that "
                "follows the adapter change above."
                if f.settings("aix_adapter")
                else f" The Ethernet adapter under {interface} must accept jumbo frames first."
            )
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
    adapters = adapter_attributes(f)
    entries = driver_entries(f)
    files["host/network.sh"] = render_template(
        "host_network.sh.j2",
        f=f,
        root=True,
        header=header(
            f,
            "NIC settings: driver configuration and the storage interface MTU.",
            rules_of([*driver, *interface, *f.settings("aix_adapter", "driver_conf_entry")]),
        ),
        path="host/network.sh",
        driver_files=driver_files,
        adapters=adapters,
        entries=entries,
        boot_changes=bool(driver_files or adapters or entries),
        mtu=mtus,
    )
    return files

"""verify/verify_host.sh: the host's mounts, kernel values, MTU and the plan's host checks,
read-only; and the same items as host_expectations, in the words the script prints (the
as-built checks read them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from nasplan.domain.plan import Check, Mount
from nasplan.renderers.common import Facts, header, q, render_template, rules_of
from nasplan.renderers.handover import filer_targets, setting_value
from nasplan.renderers.host_nic import mtu_plans
from nasplan.renderers.linux_kernel import (
    boot_sysctls,
    modprobe_target,
    module_options,
    sysctl_target,
)
from nasplan.renderers.mount_table import TABLE_PATHS

MOUNT_SOURCE = {
    "linux": "/proc/mounts",
    "solaris": "nfsstat -m",
    "aix": "mount",
    "hpux": "mount -p",
}
MOUNT_OPTS = {
    "linux": "awk -v mp=\"$1\" '$2 == mp && $3 ~ /^nfs/ { o = $4 } END { print o }' /proc/mounts",
    "solaris": "nfsstat -m \"$1\" 2>/dev/null | nawk '/Flags:/ { print $2; exit }'",
    # AIX `mount`: node, mounted, mounted over, vfs, date (3 fields), options.
    "aix": "mount | awk -v mp=\"$1\" '$3 == mp { print $NF }'",
    "hpux": "mount -p | awk -v mp=\"$1\" '$2 == mp { print $4 }'",
}
# Options the tool never lists (mount-time only, or defaults it leaves out).
UNSEEN = {
    "linux": {"bg", "fg", "intr", "nointr", "suid"},
    "solaris": {"rw", "bg", "fg", "suid"},
    "aix": set(),
    "hpux": set(),
}


@dataclass
class _MountCheck:
    mount_point: str
    check: list[str] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)


# What a minimum's check adds to the value it names.
_MORE = {True: " or more", False: ""}


@dataclass
class _Live:
    label: str
    read: str
    value: str
    rules: list[str]
    # A minimum: a larger number passes.
    at_least: bool = False

    @property
    def passed(self) -> str:
        """The PASS line's words (as-built checks read them back)."""
        return f"{self.label} = {self.value}{_MORE[self.at_least]}"


@dataclass
class _FileLine:
    path: str
    line: str
    rules: list[str]
    # `key = value` files (sysctl.d, idmapd.conf): the last assignment of the key counts and
    # spaces around "=" do not matter (Ansible's sysctl module writes `key=value`).
    key: str = ""
    value: str = ""
    at_least: bool = False

    @property
    def wanted(self) -> str:
        """The line as the PASS and FAIL lines name it."""
        return f"{self.line}{_MORE[self.at_least]}"


@dataclass
class _PlanCheck:
    kind: str
    what: str
    command: str
    expect: str
    speed: str = ""


def _mount_check(f: Facts, mount: Mount) -> _MountCheck:
    result = _MountCheck(mount.mount_point)
    for option in mount.options:
        name, _, value = option.partition("=")
        if option in UNSEEN[f.os] or (f.os == "solaris" and name == "actimeo"):
            result.unseen.append(option)
        elif f.os == "linux" and name == "actimeo":
            # Linux shows actimeo=n as the four attribute-cache times it sets.
            result.check += [
                f"{k}={value}" for k in ("acregmin", "acregmax", "acdirmin", "acdirmax")
            ]
        else:
            result.check.append(option)
    return result


def _live(f: Facts) -> list[_Live]:
    items: list[_Live] = []
    if f.os == "linux":
        for s in f.settings("sysctl"):
            items.append(_Live(s.key, f"sysctl -n {q(s.key)}", s.value, s.rules, s.at_least))
    if f.os == "solaris":
        for s in f.settings("ndd"):
            scope = s.scope or "/dev/tcp"
            items.append(
                _Live(f"{scope} {s.key}", f"ndd -get {q(scope)} {q(s.key)}", s.value, s.rules)
            )
    if f.os == "aix":
        for tool in ("nfso", "no"):
            for s in f.settings(tool):
                items.append(
                    _Live(
                        f"{tool} {s.key}",
                        f"{tool} -o {q(s.key)} | awk '{{ print $NF }}'",
                        s.value,
                        s.rules,
                        s.at_least,
                    )
                )
    if f.os == "hpux":
        for s in f.settings("hpux_ndd"):
            scope = s.scope or "/dev/tcp"
            items.append(
                _Live(f"{scope} {s.key}", f"ndd -get {q(scope)} {q(s.key)}", s.value, s.rules)
            )
    return items


def _files(f: Facts) -> list[_FileLine]:
    items: list[_FileLine] = []
    if f.os == "solaris":
        for s in f.settings("etc_system"):
            items.append(_FileLine("/etc/system", f"set {s.key}={s.value}", s.rules))
        for s in f.settings("driver_conf"):
            items.append(_FileLine(s.scope or "", f"{s.key}={s.value};", s.rules))
    target = sysctl_target(f)
    for s in boot_sysctls(f):
        items.append(_FileLine(target, f"{s.key} = {s.value}", s.rules, s.key, s.value, s.at_least))
    if f.os == "linux":
        for s in f.settings("idmapd_conf"):
            value = setting_value(f, s.value)
            if not value.startswith("<"):
                items.append(
                    _FileLine("/etc/idmapd.conf", f"Domain = {value}", s.rules, "Domain", value)
                )
    for option in module_options(f):
        items.append(_FileLine(modprobe_target(f), option.line, option.setting.rules))
    return items


def _plan_checks(f: Facts, checks: list[Check]) -> list[_PlanCheck]:
    result: list[_PlanCheck] = []
    for c in checks:
        kind = "run"
        speed = ""
        if c.command.startswith("ping "):
            # Every storage path: one hop left at the old MTU on any of them hangs its I/O.
            for target in filer_targets(f, placeholders=False):
                command = c.command.replace(f.filer_host, target)
                result.append(_PlanCheck("ping", c.what, command, c.expect, ""))
            continue
        elif c.command.startswith("ethtool "):
            kind = "ethtool"
            speed = f"{f.plan.platform.network.nic_gbps * 1000}Mb/s"
        result.append(_PlanCheck(kind, c.what, c.command, c.expect, speed))
    return result


def _manual_notes(f: Facts, checks: list[Check]) -> list[str]:
    notes: list[str] = []
    commands = " ".join(c.command for c in checks)
    jumbo = any(s.mechanism == "interface" for s in f.plan.settings)
    if jumbo and "ping " not in commands and "traceroute " not in commands:
        notes.append(
            f"Jumbo frames: nasplan has no cited don't-fragment test for {f.os}; send a "
            f"9000-byte packet to {f.filer_host} that may not be fragmented and confirm it "
            "arrives."
        )
    if "ethtool " not in commands:
        notes.append(
            f"Link speed and duplex: nasplan has no cited command for {f.os}; confirm "
            f"{f.plan.platform.network.nic_gbps} Gb/s full duplex with your OS's NIC tools."
        )
    return notes


@dataclass(frozen=True)
class HostExpectation:
    """One item verify/verify_host.sh reports: the PASS text it prints when the item is as
    planned, the start of its FAIL text otherwise, or ``unseen`` when the script cannot see it."""

    item: str
    fail_prefix: str
    unseen: bool = False
    group: str = ""


def host_expectations(f: Facts) -> list[HostExpectation]:
    """Everything verify_host.sh checks, in the words it prints (as-built checks read them)."""
    items: list[HostExpectation] = []
    for mount in sorted(f.plan.mounts, key=lambda m: m.mount_point):
        check = _mount_check(f, mount)
        point = mount.mount_point
        items += [
            HostExpectation(f"{point}: {want}", f"{point}: {want} missing", group=point)
            for want in check.check
        ]
        items += [
            HostExpectation(f"{point}: {option}", "", unseen=True, group=point)
            for option in check.unseen
        ]
    items += [HostExpectation(i.passed, f"{i.label} is") for i in _live(f)]
    items += [
        HostExpectation(f"{i.path} has: {i.wanted}", f"{i.path} lacks: {i.line}") for i in _files(f)
    ]
    for s in f.settings("interface"):
        if s.target == "host":
            items += [
                HostExpectation(f"{m.interface} has MTU {m.value}", f"{m.interface} MTU is")
                for m in mtu_plans(f, s)
                if m.read
            ]
    return items


def verify_host_script(f: Facts) -> str:
    """verify/verify_host.sh."""
    host_checks = f.checks("host")
    mounts = [_mount_check(f, m) for m in sorted(f.plan.mounts, key=lambda m: m.mount_point)]
    mtu = [
        {
            "interface": m.interface,
            "value": m.value,
            "read": m.read,
            "manual": " ".join(m.manual),
        }
        for s in f.settings("interface")
        if s.target == "host"
        for m in mtu_plans(f, s)
    ]
    rules = [
        *rules_of(f.plan.mounts),
        *rules_of(s for s in f.plan.settings if s.target == "host"),
        *(r for c in host_checks for r in c.rules),
    ]
    return render_template(
        "verify_host.sh.j2",
        f=f,
        header=header(
            f, "Check the host: mounts, kernel values, MTU and the plan's checks.", rules
        ),
        path="verify/verify_host.sh",
        mount_source=MOUNT_SOURCE[f.os],
        mount_opts=MOUNT_OPTS[f.os],
        mounts=mounts,
        live=_live(f),
        files=_files(f),
        mtu=mtu,
        checks=_plan_checks(f, host_checks),
        manual=_manual_notes(f, host_checks),
        table=TABLE_PATHS[f.os],
    )

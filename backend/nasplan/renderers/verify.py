"""verify/: read-only checks that each phase worked, printing PASS, FAIL or CHECK lines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nasplan.domain.plan import Check, Mount
from nasplan.renderers.collector import collector_script, plan_setting_keys
from nasplan.renderers.common import (
    FAMILY_LABELS,
    Facts,
    cite,
    header,
    q,
    render_template,
    rules_of,
)
from nasplan.renderers.filer import filer_steps
from nasplan.renderers.filer_collector import (
    COLLECTED_MECHANISMS,
    FilerCollectorFamily,
    filer_collector_text,
)
from nasplan.renderers.filer_common import STORAGE
from nasplan.renderers.handover import filer_interface, filer_targets, setting_value, svm
from nasplan.renderers.host_nic import mtu_plans
from nasplan.renderers.linux_kernel import (
    boot_sysctls,
    modprobe_target,
    module_options,
    sysctl_target,
)
from nasplan.renderers.mount_table import TABLE_PATHS
from nasplan.renderers.oracle import dnfs_enabled, init_params, parameter_name

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


@dataclass
class _Live:
    label: str
    read: str
    value: str
    rules: list[str]


@dataclass
class _FileLine:
    path: str
    line: str
    rules: list[str]
    # `key = value` files (sysctl.d, idmapd.conf): the last assignment of the key counts and
    # spaces around "=" do not matter (Ansible's sysctl module writes `key=value`).
    key: str = ""
    value: str = ""


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
            items.append(_Live(s.key, f"sysctl -n {q(s.key)}", s.value, s.rules))
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
        items.append(_FileLine(target, f"{s.key} = {s.value}", s.rules, s.key, s.value))
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
    items += [HostExpectation(f"{i.label} = {i.value}", f"{i.label} is") for i in _live(f)]
    items += [
        HostExpectation(f"{i.path} has: {i.line}", f"{i.path} lacks: {i.line}") for i in _files(f)
    ]
    for s in f.settings("interface"):
        if s.target == "host":
            items += [
                HostExpectation(f"{m.interface} has MTU {m.value}", f"{m.interface} MTU is")
                for m in mtu_plans(f, s)
                if m.read
            ]
    return items


def _verify_host(f: Facts) -> str:
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


def _sql_expect(value: str) -> str:
    return value.replace("'", "''").upper()


def _verify_sql(f: Facts) -> str:
    params = init_params(f)
    oracle_checks = f.checks("oracle")
    rules = [*rules_of(params), *(r for c in oracle_checks for r in c.rules)]
    # On RAC the gv$ views answer for every running instance at once.
    view = "gv$" if f.rac else "v$"
    lines = [
        header(f, "Check the database: parameters in effect and Direct NFS.", rules, "--"),
        "-- DBA, in SQL*Plus as SYSDBA on any one instance, after the restart: the gv$ views "
        "cover every running instance. It only reads."
        if f.rac
        else "-- DBA, in SQL*Plus as SYSDBA, after the restart. It only reads.",
        "SET HEADING OFF FEEDBACK OFF PAGESIZE 0 LINESIZE 200 TRIMSPOOL ON VERIFY OFF",
    ]
    where_all = "(SELECT COUNT(*) FROM gv$instance)" if f.rac else "1"
    for s in params:
        lines.append(f"-- {cite(f.plan, s.rules[0])}")
        name = parameter_name(s.key).lower()  # Oracle's name syntax only: no quote gets in
        if s.action == "unset":
            lines.append(
                "SELECT CASE WHEN COUNT(CASE WHEN isdefault = 'FALSE' THEN 1 END) = 0 THEN 'PASS' "
                f"ELSE 'FAIL' END || ' {name} is unset (found: ' || NVL(MAX(value), 'unset') "
                f"|| ')' FROM {view}parameter WHERE name = '{name}';"
            )
        else:
            want = _sql_expect(s.value)
            lines.append(
                f"SELECT CASE WHEN COUNT(*) = {where_all} AND COUNT(CASE WHEN UPPER(value) = "
                f"'{want}' THEN 1 END) = COUNT(*) THEN 'PASS' ELSE 'FAIL' END || ' {name} = "
                f"{s.value.replace(chr(39), '')} (found: ' || NVL(MAX(value), 'not set') || "
                f"')' FROM {view}parameter WHERE name = '{name}';"
            )
    if dnfs_enabled(f):
        lines.append("-- DNFS-ENABLE: Direct NFS serves the database files")
        lines.append(
            "SELECT CASE WHEN COUNT(DISTINCT inst_id) = (SELECT COUNT(*) FROM gv$instance) "
            "THEN 'PASS' ELSE 'FAIL' END || ' Direct NFS servers in use on ' || "
            "COUNT(DISTINCT inst_id) || ' instance(s)' FROM gv$dnfs_servers;"
            if f.rac
            else "SELECT CASE WHEN COUNT(*) > 0 THEN 'PASS' ELSE 'FAIL' END || ' Direct NFS "
            "servers in use: ' || COUNT(*) FROM v$dnfs_servers;"
        )
    for c in oracle_checks:
        lines.append(f"-- {c.what} ({', '.join(c.rules)})")
        lines.append(f"-- Expect: {c.expect}")
        lines.append("SET HEADING ON")
        lines.append(_every_instance(c.command) if f.rac else c.command)
        lines.append("SET HEADING OFF")
    if not params and not oracle_checks and not dnfs_enabled(f):
        lines.append("-- The plan has no database settings or checks.")
    return "\n".join(lines) + "\n"


def _every_instance(query: str) -> str:
    """A check written against a v$ view, asked of the gv$ view with each row's instance: on
    RAC the v$ views answer for the local instance only."""
    if not re.search(r"\bFROM v\$", query):
        return query
    return re.sub(r"\bFROM v\$", "FROM gv$", query.replace("SELECT ", "SELECT inst_id, ", 1))


def _filer_checks(f: Facts) -> str:
    steps = [s for s in filer_steps(f) if s.phase in ("filer", "network") and s.expect]
    checks = f.checks("filer", "switch")
    rules = [*(r for s in steps for r in s.rules), *(r for c in checks for r in c.rules)]
    lines = [
        header(f, "Filer checks: what to look at after the filer phase.", rules),
        f"# {STORAGE.capitalize()}, at the filer console. These commands only show values.",
    ]
    for c in checks:
        lines += [f"\n# ---- {c.what} ({', '.join(c.rules)})", c.command, f"# Expect: {c.expect}"]
    for s in steps:
        lines += [f"\n# ---- {s.title}", f"# Expect: {s.expect}"]
    return "\n".join(lines) + "\n"


def render_verify(f: Facts) -> dict[str, str]:
    plan = f.plan
    return {
        "verify/collect.sh": collector_script(
            plan_setting_keys(plan),
            plan.platform.host.os,
            plan.kb_version,
            header(
                f,
                "Collection of this host as built, for an audit (read-only).",
                [s.rules[0] for s in plan.settings],
            ),
        ),
        "verify/verify_host.sh": _verify_host(f),
        "verify/verify_oracle.sql": _verify_sql(f),
        "verify/filer_checks.txt": _filer_checks(f),
        **_filer_collector(f),
    }


_COLLECTOR_FAMILY: dict[str, FilerCollectorFamily] = {
    "ontap_cluster": "ontap_cluster",
    "fsxn": "ontap_cluster",  # FSx for ONTAP: the same ONTAP CLI, over SSH as fsxadmin
    "ontap7": "ontap7",
}


def _filer_collector(f: Facts) -> dict[str, str]:
    """The storage team's read-only commands with this plan's SVM, volumes and port, on the
    NetApp families whose CLI the list speaks."""
    family = _COLLECTOR_FAMILY.get(f.family)
    if family is None:
        return {}
    return {
        "verify/filer_collect.txt": filer_collector_text(
            plan_setting_keys(f.plan),
            family,
            f.plan.kb_version,
            svm=svm(f),
            volumes=[v.name for v in f.plan.volumes],
            port=filer_interface(f) if f.settings("ontap_port") else None,
            header=header(
                f,
                "The storage team's read-only filer commands, for an audit of the filer as "
                f"built ({FAMILY_LABELS[f.family]}).",
                [
                    r
                    for s in f.plan.settings
                    if s.mechanism in COLLECTED_MECHANISMS
                    for r in s.rules[:1]
                ],
            ),
        )
    }

"""host/: what the Unix administrator applies, in the host OS's own formats.

- the mount table entries (vfstab, fstab, /etc/filesystems stanzas) and ``mounts.sh``;
- kernel and TCP settings in persistent form and ``tuning.sh`` (Solaris /etc/system and a
  start-up script for ndd, Linux sysctl, AIX nfso/no -p, HP-UX kctune and ndd);
- NIC settings and ``network.sh`` (driver .conf lines, the interface MTU): ``host_nic``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nasplan.domain.plan import Setting
from nasplan.renderers.common import (
    Facts,
    cite,
    header,
    q,
    render_template,
    rules_of,
)
from nasplan.renderers.handover import setting_value
from nasplan.renderers.host_nic import network_files
from nasplan.renderers.linux_kernel import (
    boot_sysctls,
    linux_sysctls,
    modprobe_target,
    modprobe_text,
    module_options,
    sysctl_target,
)
from nasplan.renderers.mount_table import TABLE_PATHS, entry_text

TABLE_COMMENT = {"solaris": "#", "linux": "#", "hpux": "#", "aix": "*"}
TABLE_NAME = {"solaris": "vfstab", "linux": "fstab", "hpux": "fstab", "aix": "filesystems"}
# Which field of a table line holds the mount point (awk expression over the line).
ENTRY_MATCH = {
    "solaris": "$3 == mp",
    "linux": "$2 == mp",
    "hpux": "$2 == mp",
    "aix": '$1 == mp ":"',
}
IS_MOUNTED = {
    "linux": "awk -v mp=\"$1\" '$2 == mp { f = 1 } END { if (f) exit 0; exit 1 }' /proc/mounts",
    "solaris": "nawk -v mp=\"$1\" '$2 == mp { f = 1 } END { if (f) exit 0; exit 1 }' /etc/mnttab",
    "hpux": "awk -v mp=\"$1\" '$2 == mp { f = 1 } END { if (f) exit 0; exit 1 }' /etc/mnttab",
    # AIX has no mnttab: `mount` lists node, mounted, mounted over, ... (node empty if local).
    "aix": 'mount | awk -v mp="$1" \'$2 == mp || $3 == mp { f = 1 } '
    "END { if (f) exit 0; exit 1 }'",
}

SOLARIS_RC_DIR = "/etc/init.d"
MODPROBE_BUNDLE_FILE = "host/modprobe-options.conf"
SOLARIS_RC_LINK_DIR = "/etc/rc2.d"


def mount_block(f: Facts) -> str:
    """The mount-table lines between nasplan's markers, each mount led by its rules."""
    c = TABLE_COMMENT[f.os]
    lines = [f"{c} BEGIN {f.marker}"]
    for mount in sorted(f.plan.mounts, key=lambda m: m.mount_point):
        lines.append(
            f"{c} {mount.mount_point} ({', '.join(mount.serves)}): {', '.join(mount.rules)}"
        )
        lines.append(entry_text(f.os, mount))
    lines.append(f"{c} END {f.marker}")
    return "\n".join(lines)


def _mount_files(f: Facts) -> dict[str, str]:
    table = TABLE_PATHS[f.os]
    name = TABLE_NAME[f.os]
    rules = rules_of(f.plan.mounts)
    fragment = (
        header(
            f,
            f"Lines for {table}: host/mounts.sh adds them (or add them by hand).",
            rules,
            TABLE_COMMENT[f.os],
        )
        + "\n"
        + mount_block(f)
        + "\n"
    )
    mounts = sorted(f.plan.mounts, key=lambda m: m.mount_point)
    remount = rules_of(s for s in f.plan.settings if s.requires == "remount")
    script = render_template(
        "host_mounts.sh.j2",
        f=f,
        root=True,
        header=header(f, f"Create the mount points and add the NFS mounts to {table}.", rules),
        path="host/mounts.sh",
        table=table,
        begin=f"{TABLE_COMMENT[f.os]} BEGIN {f.marker}",
        end=f"{TABLE_COMMENT[f.os]} END {f.marker}",
        block=mount_block(f),
        comment=TABLE_COMMENT[f.os],
        entry_match=ENTRY_MATCH[f.os],
        is_mounted=IS_MOUNTED[f.os],
        dirs=" ".join(q(m.mount_point) for m in mounts),
        remount_rules=remount,
    )
    return {f"host/{name}.add": fragment, "host/mounts.sh": script}


# ---------------------------------------------------------------- kernel and TCP
def _ordered_ndd(settings: list[Setting]) -> list[Setting]:
    # Ceilings first (tcp_max_buf, tcp_cwnd_max), so the larger windows are allowed when set.
    return sorted(settings, key=lambda s: 0 if "max" in s.key else 1)


def solaris_rc_name(f: Facts) -> str:
    return f"nasplan_ndd_{f.db_lower}"


def _solaris_rc(f: Facts, ndd: list[Setting]) -> str:
    lines = [
        "#!/sbin/sh",
        header(
            f,
            f"Start-up script: sets the plan's ndd values at every boot "
            f"({SOLARIS_RC_DIR}/{solaris_rc_name(f)}, linked from "
            f"{SOLARIS_RC_LINK_DIR}/S70{solaris_rc_name(f)}).",
            rules_of(ndd),
        ),
        "# ndd settings do not survive a reboot; run level 2 runs this after the network is up.",
        "set -eu",
        'case "${1:-start}" in',
        "  start)",
    ]
    for s in ndd:
        lines.append(f"    # {cite(f.plan, s.rules[0])}")
        lines.append(f"    /usr/sbin/ndd -set {q(s.scope or '/dev/tcp')} {q(s.key)} {q(s.value)}")
    lines += [
        "    ;;",
        "  stop)",
        "    ;;",
        "  *)",
        '    echo "usage: $0 start" >&2',
        "    exit 2",
        "    ;;",
        "esac",
    ]
    return "\n".join(lines) + "\n"


def _etc_system_lines(f: Facts, settings: list[Setting]) -> str:
    lines = [f"* BEGIN {f.marker}"]
    for s in settings:
        lines.append(f"* {cite(f.plan, s.rules[0])}")
        lines.append(f"set {s.key}={s.value}")
    lines.append(f"* END {f.marker}")
    return "\n".join(lines)


def _sysctl_lines(f: Facts, settings: list[Setting]) -> list[str]:
    lines: list[str] = []
    for s in settings:
        lines.append(f"# {cite(f.plan, s.rules[0])}")
        if s.at_least:
            lines.append("# A minimum: host/tuning.sh writes the host's value where it is larger.")
        lines.append(f"{s.key} = {s.value}")
    return lines


@dataclass
class _IdmapdDomain:
    value: str
    rules: list[str]


@dataclass
class _Tool:
    name: str
    settings: list[Setting] = field(default_factory=list)


def _tuning_files(f: Facts) -> dict[str, str]:
    files: dict[str, str] = {}
    etc_system = f.settings("etc_system") if f.os == "solaris" else []
    ndd = _ordered_ndd(f.settings("ndd")) if f.os == "solaris" else []
    sysctl = linux_sysctls(f)
    boot = boot_sysctls(f)
    options = module_options(f)
    aix_tools = (
        [_Tool(name, f.settings(name)) for name in ("nfso", "no") if f.settings(name)]
        if f.os == "aix"
        else []
    )
    kctune = f.settings("kctune") if f.os == "hpux" else []
    hpux_ndd = f.settings("hpux_ndd") if f.os == "hpux" else []
    idmapd = f.settings("idmapd_conf") if f.os == "linux" else []
    used = [*etc_system, *ndd, *sysctl, *kctune, *hpux_ndd, *idmapd]
    for tool in aix_tools:
        used += tool.settings
    context: dict[str, Any] = {
        "etc_system": "",
        "ndd": ndd,
        "sysctl": sysctl,
        "aix_tools": aix_tools,
        "kctune": kctune,
        "hpux_ndd": hpux_ndd,
        "rc_script": "",
        "rc_link": "",
        "rc_text": "",
        "rc_name": "",
        "sysctl_file": bool(boot),
        "modprobe_path": modprobe_target(f) if options else "",
        "modprobe_text": modprobe_text(f, options).rstrip("\n") if options else "",
        "at_least_keys": [s.key for s in sysctl if s.at_least],
        "minimums": any(s.at_least for s in used),
        "sysctl_d": False,
        "sysctl_path": "",
        "sysctl_text": "",
        "sysctl_block": "",
        "sysctl_name": "",
        "sunrpc": bool(options),
        "module_of_key": {o.setting.key: o.module for o in options},
        # One key per module tells whether it is loaded.
        "module_probe_keys": sorted({o.module: o.setting.key for o in options}.items()),
        "nddconf_name": "nddconf.add",
        "idmapd": _IdmapdDomain(setting_value(f, idmapd[0].value), idmapd[0].rules)
        if idmapd
        else None,
    }
    if etc_system:
        block = _etc_system_lines(f, etc_system)
        context["etc_system"] = block
        files["host/system.add"] = (
            header(
                f,
                "Lines for /etc/system: host/tuning.sh adds them; reboot to apply.",
                rules_of(etc_system),
                "*",
            )
            + "\n"
            + block
            + "\n"
        )
    if ndd:
        rc = _solaris_rc(f, ndd)
        name = solaris_rc_name(f)
        files[f"host/{name}"] = rc
        context.update(
            rc_script=f"{SOLARIS_RC_DIR}/{name}",
            rc_link=f"{SOLARIS_RC_LINK_DIR}/S70{name}",
            rc_text=rc.rstrip("\n"),
            rc_name=name,
        )
    if options:
        files[MODPROBE_BUNDLE_FILE] = modprobe_text(f, options)
    if boot:
        target = sysctl_target(f)
        sysctl_d = target.startswith("/etc/sysctl.d/")
        name = target.rsplit("/", 1)[1] if sysctl_d else "sysctl.conf.add"
        body = _sysctl_lines(f, boot)
        title = (
            f"Kernel settings for {target}: host/tuning.sh installs it."
            if sysctl_d
            else f"Lines for {target} (this release reads no /etc/sysctl.d): host/tuning.sh "
            "adds them."
        )
        head = header(f, title, rules_of(boot))
        if sysctl_d:
            text = head + "\n" + "\n".join(body) + "\n"
            context["sysctl_text"] = text.rstrip("\n")
        else:
            block = "\n".join([f"# BEGIN {f.marker}", *body, f"# END {f.marker}"])
            text = head + "\n" + block + "\n"
            context["sysctl_block"] = block
        files[f"host/{name}"] = text
        context.update(sysctl_d=sysctl_d, sysctl_path=target, sysctl_name=name)
    if hpux_ndd:
        lines = [
            header(
                f,
                "Entries for /etc/rc.config.d/nddconf (renumber [n] after the "
                "entries already there).",
                rules_of(hpux_ndd),
            )
        ]
        for index, s in enumerate(hpux_ndd):
            lines += [
                f"# {cite(f.plan, s.rules[0])}",
                f"TRANSPORT_NAME[{index}]={(s.scope or '/dev/tcp').rsplit('/', 1)[-1]}",
                f"NDD_NAME[{index}]={s.key}",
                f"NDD_VALUE[{index}]={s.value}",
            ]
        files["host/nddconf.add"] = "\n".join(lines) + "\n"
    files["host/tuning.sh"] = render_template(
        "host_tuning.sh.j2",
        f=f,
        root=True,
        header=header(f, "Kernel and TCP settings for the database host.", rules_of(used)),
        path="host/tuning.sh",
        **context,
    )
    return files


def render_host(f: Facts) -> dict[str, str]:
    return {**network_files(f), **_tuning_files(f), **_mount_files(f)}

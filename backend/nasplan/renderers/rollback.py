"""rollback/: how to undo each phase, newest first."""

from __future__ import annotations

from nasplan.renderers import host as host_files
from nasplan.renderers import host_nic
from nasplan.renderers.common import (
    Facts,
    header,
    linux_reads_sysctl_d,
    oracle_at_least,
    q,
    render_template,
)
from nasplan.renderers.filer import commands_text, filer_rollback_steps
from nasplan.renderers.linux_kernel import (
    boot_sysctls,
    modprobe_target,
    module_options,
    sysctl_target,
)
from nasplan.renderers.mount_table import TABLE_PATHS
from nasplan.renderers.oracle import (
    alter_system,
    before_pfile,
    dnfs_enabled,
    init_params,
    oranfstab_planned,
    oranfstab_rules,
    spfile_supported,
)


def _host(f: Facts) -> str:
    table = TABLE_PATHS[f.os]
    c = host_files.TABLE_COMMENT[f.os]
    mounts = sorted(f.plan.mounts, key=lambda m: m.mount_point)
    driver = f.settings("driver_conf") if f.os == "solaris" else []
    files: dict[str, list[str]] = {}
    for s in driver:
        files.setdefault(s.scope or "", []).append(s.key)
    driver_files = [
        {"path": path, "begin": f"# BEGIN {f.marker}", "end": f"# END {f.marker}"} for path in files
    ]
    mtu_settings = [s for s in f.settings("interface") if s.target == "host"]
    mtus = host_nic.mtu_plans(f, mtu_settings[0]) if mtu_settings else []
    mtu = mtus[0] if mtus else None
    restore = {
        "linux": 'ip link set dev "$IF" mtu "$MTU"',
        "solaris": 'ifconfig "$IF" mtu "$MTU"',
        "aix": 'chdev -l "$IF" -a mtu="$MTU"',
    }
    mtu_restore = restore.get(f.os, "") if mtu and mtu.set else ""
    name = host_files.solaris_rc_name(f)
    used = [
        *(r for m in f.plan.mounts for r in m.rules),
        *(r for s in f.plan.settings if s.target == "host" for r in s.rules),
    ]
    return render_template(
        "rollback_host.sh.j2",
        f=f,
        root=True,
        header=header(f, "Undo the host phase: mount entries, kernel, TCP and NIC settings.", used),
        path="rollback/host_rollback.sh",
        dirs=" ".join(q(m.mount_point) for m in mounts),
        is_mounted=host_files.IS_MOUNTED[f.os].replace('"$1"', '"$dir"'),
        table=table,
        table_begin=f"{c} BEGIN {f.marker}",
        table_end=f"{c} END {f.marker}",
        etc_system=bool(f.settings("etc_system")) and f.os == "solaris",
        ndd=bool(f.settings("ndd")) and f.os == "solaris",
        rc_script=f"{host_files.SOLARIS_RC_DIR}/{name}",
        rc_link=f"{host_files.SOLARIS_RC_LINK_DIR}/S70{name}",
        sysctl=bool(f.settings("sysctl")) and f.os == "linux",
        sysctl_d=f.os == "linux" and linux_reads_sysctl_d(f.plan),
        sysctl_path=sysctl_target(f) if f.os == "linux" else "",
        sysctl_file=bool(boot_sysctls(f)),
        modprobe_path=modprobe_target(f) if module_options(f) else "",
        aix_tools=[t for t in ("nfso", "no") if f.os == "aix" and f.settings(t)],
        kctune=f.os == "hpux" and bool(f.settings("kctune")),
        hpux_ndd=f.os == "hpux" and bool(f.settings("hpux_ndd")),
        driver_files=driver_files,
        adapters=host_nic.adapter_attributes(f),
        entries=host_nic.driver_entries(f),
        mtu=mtu is not None,
        mtu_restore=mtu_restore,
        mtu_files=[(m.interface, m.persist_file) for m in mtus if m.persist_file],
        idmapd=f.os == "linux" and bool(f.settings("idmapd_conf")),
        linux_mtu_interfaces=[m.interface for m in mtus if m.persist_linux],
        mtu_value=mtu.value if mtu else "",
    )


def _oracle_sql(f: Facts) -> str:
    params = init_params(f)
    rules = [r for s in params for r in s.rules]
    lines = [
        header(f, "Undo the Oracle parameter changes.", rules, "--"),
        "-- DBA, in SQL*Plus as SYSDBA. The values take effect at the next instance start.",
    ]
    if not spfile_supported(f):
        lines.append(
            "-- Oracle before 9i: put back the copy of init<SID>.ora kept before the change."
        )
        return "\n".join(lines) + "\n"
    lines += [
        f"-- The parameters as they were are in {before_pfile(f)} (oracle/capture_before.sql).",
        "-- The statements below return each parameter to its default. Where that copy shows a",
        "-- value for one of them, set that value instead:",
        "--   ALTER SYSTEM SET name=value SCOPE=SPFILE SID='*';  (name and value from the copy)",
        "-- RESET answers ORA-32010 for a parameter that is not set; that is harmless here.",
        "WHENEVER SQLERROR CONTINUE",
    ]
    for s in params:
        if s.action == "unset":
            lines.append(
                f"-- {s.key} was removed ({', '.join(s.rules)}): if the copy shows a value, "
                "set it back as above."
            )
            continue
        lines.append(f"-- {', '.join(s.rules)}")
        lines.append(alter_system(s.model_copy(update={"action": "unset"})))
    if not params:
        lines.append("-- The plan set no initialization parameters: nothing to undo.")
    return "\n".join(lines) + "\n"


def render_rollback(f: Facts) -> dict[str, str]:
    files = {
        "rollback/host_rollback.sh": _host(f),
        "rollback/filer_rollback.txt": commands_text(
            f, filer_rollback_steps(f), "Undo the filer phase."
        ),
        "rollback/oracle_rollback.sql": _oracle_sql(f),
    }
    if oranfstab_planned(f) or dnfs_enabled(f):
        files["rollback/oracle_rollback.sh"] = render_template(
            "rollback_oracle.sh.j2",
            f=f,
            root=False,
            header=header(
                f,
                "Undo the Direct NFS changes: dnfs_off and the oranfstab copy.",
                oranfstab_rules(f),
            ),
            path="rollback/oracle_rollback.sh",
            dnfs=dnfs_enabled(f),
            make_supported=oracle_at_least(f.plan, "11.2"),
            oranfstab=oranfstab_planned(f),
        )
    return files

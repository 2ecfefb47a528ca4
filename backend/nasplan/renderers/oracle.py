"""oracle/: what the DBA applies: initialization parameters, oranfstab and the dNFS switch."""

from __future__ import annotations

import re

from nasplan.domain.plan import Setting, dnfs_path_count
from nasplan.renderers.common import (
    PLACEHOLDER_RE,
    Facts,
    cite,
    header,
    oracle_at_least,
    render_template,
    rules_of,
)
from nasplan.renderers.handover import dnfs_local, dnfs_server_path

DBA = "DBA"


def spfile_supported(f: Facts) -> bool:
    return oracle_at_least(f.plan, "9")  # server parameter files arrived with Oracle9i


def before_pfile(f: Facts) -> str:
    # '?' is Oracle's shorthand for ORACLE_HOME in file names.
    return f"?/dbs/nasplan_before_{f.db}.ora"


_PARAMETER_NAME = re.compile(r"_{0,2}[a-z][a-z0-9_]{0,62}")


def sql_value(value: str) -> str:
    """A parameter value as an SQL literal: a number, TRUE/FALSE, or a quoted string."""
    if value.isascii() and value.isdigit():
        return value
    if value.upper() in ("TRUE", "FALSE"):
        return value.upper()
    return "'" + value.replace("'", "''") + "'"


def parameter_name(key: str) -> str:
    """Only Oracle's parameter-name syntax passes into a parameter file or SQL."""
    if not _PARAMETER_NAME.fullmatch(key):
        raise ValueError(f"not an initialization parameter name: {key!r}")
    return key


def sql_name(key: str) -> str:
    parameter_name(key)
    # Hidden (underscore) parameters must be quoted in ALTER SYSTEM.
    return f'"{key}"' if key.startswith("_") else key


def alter_system(setting: Setting) -> str:
    if setting.action == "unset":
        return f"ALTER SYSTEM RESET {sql_name(setting.key)} SCOPE=SPFILE SID='*';"
    return (
        f"ALTER SYSTEM SET {sql_name(setting.key)}={sql_value(setting.value)} SCOPE=SPFILE SID='*';"
    )


def init_params(f: Facts) -> list[Setting]:
    return f.settings("init_ora")


def dnfs_enabled(f: Facts) -> bool:
    return any(s.key == "dnfs" for s in f.settings("dnfs"))


def oranfstab_planned(f: Facts) -> bool:
    return any(s.key == "oranfstab" for s in f.settings("dnfs"))


def oranfstab_target(f: Facts) -> str:
    return next(
        (s.value for s in f.settings("dnfs") if s.key == "oranfstab"),
        "$ORACLE_HOME/dbs/oranfstab",
    )


def dnfs_paths(f: Facts) -> list[tuple[str | None, str]]:
    """(local, path) pairs: the filer's name for one NIC; for several, the hand-over's path
    answers, with placeholders for what is not given."""
    count = dnfs_path_count(f.plan.platform.network.nic_count, f.settings("dnfs"))
    if count == 1:
        return [(None, f.filer_host)]
    return [(dnfs_local(f, n), dnfs_server_path(f, n)) for n in range(1, count + 1)]


def oranfstab_body(f: Facts, paths: list[tuple[str | None, str]]) -> list[str]:
    lines = [f"server: {f.filer_host}"]
    for local, path in paths:
        if local is not None:
            lines.append(f"local: {local}")
        lines.append(f"path: {path}")
    for mount in f.db_mounts():
        export = mount.export.split(":", 1)[1]
        lines.append(f"export: {export} mount: {mount.mount_point}")
    if oracle_at_least(f.plan, "12.1"):
        version = "nfsv4.1" if f.plan.platform.oracle.nfs_version == "4.1" else "nfsv3"
        lines.append(f"nfs_version: {version}")
    return lines


def oranfstab_rules(f: Facts) -> list[str]:
    return rules_of([*f.settings("dnfs"), *f.db_mounts()])


def _init_ora(f: Facts) -> str:
    params = init_params(f)
    lines = [header(f, "Initialization parameters (init.ora / pfile form).", rules_of(params))]
    if not spfile_supported(f):
        lines.append("# Oracle before 9i has no server parameter file: edit init<SID>.ora.")
    for s in params:
        lines.append(f"# {cite(f.plan, s.rules[0])}")
        if s.action == "unset":
            lines.append(f"# {s.key}: remove it from the parameter file (leave it unset).")
        else:
            lines.append(f"{parameter_name(s.key)}={s.value}")
    if not params:
        lines.append("# The plan sets no initialization parameters.")
    return "\n".join(lines) + "\n"


def _alter_sql(f: Facts) -> str:
    params = init_params(f)
    lines = [
        header(
            f,
            "The same parameters as ALTER SYSTEM statements (server parameter file).",
            rules_of(params),
            "--",
        )
    ]
    lines += [
        "-- DBA, in SQL*Plus as SYSDBA on one instance; run oracle/capture_before.sql first.",
        "-- SCOPE=SPFILE: the values take effect at the next instance start.",
        "WHENEVER SQLERROR EXIT FAILURE",
    ]
    if not spfile_supported(f):
        lines = [
            *lines[:-1],
            "-- Oracle before 9i has no server parameter file: use oracle/init.ora.add.",
        ]
        return "\n".join(lines) + "\n"
    sets = [s for s in params if s.action != "unset"]
    resets = [s for s in params if s.action == "unset"]
    for s in sets:
        lines.append(f"-- {cite(f.plan, s.rules[0])}")
        lines.append(alter_system(s))
    if resets:
        lines += [
            "-- RESET answers ORA-32010 when the parameter is not in the server parameter file;",
            "-- that only means it is unset already, so errors do not stop the script here.",
            "WHENEVER SQLERROR CONTINUE",
        ]
    for s in resets:
        lines.append(f"-- {cite(f.plan, s.rules[0])}")
        lines.append(alter_system(s))
    if not params:
        lines.append("-- The plan sets no initialization parameters.")
    return "\n".join(lines) + "\n"


def _capture_sql(f: Facts) -> str:
    lines = [
        header(
            f,
            "Keep a copy of the current parameters before changing them.",
            rules_of(init_params(f)),
            "--",
        ),
        "-- DBA, in SQL*Plus as SYSDBA. rollback/oracle_rollback.sql refers to this copy.",
        "WHENEVER SQLERROR EXIT FAILURE",
    ]
    if spfile_supported(f):
        lines.append(f"CREATE PFILE='{before_pfile(f)}' FROM SPFILE;")
    else:
        lines.append("-- Oracle before 9i: copy init<SID>.ora aside with the operating system.")
    return "\n".join(lines) + "\n"


def _oranfstab(f: Facts) -> str:
    paths = dnfs_paths(f)
    head = header(
        f,
        f"Direct NFS: the filer's paths and exports, for {oranfstab_target(f)}.",
        oranfstab_rules(f),
    )
    notes = [
        "#",
        "# oracle/install_oranfstab.sh installs this file without its # lines.",
    ]
    if any(PLACEHOLDER_RE.search(f"{local} {path}") for local, path in paths):
        notes += [
            "# Replace each <host-ip-n> with this host's interface or address on storage path n",
            "# and each <filer-ip-n> with the filer's address on the same network (the design",
            "# does not give them yet). A local address differs on each RAC node; an interface",
            "# name serves every node whose interfaces are named alike.",
        ]
    elif any(local for local, _ in paths):
        notes += [
            "# local: names this host's interface or address on each path, path: the filer's",
            "# address on the same network (ora-ladbi-19, Configuring Direct NFS Client).",
        ]
    return "\n".join([head, *notes, *oranfstab_body(f, paths)]) + "\n"


def _redo_logs_sql(f: Facts) -> str | None:
    """The planned online redo logs: a read-only look at the current ones, and the statements
    that add the planned groups, commented out for the DBA to run deliberately."""
    capacity = f.plan.capacity
    redo = capacity.redo_logs if capacity else None
    mount = next((m for m in f.plan.mounts if "redo" in m.serves), None)
    if redo is None or mount is None:
        return None
    lines = [
        header(f, "Online redo log sizes for the planned redo volume.", [], "--"),
        f"-- Plan: {redo.groups_per_thread} groups per thread, {redo.threads} thread(s), "
        f"{redo.log_file_mb} MB each.",
        f"-- Why: {redo.basis}.",
        "-- DBA, in SQL*Plus as SYSDBA. The SELECT changes nothing. To move to the planned size,",
        "-- add the groups below (uncomment them), switch logs until the old groups are",
        "-- INACTIVE, then drop the old groups; Oracle numbers the new groups itself.",
        "SELECT group#, thread#, bytes/1024/1024 AS mb, members, status FROM v$log",
        "ORDER BY thread#, group#;",
    ]
    for thread in range(1, redo.threads + 1):
        for group in range(1, redo.groups_per_thread + 1):
            name = f"{mount.mount_point}/redo_t{thread}_{group}.log".replace("'", "''")
            lines.append(
                f"-- ALTER DATABASE ADD LOGFILE THREAD {thread} ('{name}') "
                f"SIZE {redo.log_file_mb}M;"
            )
    return "\n".join(lines) + "\n"


def render_oracle(f: Facts) -> dict[str, str]:
    files = {
        "oracle/capture_before.sql": _capture_sql(f),
        "oracle/init.ora.add": _init_ora(f),
        "oracle/alter_system.sql": _alter_sql(f),
    }
    redo_logs = _redo_logs_sql(f)
    if redo_logs is not None:
        files["oracle/redo_logs.sql"] = redo_logs
    if oranfstab_planned(f):
        files["oracle/oranfstab"] = _oranfstab(f)
        files["oracle/install_oranfstab.sh"] = render_template(
            "oracle_oranfstab.sh.j2",
            f=f,
            root=False,
            header=header(f, "Install oracle/oranfstab for Direct NFS.", oranfstab_rules(f)),
            path="oracle/install_oranfstab.sh",
            target=oranfstab_target(f).removeprefix("$ORACLE_HOME/"),
            target_in_home=oranfstab_target(f).startswith("$ORACLE_HOME/"),
        )
    if dnfs_enabled(f):
        files["oracle/enable_dnfs.sh"] = render_template(
            "oracle_dnfs.sh.j2",
            f=f,
            root=False,
            header=header(
                f, "Switch Direct NFS on in this ORACLE_HOME.", rules_of(f.settings("dnfs"))
            ),
            path="oracle/enable_dnfs.sh",
            target="dnfs_on",
            make_supported=oracle_at_least(f.plan, "11.2"),
        )
    return files

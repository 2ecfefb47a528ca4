"""verify/verify_oracle.sql: the database's parameters in effect, Direct NFS and the plan's
database checks, read-only, each printing PASS or FAIL (on RAC, for every instance)."""

from __future__ import annotations

import re

from nasplan.renderers.common import Facts, cite, header, rules_of
from nasplan.renderers.oracle import dnfs_enabled, init_params, parameter_name


def _sql_expect(value: str) -> str:
    return value.replace("'", "''").upper()


def verify_oracle_sql(f: Facts) -> str:
    """verify/verify_oracle.sql."""
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

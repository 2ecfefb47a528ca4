"""verify/: read-only checks that each phase worked, printing PASS, FAIL or CHECK lines.

Each team's files come from a module of their own: verify_host (the host's script),
verify_oracle (the database's SQL) and verify_filer (the filer's checks and collection);
verify/collect.sh, the host's collection for an audit, is the collector's.
"""

from __future__ import annotations

from nasplan.renderers.collector import collector_script, plan_setting_keys
from nasplan.renderers.common import Facts, header
from nasplan.renderers.verify_filer import filer_checks_text, filer_collect_files
from nasplan.renderers.verify_host import verify_host_script
from nasplan.renderers.verify_oracle import verify_oracle_sql


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
        "verify/verify_host.sh": verify_host_script(f),
        "verify/verify_oracle.sql": verify_oracle_sql(f),
        "verify/filer_checks.txt": filer_checks_text(f),
        **filer_collect_files(f),
    }

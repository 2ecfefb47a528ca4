"""The bundle's files for each team (everything but the runbook and the index)."""

from __future__ import annotations

from nasplan.renderers.ansible import render_ansible
from nasplan.renderers.ansible_oracle_vars import render_ansible_oracle_vars
from nasplan.renderers.common import Facts
from nasplan.renderers.filer import render_filer
from nasplan.renderers.filer_ansible import render_filer_ansible
from nasplan.renderers.filer_cloud import render_filer_cloud
from nasplan.renderers.host import render_host
from nasplan.renderers.oracle import render_oracle
from nasplan.renderers.rollback import render_rollback
from nasplan.renderers.verify import render_verify


def render_parts(f: Facts) -> dict[str, str]:
    files: dict[str, str] = {}
    for part in (
        render_filer,
        render_host,
        render_ansible,
        render_ansible_oracle_vars,
        render_filer_ansible,
        render_filer_cloud,
        render_oracle,
        render_verify,
        render_rollback,
    ):
        files.update(part(f))
    return files

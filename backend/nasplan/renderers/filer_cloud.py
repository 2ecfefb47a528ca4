"""The storage side of a cloud NAS bundle as files tools run: Terraform for every service, and
the service's own request files or command lines."""

from __future__ import annotations

from collections.abc import Callable

from nasplan.renderers.common import Facts
from nasplan.renderers.filer_anf import anf_cli, anf_terraform
from nasplan.renderers.filer_anf_group import render_anf_group
from nasplan.renderers.filer_fsx import fsx_requests, fsx_terraform
from nasplan.renderers.filer_gcnv import gcnv_cli, gcnv_terraform

_BY_FAMILY: dict[str, list[Callable[[Facts], dict[str, str]]]] = {
    "anf": [anf_terraform, anf_cli, render_anf_group],
    "gcnv": [gcnv_terraform, gcnv_cli],
    "fsxn": [fsx_terraform, fsx_requests],
}


def render_filer_cloud(f: Facts) -> dict[str, str]:
    files: dict[str, str] = {}
    for part in _BY_FAMILY.get(f.family, []):
        files.update(part(f))
    return files

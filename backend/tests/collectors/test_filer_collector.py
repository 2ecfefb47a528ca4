"""The storage team's collector (issue 24): read-only filer commands whose output the audit
reads, served by the app and printed by the CLI."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from nasplan.audit.kinds import FILE_KINDS
from nasplan.cli import main as cli_main
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.filer_collector import (
    FILER_COLLECTOR_FAMILIES,
    filer_collector_text,
    filer_commands,
)

REALWORLD = Path(__file__).parents[1] / "corpus" / "realworld" / "files"

# Every command the list may hold only shows: a `show` with fields, the privilege switch around
# it, `options` with a prefix and no value (it lists), `vol options` with a volume and no option.
READ_ONLY = re.compile(
    r"(?:vserver nfs show|volume show|network port show) .*-fields [a-z0-9.,-]+"
    r"|network port show -fields [a-z0-9.,-]+"
    r"|set -privilege (?:advanced|admin)"
    r"|options nfs"
    r"|vol options [<>A-Za-z0-9_-]+"
)

MECHANISMS = {
    "ontap_cluster": ("ontap_nfs_server", "ontap_volume", "ontap_snapshot_policy", "ontap_port"),
    "ontap7": ("ontap7_option", "ontap7_vol_option"),
}


@pytest.mark.parametrize("family", FILER_COLLECTOR_FAMILIES)
def test_every_command_only_shows_and_every_file_is_an_audit_kind(
    kb: KnowledgeBase, family: str
) -> None:
    entries = filer_commands(kb.setting_keys(), family)  # type: ignore[arg-type]
    assert entries
    for entry in entries:
        assert entry.kind in FILE_KINDS
        for command in entry.commands:
            assert READ_ONLY.fullmatch(command), command


def test_the_cluster_list_asks_for_every_field_the_rules_set(kb: KnowledgeBase) -> None:
    keys = kb.setting_keys()
    text = "\n".join(c for e in filer_commands(keys, "ontap_cluster") for c in e.commands)
    asked = {f for m in re.findall(r"-fields (\S+)", text) for f in m.split(",")}
    wanted = {k for m in MECHANISMS["ontap_cluster"] for k in keys.get(m, [])}
    assert wanted and asked == wanted
    # The 7-mode options are listed by prefix: every option the rules set is an nfs.* one.
    assert all(k.startswith("nfs.") for k in keys["ontap7_option"])


def test_a_plan_gives_its_svm_volumes_and_port(kb: KnowledgeBase) -> None:
    text = filer_collector_text(
        {"ontap_snapshot_policy": ["snapshot-policy"], "ontap_port": ["mtu"]},
        "ontap_cluster",
        kb.version,
        svm="svm-ora01",
        volumes=["prod_data", "prod_redo"],
        port="e0e",
    )
    assert "volume show -vserver svm-ora01 -volume prod_data,prod_redo -fields snapshot-policy" in (
        text
    )
    assert "network port show -port e0e -fields mtu" in text
    assert "<svm>" not in text
    seven = filer_collector_text(
        {"ontap7_vol_option": ["minra"]}, "ontap7", kb.version, volumes=["prod_data"]
    )
    assert "vol options prod_data" in seven and "<volume>" not in seven


def test_real_output_of_the_listed_command_is_what_the_audit_reads(kb: KnowledgeBase) -> None:
    """NetApp's own `volume show ... -fields snapshot-policy` output ("Oracle disaster recovery
    with SnapMirror and log replay", Oracle databases on ONTAP, 2023-12-18; in the real-world
    corpus): the listed command has its form, and the audit reads its rows."""
    real = (REALWORLD / "dnf-ontap-fields-snapshot-policy-2023.txt").read_text()
    command = real.splitlines()[0].split("::> ", 1)[1]
    listed = next(
        c
        for e in filer_commands(kb.setting_keys(), "ontap_cluster", svm="vserver1")
        for c in e.commands
        if c.startswith("volume show")
    )
    assert command.split(" -volume ")[0] == listed.split(" -volume ")[0]
    assert command.endswith("-fields snapshot-policy") and listed.endswith(
        "-fields snapshot-policy"
    )
    rows = FILE_KINDS["ontap_fields"].parse(real).items
    assert [r.keys["volume"] for r in rows] == ["vol_oracle_datafiles", "vol_oracle_logs"]


def test_served_by_the_app_and_printed_by_the_cli(client: TestClient, kb: KnowledgeBase) -> None:
    response = client.get("/api/v1/collector/filer/ontap7")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert "options nfs" in response.text
    assert client.get("/api/v1/collector/filer/netapp").status_code == 422
    printed = StringIO()
    assert cli_main(["collector", "ontap_cluster"], out=printed) == 0
    assert printed.getvalue() == filer_collector_text(
        kb.setting_keys(), "ontap_cluster", kb.version
    )

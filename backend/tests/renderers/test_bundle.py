"""The bundle as a whole: deterministic zip, headers, metadata, safe scripts, the API."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import bundle_filename, render_bundle, render_bundle_files
from nasplan.renderers.common import BundleMeta
from nasplan.renderers.runbook import render_runbook_html, render_runbook_markdown
from tests.conftest import preset_platform
from tests.renderers.matrix import AS_OF, combo_plan, preset_plan

META = BundleMeta(
    design_id="Zk3_xQ9-abcDEF012345",
    design_name="PROD move to AFF",
    revision=3,
    permalink="https://nasplan.example.com/d/Zk3_xQ9-abcDEF012345/r/3",
)


def test_same_plan_same_bytes(kb: KnowledgeBase) -> None:
    plan = combo_plan(kb, "linux", "ontap_cluster", True, True)
    first = render_bundle(plan, META)
    again = render_bundle(make_plan(kb, plan.platform), META)
    assert first == again


def test_zip_layout_times_and_permissions(kb: KnowledgeBase) -> None:
    plan = preset_plan(kb, "current-rac")
    archive = zipfile.ZipFile(io.BytesIO(render_bundle(plan)))
    infos = archive.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names)
    assert all(n.startswith("nasplan-racdb/") for n in names)
    for wanted in (
        "README.md",
        "RUNBOOK.md",
        "RUNBOOK.html",
        "plan.json",
        "host/mounts.sh",
        "filer/commands.txt",
        "oracle/oranfstab",
        "verify/verify_host.sh",
        "rollback/host_rollback.sh",
        "ansible/site.yml",
        "ansible/templates/oranfstab.j2",
    ):
        assert f"nasplan-racdb/{wanted}" in names
    for info in infos:
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        mode = info.external_attr >> 16
        text = archive.read(info).decode()
        assert mode == (0o100755 if text.startswith("#!") else 0o100644), info.filename
    assert bundle_filename(plan) == f"nasplan-racdb-{AS_OF.isoformat()}.zip"
    assert bundle_filename(plan, META) == "nasplan-racdb-r3.zip"


def test_plan_json_is_the_plan(kb: KnowledgeBase) -> None:
    plan = preset_plan(kb, "tr3322-lab")
    document = json.loads(render_bundle_files(plan, META)["plan.json"])
    assert document["plan"] == json.loads(plan.model_dump_json())
    assert document["nasplan"]["revision"] == 3
    assert document["nasplan"]["kb_version"] == plan.kb_version


@pytest.mark.parametrize("preset", ["tr3322-lab", "current-rac", "example-aix", "fawcett-lab"])
def test_every_file_starts_with_a_header(kb: KnowledgeBase, preset: str) -> None:
    plan = preset_plan(kb, preset)
    for path, text in render_bundle_files(plan, META).items():
        # data files in their tools' own format
        if path in ("plan.json", "MANIFEST.sha256", "RUNBOOK.sha256"):
            continue
        top = "\n".join(text.splitlines()[:14])
        assert "nasplan" in top, path
        assert plan.kb_version in top, path
        assert AS_OF.isoformat() in top, path
        if path.endswith(".md") or path.endswith(".html"):
            continue
        assert META.permalink is not None and META.permalink in top, path
        assert "Revision: 3" in top and "Zk3_xQ9-abcDEF012345" in top, path
        assert "Rules behind these lines" in top, path


def test_every_rule_named_in_a_file_is_in_the_plan(kb: KnowledgeBase) -> None:
    plan = preset_plan(kb, "current-rac")
    files = render_bundle_files(plan)
    import re

    named = set()
    for path, text in files.items():
        if path != "plan.json":
            named |= set(re.findall(r"\b[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)+\b", text))
    rule_like = {n for n in named if n in kb.rules}
    assert rule_like <= set(plan.rules)


def test_design_name_cannot_break_out_of_a_comment(kb: KnowledgeBase) -> None:
    plan = preset_plan(kb, "current-linux-ontap")
    meta = BundleMeta(design_name="x\nrm -rf / # <script>alert(1)</script>\r\n`id`")
    files = render_bundle_files(plan, meta)
    for path, text in files.items():
        for line in text.splitlines():
            assert not line.startswith("rm -rf"), path
    html = render_runbook_html(plan, meta)
    assert "<script>" not in html and "&lt;script&gt;" not in html
    assert "(script)alert(1)(/script)" in html
    markdown = render_runbook_markdown(plan, meta)
    assert "<script>" not in markdown


@pytest.mark.parametrize(
    "field",
    [
        {"design_id": "a b"},
        {"design_id": "x;rm"},
        {"permalink": "javascript:alert(1)"},
        {"permalink": "https://a.example/ b"},
        {"revision": 0},
    ],
)
def test_bundle_meta_is_validated(field: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        BundleMeta.model_validate(field)


INJECTIONS = [
    ("layout", "db_name", "x;rm -rf /"),
    ("layout", "db_name", "P$(id)"),
    ("layout", "filer_host", "a$(id)"),
    ("layout", "filer_host", "filer01;reboot"),
    ("layout", "filer_host", "filer`id`"),
    ("host", "hostname", "db01 && halt"),
    ("host", "nic_interface", "eth0;reboot"),
    ("filer", "interface", "e0a'"),
]


@pytest.mark.parametrize(("section", "field", "value"), INJECTIONS)
def test_injection_is_refused_by_the_model(section: str, field: str, value: str) -> None:
    body = copy.deepcopy(EXAMPLE_PLATFORM)
    body[section][field] = value
    with pytest.raises(ValidationError):
        Platform.model_validate(body)


@pytest.mark.parametrize(("section", "field", "value"), INJECTIONS)
@pytest.mark.parametrize("endpoint", ["/api/v1/plans/bundle", "/api/v1/plans/runbook"])
def test_injection_is_refused_by_the_api_before_any_file_is_made(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    endpoint: str,
    section: str,
    field: str,
    value: str,
) -> None:
    from nasplan.api.routes import bundles

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("a file was rendered")

    monkeypatch.setattr(bundles, "render_bundle", refuse)
    monkeypatch.setattr(bundles, "render_runbook_markdown", refuse)
    body = copy.deepcopy(EXAMPLE_PLATFORM)
    body[section][field] = value
    response = client.post(endpoint, json=body)
    assert response.status_code == 422
    assert ["body", section, field] in [d["loc"] for d in response.json()["detail"]]


def test_bundle_endpoint(client: TestClient) -> None:
    response = client.post("/api/v1/plans/bundle", json=EXAMPLE_PLATFORM)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/zip"
    assert response.headers["content-disposition"].startswith('attachment; filename="nasplan-prod-')
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert "nasplan-prod/host/vfstab.add" in names


def test_runbook_endpoint(client: TestClient) -> None:
    markdown = client.post("/api/v1/plans/runbook", json=EXAMPLE_PLATFORM)
    assert markdown.status_code == 200
    assert markdown.headers["content-type"].startswith("text/markdown")
    titles = [
        "## 1. Prerequisites and pre-checks",
        "## 2. Network",
        "## 3. Filer",
        "## 4. Host",
        "## 5. Oracle",
        "## 6. Verification",
        "## 7. Rollback",
    ]
    positions = [markdown.text.index(t) for t in titles]
    assert positions == sorted(positions)
    html = client.post("/api/v1/plans/runbook?format=html", json=EXAMPLE_PLATFORM)
    assert html.status_code == 200
    assert html.headers["content-type"].startswith("text/html")
    # Fit for a change window: headings kept with what follows, no forced page per phase
    # (no blank half pages), a box to tick per step and a sign-off table per team.
    assert "@page" in html.text and "h2, h3, .label { break-after: avoid;" in html.text
    assert "break-before: page" not in html.text
    assert html.text.count('class="box"') == markdown.text.count("- [ ] Done by")
    assert '<table class="signoff">' in html.text and "## Sign-off" in markdown.text
    assert "http://" not in html.text and "https://" not in html.text  # no external assets
    bad = client.post("/api/v1/plans/runbook?format=pdf", json=EXAMPLE_PLATFORM)
    assert bad.status_code == 422


def test_runbook_steps_cite_rules_and_sources(kb: KnowledgeBase) -> None:
    plan = preset_plan(kb, "tr3322-lab")
    text = render_runbook_markdown(plan)
    assert "NTAP-MINRA-OFF: Leave read-ahead at its default" in text
    assert "tr-3322 § Volume options, note (2009-05-01)" in text
    assert "**Needs:** reboot of the host" in text
    assert "**Risk:**" in text and "**Expected:**" in text


def test_plan_with_errors_is_flagged_everywhere(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "tr3322-lab", {"oracle": {"dnfs": True}}))
    assert any(f.severity == "error" for f in plan.findings)
    files = render_bundle_files(plan)
    assert "STOP" in files["README.md"] and "STOP" in files["RUNBOOK.md"]
    assert "PLAN_ERRORS=1" in files["host/mounts.sh"]


# ---------------------------------------------------------------- the scripts themselves
def _write(files: dict[str, str], root: Path) -> None:
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def _run(script: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(script), *args], capture_output=True, text=True, env=env, check=False
    )


def test_oranfstab_install_refuses_placeholders_and_is_idempotent(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    # Two storage NICs: oranfstab has <host-ip-n> placeholders until someone fills them in.
    plan = combo_plan(kb, "linux", "ontap_cluster", False, True)
    bundle = tmp_path / "bundle"
    _write(render_bundle_files(plan), bundle)
    home = tmp_path / "home"
    (home / "dbs").mkdir(parents=True)
    env = {**os.environ, "ORACLE_HOME": str(home)}
    script = bundle / "oracle/install_oranfstab.sh"
    refused = _run(script, "--apply", env=env)
    assert refused.returncode == 1 and "values in angle brackets" in refused.stderr
    assert not (home / "dbs/oranfstab").exists()
    source = bundle / "oracle/oranfstab"
    text = source.read_text()
    for n in (1, 2):
        text = text.replace(f"<host-ip-{n}>", f"192.0.2.{n}").replace(
            f"<filer-ip-{n}>", f"192.0.2.{10 + n}"
        )
    source.write_text(text)
    dry = _run(script, env=env)
    assert dry.returncode == 0 and "would install" in dry.stdout
    assert not (home / "dbs/oranfstab").exists()
    applied = _run(script, "--apply", env=env)
    assert applied.returncode == 0, applied.stderr
    installed = (home / "dbs/oranfstab").read_text()
    assert installed.startswith("server: svm-ora01\nlocal: 192.0.2.1\npath: 192.0.2.11\n")
    assert "#" not in installed
    again = _run(script, "--apply", env=env)
    assert again.returncode == 0 and "ok:" in again.stdout


def test_scripts_refuse_apply_when_the_plan_has_errors(kb: KnowledgeBase, tmp_path: Path) -> None:
    # NFSv4.1 on Solaris is refused by the knowledge base, but Direct NFS is still planned.
    platform = preset_platform(kb, "fawcett-lab", {"oracle": {"nfs_version": "4.1"}}, as_of=AS_OF)
    plan = make_plan(kb, platform)
    assert any(f.severity == "error" for f in plan.findings)
    _write(render_bundle_files(plan), tmp_path)
    home = tmp_path / "home"
    (home / "dbs").mkdir(parents=True)
    env = {**os.environ, "ORACLE_HOME": str(home)}
    result = _run(tmp_path / "oracle/install_oranfstab.sh", "--apply", env=env)
    assert result.returncode == 1 and "error finding" in result.stderr
    assert not (home / "dbs/oranfstab").exists()


def test_linux_dry_runs_change_nothing(kb: KnowledgeBase, tmp_path: Path) -> None:
    plan = preset_plan(kb, "current-rac")
    _write(render_bundle_files(plan), tmp_path)
    watched = [Path(p) for p in ("/etc/fstab", "/etc/sysctl.conf") if Path(p).exists()]
    before = {p: p.read_bytes() for p in watched}
    for script in (
        "host/network.sh",
        "host/tuning.sh",
        "host/mounts.sh",
        "rollback/host_rollback.sh",
    ):
        result = _run(tmp_path / script, env=dict(os.environ))
        assert result.returncode == 0, (script, result.stderr)
        assert "dry run: nothing is changed" in result.stdout
    assert {p: p.read_bytes() for p in watched} == before
    assert not Path("/etc/sysctl.d/90-nasplan-racdb.conf").exists()
    assert not Path("/var/opt/nasplan/RACDB").exists()
    usage = _run(tmp_path / "host/mounts.sh", "--bogus", env=dict(os.environ))
    assert usage.returncode == 2

"""Hostile input against every renderer, through the real designs API.

a. Free text a user types (design name, rename, reviewer, comment) goes into a saved design;
   the revision's bundle and runbooks must stay well-formed and inert: safe zip entry names,
   scripts that parse and pass shellcheck, YAML that parses, HTML with no element or attribute
   from the text, no text inside a Jinja expression or statement, an Ansible playbook that
   passes --syntax-check and runs in --check mode without running anything.
b. Every generated script is dry-run (never with --apply) with a PATH whose first directory
   records any call of the canary command (and of touch, id, rm, curl, wget ...).
c. Import: a design document whose plan carries hostile strings must be refused (422 naming
   the field) or re-planned by the site, and imported approvals are not approvals here.

Today's code is known to fail some of these (see the report that came with this file).
"""

from __future__ import annotations

import copy
import grp
import hashlib
import io
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from jinja2 import Environment, TemplateSyntaxError

from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.ansible_env import ansible_python
from tests.conftest import preset_platform
from tests.renderers.terraform_check import terraform_errors
from tests.security.hostile import (
    BY_LABEL,
    CANARY,
    CANARY_DIR,
    CANARY_LOG,
    CORPUS,
    IMPORT_SET,
    INERT,
    MARK,
    RECORDED,
    SUBSET,
    WORST,
    Hostile,
)

API = "/api/v1/designs"
LINUX = "current-linux-ontap"  # Linux, clustered ONTAP, Direct NFS: ansible/ and oranfstab.j2
SOLARIS = "tr3322-lab"  # Solaris 9, 7-mode: driver .conf, /etc/system, ndd
VENV_BIN = Path(sys.executable).parent
ANSIBLE_PLAYBOOK = VENV_BIN / "ansible-playbook"
SAFE_ENTRY = re.compile(r"^nasplan-[a-z0-9_]+/(?:[A-Za-z0-9_.+-]+/)*[A-Za-z0-9_.+-]+$")
COMMENT_PREFIXES = ("#", "--", "*")
SCRIPT_TIMEOUT = 30
ANSIBLE_TIMEOUT = 180


def _ids(corpus: list[Hostile]) -> list[str]:
    return [h.label for h in corpus]


# ------------------------------------------------------------------ the canary and the shims
_RECORDER = """#!/bin/sh
printf '%s %s\\n' "$(basename "$0")" "$*" >> {log}
{tail}
"""


@pytest.fixture(scope="module")
def shim_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory to put first in PATH: recorders for dangerous commands, inert network tools."""
    directory = tmp_path_factory.mktemp("shim-bin")
    real_id = shutil.which("id") or "/usr/bin/id"
    for name in RECORDED:
        # id runs for real after being recorded, so `uid=` shows an `id` injection in output.
        tail = f'exec {real_id} "$@"' if name == "id" else "exit 0"
        path = directory / name
        path.write_text(_RECORDER.format(log=CANARY_LOG, tail=tail))
        path.chmod(0o755)
    for name in INERT:
        path = directory / name
        path.write_text("#!/bin/sh\nexit 0\n")
        path.chmod(0o755)
    nawk = directory / "nawk"  # Solaris scripts: the POSIX awk there
    nawk.write_text('#!/bin/sh\nexec awk "$@"\n')
    nawk.chmod(0o755)
    return directory


@pytest.fixture(autouse=True)
def clean_canary() -> Iterator[None]:
    CANARY_DIR.mkdir(parents=True, exist_ok=True)
    CANARY.unlink(missing_ok=True)
    CANARY_LOG.unlink(missing_ok=True)
    yield
    CANARY.unlink(missing_ok=True)
    CANARY_LOG.unlink(missing_ok=True)


def canary_problems(where: str) -> list[str]:
    """What the canary saw: the CANARY file, or a recorded call naming the marker."""
    problems: list[str] = []
    if CANARY.exists():
        problems.append(f"{where}: the CANARY file was created")
    if CANARY_LOG.exists():
        for line in CANARY_LOG.read_text(errors="replace").splitlines():
            if line.startswith(MARK) or MARK in line or str(CANARY) in line:
                problems.append(f"{where}: hostile command ran: {line[:200]!r}")
    return problems


# ------------------------------------------------------------------ Ansible, ansible.posix
# The playbooks run for real against this machine, so ansible.posix's mount and sysctl are
# replaced by plugins that change nothing. They check each task's arguments against the real
# modules' argument specs (with their required_if rules), taken from the ansible.posix the
# project pins (tests/ansible_env.py), and fail the task on any error.
_CHECKING_MODULE = '''#!/usr/bin/python
"""ansible.posix.{name} for the tests: the real argument spec, and no change."""
import json

from ansible.module_utils.basic import AnsibleModule

SPEC = json.loads({spec!r})


def main():
    module = AnsibleModule(supports_check_mode=True, **SPEC)
    module.exit_json(changed=False)


if __name__ == "__main__":
    main()
'''
_CHECKING_ACTION = '''"""ansible.posix.{name} for the tests, on the controller (fast): the task's
arguments checked against the real module's argument spec; nothing changed."""
import json

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.plugins.action import ActionBase

SPEC = json.loads({spec!r})


class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        rules = dict(SPEC)
        validator = ArgumentSpecValidator(rules.pop("argument_spec"), **rules)
        errors = validator.validate(dict(self._task.args)).error_messages
        if errors:
            result.update(failed=True, msg="ansible.posix.{name}: " + "; ".join(errors))
        else:
            result["changed"] = False
        return result
'''
POSIX_MODULES = ("mount", "sysctl")
SPEC_CHECK = Path(__file__).parents[1] / "renderers" / "playbook_spec_check.py"


def real_posix_spec(name: str) -> str:
    """ansible.posix.NAME's argument spec as JSON, caught from the pinned collection."""
    run = subprocess.run(
        [str(ansible_python()), str(SPEC_CHECK), "--spec", f"ansible.posix.{name}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout.strip()


@pytest.fixture(scope="module")
def posix_stub(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ansible_collections/ansible/posix with mount and sysctl that check the real argument
    specs and change nothing (module and action)."""
    root = tmp_path_factory.mktemp("collections")
    plugins = root / "ansible_collections/ansible/posix/plugins"
    for kind in ("modules", "action"):
        (plugins / kind).mkdir(parents=True)
    for name in POSIX_MODULES:
        spec = real_posix_spec(name)
        (plugins / "modules" / f"{name}.py").write_text(
            _CHECKING_MODULE.format(name=name, spec=spec)
        )
        (plugins / "action" / f"{name}.py").write_text(
            _CHECKING_ACTION.format(name=name, spec=spec)
        )
    return root


def _ansible_env(work: Path, collections: Path, shim: Path | None) -> dict[str, str]:
    home = work / "ansible-home"
    home.mkdir(exist_ok=True)
    path = os.environ.get("PATH", "/usr/bin:/bin")
    return {
        "PATH": f"{shim}:{VENV_BIN}:{path}" if shim else f"{VENV_BIN}:{path}",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "ANSIBLE_COLLECTIONS_PATH": str(collections),
        "ANSIBLE_LOCAL_TEMP": str(home / "tmp"),
        "ANSIBLE_REMOTE_TEMP": str(home / "remote-tmp"),
        "ANSIBLE_GATHERING": "explicit",
        "ANSIBLE_PIPELINING": "1",
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_RETRY_FILES_ENABLED": "0",
        "ANSIBLE_HOST_KEY_CHECKING": "0",
    }


def _inventory(work: Path, site: Path) -> Path:
    plays = load_yaml(site.read_text())
    group = plays[0]["hosts"]
    inventory = work / "inventory.ini"
    inventory.write_text(
        f"[{group}]\nlocalhost ansible_connection=local "
        f"ansible_python_interpreter={sys.executable}\n"
    )
    return inventory


_SYNTAX_OK: dict[str, str] = {}


def syntax_check(bundle: Path, work: Path, collections: Path) -> list[str]:
    """ansible-playbook --syntax-check, once per distinct parsed playbook (comments aside)."""
    site = bundle / "ansible/site.yml"
    try:
        parsed = load_yaml(site.read_text())
    except yaml.YAMLError as exc:
        return [f"ansible/site.yml: not one YAML document: {exc}"]
    key = hashlib.sha256(json.dumps(parsed, sort_keys=True).encode()).hexdigest()
    if key not in _SYNTAX_OK:
        result = subprocess.run(
            [str(ANSIBLE_PLAYBOOK), "--syntax-check", "-i", str(_inventory(work, site)), str(site)],
            capture_output=True,
            text=True,
            env=_ansible_env(work, collections, None),
            cwd=work,
            timeout=ANSIBLE_TIMEOUT,
            check=False,
        )
        if result.returncode != 0:
            return [f"ansible --syntax-check failed: {(result.stdout + result.stderr)[-1500:]}"]
        _SYNTAX_OK[key] = result.stdout
    return []


def ansible_check_run(bundle: Path, work: Path, collections: Path, shim: Path) -> tuple[int, str]:
    """ansible-playbook --check --diff on localhost, with every value the playbook asserts."""
    site = bundle / "ansible/site.yml"
    try:
        load_yaml(site.read_text())
    except yaml.YAMLError as exc:
        return 1, f"ansible/site.yml: not one YAML document: {exc}"
    home = work / "oracle-home"
    (home / "dbs").mkdir(parents=True, exist_ok=True)
    user = pwd.getpwuid(os.getuid()).pw_name
    group = grp.getgrgid(os.getgid()).gr_name
    result = subprocess.run(
        [
            str(ANSIBLE_PLAYBOOK),
            "-i",
            str(_inventory(work, site)),
            "--check",
            "--diff",
            str(site),
            "-e",
            f"oracle_home={home}",
            "-e",
            f"oracle_owner={user}",
            "-e",
            f"oracle_group={group}",
            "-e",
            json.dumps({"oranfstab_paths": [{"path": "192.0.2.10"}], "ansible_become": False}),
        ],
        capture_output=True,
        text=True,
        env=_ansible_env(work, collections, shim),
        cwd=work,
        timeout=ANSIBLE_TIMEOUT,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


# ------------------------------------------------------------------ what a revision serves
@dataclass
class Outputs:
    names: list[str]
    files: dict[str, str]  # path inside the bundle root -> text
    runbook_md: str
    runbook_html: str


def fetch_outputs(client: TestClient, design_id: str, revision: int) -> Outputs:
    bundle = client.get(f"{API}/{design_id}/revisions/{revision}/bundle")
    assert bundle.status_code == 200, bundle.text[:500]
    archive = zipfile.ZipFile(io.BytesIO(bundle.content))
    names = archive.namelist()
    files: dict[str, str] = {}
    for name in names:
        inner = name.split("/", 1)[1] if "/" in name else name
        files[inner] = archive.read(name).decode("utf-8")
    md = client.get(f"{API}/{design_id}/revisions/{revision}/runbook")
    html = client.get(f"{API}/{design_id}/revisions/{revision}/runbook", params={"format": "html"})
    assert md.status_code == 200, md.text[:500]
    assert html.status_code == 200, html.text[:500]
    return Outputs(names, files, md.text, html.text)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attrs: set[tuple[str, str]] = set()
        self.comments = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs.update((tag, name) for name, _ in attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_comment(self, data: str) -> None:
        self.comments += 1


def html_shape(text: str) -> _Tags:
    parser = _Tags()
    parser.feed(text)
    parser.close()
    return parser


_MD_TAG = re.compile(r"(?<!\\)<(/?[A-Za-z][A-Za-z0-9-]*|!--)")


_MD_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def md_rendered(text: str) -> str:
    """Markdown without its HTML comments (which are not rendered)."""
    return _MD_COMMENT.sub("<!---->", text)


def md_tags(text: str) -> set[str]:
    return set(_MD_TAG.findall(md_rendered(text)))


def jinja_spans(source: str) -> list[str]:
    """The source of every {{ expression }} and {% statement %} Jinja would evaluate."""
    spans: list[str] = []
    current: list[str] | None = None
    for _, kind, value in Environment().lex(source):
        if kind in ("variable_begin", "block_begin"):
            current = []
        elif kind in ("variable_end", "block_end") and current is not None:
            spans.append(" ".join(v for v in current if v.strip()))
            current = None
        elif current is not None:
            current.append(value)
    return spans


class Unsafe(str):
    """A string Ansible's `!unsafe` tag marks as data: Ansible never templates it."""


class PlaybookLoader(yaml.SafeLoader):
    """yaml.safe_load plus Ansible's `!unsafe` tag (a plain string that is never templated)."""


def _construct_unsafe(loader: yaml.SafeLoader, node: yaml.Node) -> Unsafe:
    assert isinstance(node, yaml.ScalarNode), "!unsafe on a non-scalar"
    return Unsafe(loader.construct_scalar(node))


PlaybookLoader.add_constructor("!unsafe", _construct_unsafe)


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=PlaybookLoader)  # a SafeLoader subclass


def _yaml_strings(node: Any) -> Iterator[str]:
    if isinstance(node, Unsafe):
        return  # Ansible treats it as data
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _yaml_strings(key)
            yield from _yaml_strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _yaml_strings(item)


def ansible_spans(files: dict[str, str]) -> tuple[set[str], list[str]]:
    """Jinja spans Ansible evaluates: in its templates and in every string of the playbook."""
    spans: set[str] = set()
    problems: list[str] = []
    for path, text in files.items():
        if not path.startswith("ansible/"):
            continue
        sources: list[str] = []
        if path.endswith(".j2"):
            sources = [text]
        elif path.endswith(".yml"):
            try:
                sources = list(_yaml_strings(load_yaml(text)))
            except yaml.YAMLError:
                continue  # reported by the YAML check
        for source in sources:
            try:
                spans.update(jinja_spans(source))
            except TemplateSyntaxError as exc:
                problems.append(f"{path}: not a valid Jinja template for Ansible: {exc}")
    return spans, problems


@dataclass
class Baseline:
    html_tags: set[str]
    html_attrs: set[tuple[str, str]]
    html_comments: int
    md_tags: set[str]
    spans: set[str]
    names: set[str] = field(default_factory=set)


def baseline_of(outputs: Outputs) -> Baseline:
    shape = html_shape(outputs.runbook_html)
    spans, _ = ansible_spans(outputs.files)
    return Baseline(
        html_tags=shape.tags,
        html_attrs=shape.attrs,
        html_comments=shape.comments,
        md_tags=md_tags(outputs.runbook_md)
        | md_tags(outputs.files.get("RUNBOOK.md", ""))
        | md_tags(outputs.files.get("README.md", "")),
        spans=spans,
        names={n.split("/", 1)[1] for n in outputs.names},
    )


def static_problems(out: Outputs, base: Baseline, *, free_text_in_comments: bool) -> list[str]:
    """Everything that can be checked without running anything."""
    problems: list[str] = []
    for name in out.names:
        parts = name.split("/")
        if (
            not SAFE_ENTRY.match(name)
            or "\\" in name
            or name.startswith("/")
            or any(p in ("", ".", "..") for p in parts)
        ):
            problems.append(f"unsafe zip entry name {name!r}")
    for path, text in out.files.items():
        if path.endswith(".yml"):
            try:
                load_yaml(text)
            except yaml.YAMLError as exc:
                problems.append(f"{path}: not YAML: {exc}")
        if path.endswith(".json"):
            try:
                json.loads(text)
            except ValueError as exc:
                problems.append(f"{path}: not JSON: {exc}")
        if free_text_in_comments and not path.endswith((".md", ".html", ".json", ".j2")):
            # Free text may only stand in comments of scripts, SQL and configuration files.
            for number, line in enumerate(text.splitlines(), 1):
                if MARK in line and not line.lstrip().startswith(COMMENT_PREFIXES):
                    problems.append(f"{path}:{number}: free text outside a comment: {line[:160]!r}")
    for label, html in (
        ("RUNBOOK.html", out.files.get("RUNBOOK.html", "")),
        ("runbook?format=html", out.runbook_html),
    ):
        shape = html_shape(html)
        if "script" in shape.tags:
            problems.append(f"{label}: has a <script> element")
        extra_tags = shape.tags - base.html_tags
        extra_attrs = shape.attrs - base.html_attrs
        if extra_tags or extra_attrs:
            problems.append(
                f"{label}: elements/attributes from the text: {extra_tags} {extra_attrs}"
            )
        if any(name.startswith("on") for _, name in shape.attrs):
            problems.append(f"{label}: an on* event-handler attribute")
        if shape.comments > base.html_comments:
            problems.append(f"{label}: an HTML comment opened by the text")
    for label, md in (
        ("RUNBOOK.md", out.files.get("RUNBOOK.md", "")),
        ("runbook (md)", out.runbook_md),
        ("README.md", out.files.get("README.md", "")),
    ):
        extra = md_tags(md) - base.md_tags
        if extra:
            problems.append(f"{label}: raw HTML from the text: {extra}")
        if re.search(r"(?<!\\)\]\((?:javascript|data|vbscript):", md_rendered(md), re.I):
            problems.append(f"{label}: a script link")
    spans, jinja_errors = ansible_spans(out.files)
    problems += jinja_errors
    foreign = spans - base.spans
    if foreign:
        problems.append(f"text inside Jinja expressions/statements: {sorted(foreign)[:5]}")
    return problems


def write_bundle(out: Outputs, root: Path) -> Path:
    """The bundle on disk (safe entry names only: the others are reported, not written)."""
    for name in out.names:
        if not SAFE_ENTRY.match(name) or ".." in name.split("/"):
            continue
        inner = name.split("/", 1)[1]
        target = root / inner
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(out.files[inner], encoding="utf-8")
    return root


def script_problems(bundle: Path) -> list[str]:
    """bash -n and shellcheck -S warning on every script of the bundle."""
    problems: list[str] = []
    scripts = sorted(bundle.rglob("*.sh"))
    for script in scripts:
        parsed = subprocess.run(
            ["bash", "-n", str(script)], capture_output=True, text=True, check=False
        )
        if parsed.returncode != 0:
            problems.append(f"bash -n {script.relative_to(bundle)}: {parsed.stderr[-500:]}")
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        problems.append("shellcheck is not installed")
    elif scripts:
        checked = subprocess.run(
            [shellcheck, "-S", "warning", "-f", "gcc", *map(str, scripts)],
            capture_output=True,
            text=True,
            check=False,
        )
        if checked.returncode != 0:
            problems.append(
                f"shellcheck -S warning: {checked.stdout[-2000:]}{checked.stderr[-300:]}"
            )
    return problems


def dry_run_problems(bundle: Path, work: Path, shim: Path) -> list[str]:
    """Run every script WITHOUT --apply, in a scratch directory, with the shims first in PATH."""
    problems: list[str] = []
    home = work / "home"
    oracle_home = work / "oracle-home"
    for directory in (home, oracle_home / "dbs", oracle_home / "rdbms/lib"):
        directory.mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": f"{shim}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(home),
        "ORACLE_HOME": str(oracle_home),
        "LANG": "C.UTF-8",
    }
    scripts = sorted(p for p in bundle.rglob("*") if p.is_file() and p.read_text().startswith("#!"))
    for script in scripts:
        relative = script.relative_to(bundle)
        # The Solaris rc script: `stop` does nothing; `start` would set values.
        args = ["stop"] if script.name.startswith("nasplan_ndd_") else []
        try:
            result = subprocess.run(
                ["sh", str(script), *args],
                capture_output=True,
                text=True,
                env=env,
                cwd=work,
                timeout=SCRIPT_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            problems.append(f"dry run of {relative} did not end in {SCRIPT_TIMEOUT}s")
            continue
        output = result.stdout + result.stderr
        if "uid=" in output:
            problems.append(f"dry run of {relative}: `id` output in it: {output[-300:]!r}")
        problems += canary_problems(f"dry run of {relative}")
        # Start each script with a clean canary, so that a hit names the script that ran it.
        CANARY.unlink(missing_ok=True)
        CANARY_LOG.unlink(missing_ok=True)
    return problems


def full_problems(
    out: Outputs,
    base: Baseline,
    work: Path,
    shim: Path,
    collections: Path,
    *,
    free_text_in_comments: bool,
) -> list[str]:
    problems = static_problems(out, base, free_text_in_comments=free_text_in_comments)
    bundle = write_bundle(out, work / "bundle")
    problems += script_problems(bundle)
    if (bundle / "ansible/site.yml").exists():
        problems += syntax_check(bundle, work, collections)
    problems += dry_run_problems(bundle, work / "run", shim)
    return problems


# ------------------------------------------------------------------ designs through the API
@pytest.fixture(scope="module")
def client(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The app as tests/conftest.py builds it (SQLite in a temporary directory), with a public
    URL for the permalinks and no write rate limit (this module makes a few hundred writes)."""
    directory = tmp_path_factory.mktemp("security-db")
    settings = Settings.model_validate(
        {
            "DATABASE_URL": f"sqlite:///{directory / 'nasplan.db'}",
            "NASPLAN_PUBLIC_URL": "https://nasplan.example.com",
            "NASPLAN_RATE_LIMIT_WRITES": "",
        }
    )
    with TestClient(create_app(settings, kb=kb)) as test_client:
        yield test_client


def platform_json(kb: KnowledgeBase, preset: str) -> dict[str, Any]:
    return preset_platform(kb, preset).model_dump(mode="json")


def create(client: TestClient, kb: KnowledgeBase, name: str, preset: str = LINUX) -> dict[str, Any]:
    response = client.post(API, json={"name": name, "platform": platform_json(kb, preset)})
    assert response.status_code == 201, response.text[:500]
    body: dict[str, Any] = response.json()
    return body


_BASELINES: dict[str, tuple[Outputs, Baseline]] = {}


def baseline(client: TestClient, kb: KnowledgeBase, preset: str = LINUX) -> Baseline:
    if preset not in _BASELINES:
        design = create(client, kb, "baseline design", preset)
        outputs = fetch_outputs(client, design["id"], 1)
        _BASELINES[preset] = (outputs, baseline_of(outputs))
    return _BASELINES[preset][1]


def locs(response: Any) -> list[list[Any]]:
    detail = response.json().get("detail")
    assert isinstance(detail, list), response.text[:500]
    return [d["loc"] for d in detail]


def refused_naming(response: Any, *fields: list[str]) -> bool:
    """True for a 422 that names one of the fields; fails on anything but 201 or that."""
    assert response.status_code != 500, response.text[:500]
    if response.status_code == 422:
        named = locs(response)
        assert any(f in named for f in fields), (fields, named)
        return True
    assert response.status_code == 201, (response.status_code, response.text[:500])
    return False


# ------------------------------------------------------------------ a. free text through the API
@pytest.mark.parametrize("hostile", CORPUS, ids=_ids(CORPUS))
def test_design_name(
    client: TestClient,
    kb: KnowledgeBase,
    hostile: Hostile,
    tmp_path: Path,
    shim_bin: Path,
    posix_stub: Path,
) -> None:
    base = baseline(client, kb)
    response = client.post(API, json={"name": hostile.text, "platform": platform_json(kb, LINUX)})
    if refused_naming(response, ["body", "name"]):
        return
    design_id = response.json()["id"]
    assert client.get(f"{API}/{design_id}").status_code == 200
    out = fetch_outputs(client, design_id, 1)
    problems = full_problems(out, base, tmp_path, shim_bin, posix_stub, free_text_in_comments=True)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("hostile", SUBSET, ids=_ids(SUBSET))
def test_design_rename_in_a_new_revision(
    client: TestClient,
    kb: KnowledgeBase,
    hostile: Hostile,
    tmp_path: Path,
    shim_bin: Path,
    posix_stub: Path,
) -> None:
    base = baseline(client, kb)
    design = create(client, kb, "to be renamed")
    response = client.post(
        f"{API}/{design['id']}/revisions",
        json={"platform": platform_json(kb, LINUX), "base_revision": 1, "name": hostile.text},
        headers={"X-Edit-Token": design["edit_token"]},
    )
    if refused_naming(response, ["body", "name"]):
        return
    assert client.get(f"{API}/{design['id']}").status_code == 200
    out = fetch_outputs(client, design["id"], 2)
    problems = full_problems(out, base, tmp_path, shim_bin, posix_stub, free_text_in_comments=True)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("hostile", SUBSET, ids=_ids(SUBSET))
def test_reviewer_and_comment(
    client: TestClient,
    kb: KnowledgeBase,
    hostile: Hostile,
    tmp_path: Path,
    shim_bin: Path,
    posix_stub: Path,
) -> None:
    base = baseline(client, kb)
    design = create(client, kb, "reviewed")
    headers = {"X-Review-Token": design["review_token"]}
    url = f"{API}/{design['id']}/reviews"
    as_reviewer = client.post(
        url,
        json={"revision": 1, "reviewer": hostile.text, "decision": "comment", "comment": "ok"},
        headers=headers,
    )
    refused_naming(as_reviewer, ["body", "reviewer"])
    as_comment = client.post(
        url,
        json={
            "revision": 1,
            "reviewer": "storage",
            "decision": "request_changes",
            "comment": hostile.text,
        },
        headers=headers,
    )
    refused_naming(as_comment, ["body", "comment"])
    for path in (f"{API}/{design['id']}", f"{API}/{design['id']}/revisions/1"):
        assert client.get(path).status_code == 200
    exported = client.get(f"{API}/{design['id']}/export")
    assert exported.status_code == 200
    out = fetch_outputs(client, design["id"], 1)
    problems = full_problems(out, base, tmp_path, shim_bin, posix_stub, free_text_in_comments=True)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("hostile", SUBSET, ids=_ids(SUBSET))
def test_approval_by_a_hostile_reviewer(
    client: TestClient,
    kb: KnowledgeBase,
    hostile: Hostile,
    tmp_path: Path,
    shim_bin: Path,
    posix_stub: Path,
) -> None:
    """An approval writes its reviewer into README.md and the served runbook's stamp."""
    base = baseline(client, kb)
    design = create(client, kb, "approved")
    approval = client.post(
        f"{API}/{design['id']}/reviews",
        json={"revision": 1, "reviewer": hostile.text, "decision": "approve"},
        headers={"X-Review-Token": design["review_token"]},
    )
    if refused_naming(approval, ["body", "reviewer"]):
        return
    assert approval.status_code == 201, approval.text
    out = fetch_outputs(client, design["id"], 1)
    problems = full_problems(out, base, tmp_path, shim_bin, posix_stub, free_text_in_comments=True)
    assert not problems, "\n".join(problems)


def _ansible_problems(out: Outputs, work: Path, collections: Path, shim: Path) -> list[str]:
    bundle = write_bundle(out, work / "bundle")
    code, output = ansible_check_run(bundle, work, collections, shim)
    problems: list[str] = []
    if code != 0:
        problems.append(f"ansible-playbook --check failed ({code}): {output[-1500:]}")
    if "uid=" in output:
        at = output.index("uid=")
        problems.append(
            f"ansible-playbook --check ran `id`: {output[max(0, at - 200) : at + 80]!r}"
        )
    problems += canary_problems("ansible-playbook --check")
    return problems


@pytest.mark.parametrize("hostile", WORST, ids=_ids(WORST))
def test_ansible_check_runs_nothing_from_the_design_name(
    client: TestClient,
    kb: KnowledgeBase,
    hostile: Hostile,
    tmp_path: Path,
    shim_bin: Path,
    posix_stub: Path,
) -> None:
    response = client.post(API, json={"name": hostile.text, "platform": platform_json(kb, LINUX)})
    if refused_naming(response, ["body", "name"]):
        return
    out = fetch_outputs(client, response.json()["id"], 1)
    problems = _ansible_problems(out, tmp_path, posix_stub, shim_bin)
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------ c. import
Planter = Callable[[dict[str, Any], str], None]


def _replace_everywhere(node: Any, old: str, new: str) -> Any:
    """A copy of node with every string equal to old (values and keys) replaced by new."""
    if isinstance(node, str):
        return new if node == old else node
    if isinstance(node, list):
        return [_replace_everywhere(item, old, new) for item in node]
    if isinstance(node, dict):
        return {
            (new if key == old else key): _replace_everywhere(value, old, new)
            for key, value in node.items()
        }
    return node


def _plant_rule_id(plan: dict[str, Any], text: str) -> None:
    # A mount's rule: it is named in task names of the playbook and in every mount table.
    used = [r for m in plan["mounts"] for r in m["rules"]] + [
        r for s in plan["settings"] for r in s["rules"]
    ]
    replaced = _replace_everywhere(plan, used[0], text)
    plan.clear()
    plan.update(replaced)


def _each(section: str, key: str, first_only: bool = False) -> Planter:
    def plant(plan: dict[str, Any], text: str) -> None:
        items = plan[section][:1] if first_only else plan[section]
        assert items, f"the plan has no {section}"
        for item in items:
            item[key] = text

    return plant


def _plant_option(plan: dict[str, Any], text: str) -> None:
    for mount in plan["mounts"]:
        mount["options"].append(text)
        mount["option_rules"][text] = mount["rules"][:1]


def _plant_export(plan: dict[str, Any], text: str) -> None:
    for mount in plan["mounts"]:
        mount["export"] = mount["export"].split(":", 1)[0] + ":" + text


def _plant_scope(plan: dict[str, Any], text: str) -> None:
    for setting in plan["settings"]:
        setting["scope"] = text


PLANTS: dict[str, tuple[str, Planter]] = {
    "plan.rules (rule id)": (LINUX, _plant_rule_id),
    "setting.key": (LINUX, _each("settings", "key")),
    "setting.value": (LINUX, _each("settings", "value")),
    "setting.scope (solaris)": (SOLARIS, _plant_scope),
    "setting.key (solaris)": (SOLARIS, _each("settings", "key")),
    "check.command": (LINUX, _each("checks", "command")),
    "check.what": (LINUX, _each("checks", "what")),
    "check.expect": (LINUX, _each("checks", "expect")),
    "mount.options": (LINUX, _plant_option),
    "mount.mount_point": (LINUX, _each("mounts", "mount_point", first_only=True)),
    "mount.export": (LINUX, _plant_export),
    "volume.name": (LINUX, _each("volumes", "name")),
    "volume.export": (LINUX, _each("volumes", "export")),
    "finding.message": (LINUX, _each("findings", "message")),
}
REVIEW_FIELDS = ["reviewer", "comment"]


def _export(client: TestClient, kb: KnowledgeBase, preset: str) -> dict[str, Any]:
    design = create(client, kb, "exported", preset)
    exported = client.get(f"{API}/{design['id']}/export")
    assert exported.status_code == 200
    document: dict[str, Any] = exported.json()
    return document


_EXPORTS: dict[str, dict[str, Any]] = {}


def exported(client: TestClient, kb: KnowledgeBase, preset: str) -> dict[str, Any]:
    if preset not in _EXPORTS:
        _EXPORTS[preset] = _export(client, kb, preset)
    return copy.deepcopy(_EXPORTS[preset])


def _forged_review(reviewer: str, comment: str, decision: str = "approve") -> dict[str, Any]:
    return {
        "reviewer": reviewer,
        "decision": decision,
        "comment": comment,
        "item_rule": None,
        "created_at": "2026-01-02T03:04:05Z",
    }


def _import(client: TestClient, document: dict[str, Any]) -> Any:
    response = client.post(f"{API}/import", json=document)
    assert response.status_code != 500, response.text[:500]
    assert response.status_code in (201, 422), (response.status_code, response.text[:500])
    if response.status_code == 422:
        named = locs(response)
        assert any(loc[:2] == ["body", "revisions"] and len(loc) > 2 for loc in named), named
    return response


def _state_problems(client: TestClient, design_id: str) -> list[str]:
    state = client.get(f"{API}/{design_id}")
    assert state.status_code == 200, state.text[:500]
    body = state.json()
    problems = []
    if body["state"] == "approved" or body["approved_revision"] is not None:
        problems.append(
            "an imported approval is shown as an approval: "
            f"state={body['state']!r} approved_revision={body['approved_revision']!r} "
            f"label={body['state_label']!r}"
        )
    return problems


def _planted_problems(out: Outputs) -> list[str]:
    problems = [
        f"{path}: the planted text is served (the imported plan was not re-planned)"
        for path, text in out.files.items()
        if MARK in text
    ]
    if MARK in out.runbook_md:
        problems.append("runbook (md): the planted text is served")
    if MARK in out.runbook_html:
        problems.append("runbook (html): the planted text is served")
    return problems


@pytest.mark.parametrize("hostile", IMPORT_SET, ids=_ids(IMPORT_SET))
@pytest.mark.parametrize("where", list(PLANTS))
def test_import_with_hostile_plan(
    client: TestClient,
    kb: KnowledgeBase,
    where: str,
    hostile: Hostile,
    tmp_path: Path,
    shim_bin: Path,
    posix_stub: Path,
) -> None:
    preset, plant = PLANTS[where]
    base = baseline(client, kb, preset)
    document = exported(client, kb, preset)
    plant(document["revisions"][-1]["plan"], hostile.text)
    response = _import(client, document)
    if response.status_code == 422:
        return
    design_id = response.json()["id"]
    problems = _state_problems(client, design_id)
    out = fetch_outputs(client, design_id, 1)
    problems += _planted_problems(out)
    problems += full_problems(
        out, base, tmp_path, shim_bin, posix_stub, free_text_in_comments=False
    )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("hostile", IMPORT_SET, ids=_ids(IMPORT_SET))
@pytest.mark.parametrize("review_field", REVIEW_FIELDS)
def test_import_with_hostile_approval(
    client: TestClient,
    kb: KnowledgeBase,
    review_field: str,
    hostile: Hostile,
    tmp_path: Path,
    shim_bin: Path,
    posix_stub: Path,
) -> None:
    base = baseline(client, kb)
    document = exported(client, kb, LINUX)
    review = _forged_review("dba lead", "ok")
    review[review_field] = hostile.text
    document["revisions"][-1]["reviews"].append(review)
    response = _import(client, document)
    if response.status_code == 422:
        return
    design_id = response.json()["id"]
    problems = _state_problems(client, design_id)
    out = fetch_outputs(client, design_id, 1)
    problems += full_problems(out, base, tmp_path, shim_bin, posix_stub, free_text_in_comments=True)
    assert not problems, "\n".join(problems)


def test_import_of_a_really_approved_design_is_not_approved_here(
    client: TestClient, kb: KnowledgeBase
) -> None:
    design = create(client, kb, "approved at home")
    approved = client.post(
        f"{API}/{design['id']}/reviews",
        json={"revision": 1, "reviewer": "dba lead", "decision": "approve"},
        headers={"X-Review-Token": design["review_token"]},
    )
    assert approved.status_code == 201
    document = client.get(f"{API}/{design['id']}/export").json()
    response = _import(client, document)
    if response.status_code == 422:
        return
    problems = _state_problems(client, response.json()["id"])
    assert not problems, "\n".join(problems)


ANSIBLE_IMPORTS = ["plan.rules (rule id)", "setting.key", "mount.options"]


@pytest.mark.parametrize("where", ANSIBLE_IMPORTS)
def test_ansible_check_runs_nothing_from_an_imported_plan(
    client: TestClient,
    kb: KnowledgeBase,
    where: str,
    tmp_path: Path,
    shim_bin: Path,
    posix_stub: Path,
) -> None:
    preset, plant = PLANTS[where]
    document = exported(client, kb, preset)
    hostile = WORST[0]  # the pipe lookup
    plant(document["revisions"][-1]["plan"], hostile.text)
    response = _import(client, document)
    if response.status_code == 422:
        return
    out = fetch_outputs(client, response.json()["id"], 1)
    problems = _ansible_problems(out, tmp_path, posix_stub, shim_bin)
    assert not problems, "\n".join(problems)


def test_the_posix_plugins_refuse_what_the_real_modules_refuse(
    posix_stub: Path, tmp_path: Path
) -> None:
    """The stand-ins can fail: an option ansible.posix.mount lacks, and state mounted without
    fstype (the real module's required_if), each fail the task."""
    playbook = tmp_path / "bad.yml"
    playbook.write_text(
        yaml.safe_dump(
            [
                {
                    "hosts": "all",
                    "gather_facts": False,
                    "tasks": [
                        {"ansible.posix.mount": {"path": "/x", "src": "a:/b", "fstype": "nfs",
                                                 "state": "mounted", "optz": "rw"},
                         "ignore_errors": True},
                        {"ansible.posix.mount": {"path": "/x", "src": "a:/b", "state": "mounted"}},
                    ],
                }
            ]
        )
    )  # fmt: skip
    inventory = tmp_path / "inventory.ini"
    inventory.write_text(
        f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
    )
    run = subprocess.run(
        [str(VENV_BIN / "ansible-playbook"), "-i", str(inventory), str(playbook)],
        capture_output=True,
        text=True,
        env=_ansible_env(tmp_path, posix_stub, None),
    )
    assert run.returncode != 0
    assert "optz" in run.stdout, run.stdout
    assert "fstype" in run.stdout and "failed=1" in run.stdout, run.stdout


TEMPLATED = [*SUBSET, BY_LABEL["param-expansion"]]


@pytest.mark.parametrize("preset", ["current-anf", "current-fsxn", "current-gcnv"])
@pytest.mark.parametrize("hostile", TEMPLATED, ids=_ids(TEMPLATED))
def test_cloud_storage_files_keep_a_hostile_design_name_inert(
    client: TestClient, kb: KnowledgeBase, hostile: Hostile, preset: str
) -> None:
    """The design's name reaches the cloud files' headers: Terraform (JSON syntax, whose "//"
    Terraform ignores, escaped all the same), request bodies and CLI lines stay well-formed,
    with the text only in comments and never as a template."""
    base = baseline(client, kb, preset)
    response = client.post(API, json={"name": hostile.text, "platform": platform_json(kb, preset)})
    if refused_naming(response, ["body", "name"]):
        return
    out = fetch_outputs(client, response.json()["id"], 1)
    problems = static_problems(out, base, free_text_in_comments=True)
    for path, text in out.files.items():
        if path.endswith(".tf.json"):
            problems += [f"{path}: {p}" for p in terraform_errors(text)]
            comment = json.loads(text)["//"]
            if re.search(r"(?<!\$)\$\{|(?<!%)%\{", comment.replace("$${", "").replace("%%{", "")):
                problems.append(f"{path}: a template sequence in the header")
    assert not problems, "\n".join(problems)

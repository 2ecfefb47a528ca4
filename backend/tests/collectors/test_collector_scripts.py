"""The collectors (issue 24): read-only scripts, shellcheck-clean, that write only into their
output directory and say in a manifest what each file is and whether it could be read."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import get_args

import pytest
from fastapi.testclient import TestClient

from nasplan.audit.kinds import FileKind
from nasplan.cli import main as cli_main
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.collector import (
    ARCHIVE,
    MANIFEST,
    collector_items,
    collector_script,
)

OSES = ("linux", "solaris", "aix", "hpux")
# What each item may run: programs that only read (sysctl without -w, ndd -get, mount and nfso
# without arguments but -a) and the shell's own words.
READ_ONLY = {
    "cat", "uname", "awk", "nfsstat", "sysctl", "ip", "printf", "ndd", "dladm", "ifconfig",
    "oslevel", "mount", "nfso", "no", "kctune", "netstat", "sqlplus", "echo", "[", "command",
    "exit", "for", "do", "done", ":", "||",
}  # fmt: skip
_REDIRECT = re.compile(r"(?<![0-9&])(?:[0-9]?>>?)\s*(\"[^\"]*\"|'[^']*'|[^\s;)]+)")
_ALLOWED_TARGETS = {'"$OUT/$1"', '"$err"', '"$MANIFEST_FILE"', "/dev/null", "&1", "&2"}


def _script(kb: KnowledgeBase, os_name: str) -> str:
    return collector_script(kb.setting_keys(), os_name, kb.version)  # type: ignore[arg-type]


@pytest.mark.parametrize("os_name", OSES)
def test_every_collector_passes_shellcheck(kb: KnowledgeBase, os_name: str, tmp_path: Path) -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (the test command installs it)")
    script = tmp_path / f"collect-{os_name}.sh"
    script.write_text(_script(kb, os_name))
    result = subprocess.run(
        # The bundle's scripts are held to style level (tests/renderers/test_shellcheck.py).
        ["shellcheck", "-S", "style", "-s", "sh", str(script)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("os_name", OSES)
def test_a_collector_writes_only_into_its_directory(kb: KnowledgeBase, os_name: str) -> None:
    """Every redirection of the script goes to a file of $OUT (or /dev/null); heredoc bodies
    (SQL) are not shell."""
    script = _script(kb, os_name)
    shell_lines, in_heredoc = [], False
    for line in script.splitlines():
        if in_heredoc:
            in_heredoc = line != "NASPLAN_SQL"
            continue
        in_heredoc = "<<'NASPLAN_SQL'" in line
        if not line.lstrip().startswith("#"):
            shell_lines.append(line)
    targets = {m.group(1) for line in shell_lines for m in _REDIRECT.finditer(line)}
    assert targets <= _ALLOWED_TARGETS, targets - _ALLOWED_TARGETS
    assert "tar -cf nasplan-collect.tar ./*.txt" in script  # inside $OUT (cd "$OUT" before)


_SIMPLE_COMMAND = re.compile(r"(?:^|;|\|\|?|&&|\$\(|\bdo\b|\bthen\b)\s*([^\s;|()]+)")
_CHANGES = re.compile(r"sysctl\s+-w|ndd\s+-set|\bchdev\b|\bnfso\s+-[op]|\bmkdir\b|\brm\b|\btee\b")


@pytest.mark.parametrize("os_name", OSES)
def test_a_collector_runs_only_commands_that_read(kb: KnowledgeBase, os_name: str) -> None:
    """The first word of every simple command of every item is a program that only reads (or
    a word of the shell), and no item holds a command that sets anything; SQL is only select,
    show and sqlplus settings."""
    for item in collector_items(kb.setting_keys(), os_name):  # type: ignore[arg-type]
        for command in item.commands:
            shell, _, sql = command.partition("<<'NASPLAN_SQL'")
            programs = {m.group(1) for m in _SIMPLE_COMMAND.finditer(shell)}
            programs = {p for p in programs if not p.startswith(("$", '"', "'"))}
            assert programs and programs <= READ_ONLY, (item.name, programs - READ_ONLY)
            assert not _CHANGES.search(shell), shell
            statements = [line.strip().lower() for line in sql.splitlines() if line.strip()]
            allowed = ("select ", "show parameter ", "set ", "whenever ", "exit", "nasplan_sql")
            assert all(s.startswith(allowed) for s in statements), statements


def test_the_manifest_kinds_are_audit_kinds(kb: KnowledgeBase) -> None:
    kinds = set(get_args(FileKind)) | {"-"}
    for os_name in OSES:
        items = collector_items(kb.setting_keys(), os_name)  # type: ignore[arg-type]
        assert {item.kind for item in items} <= kinds
        assert len({item.name for item in items}) == len(items)
        assert all(re.fullmatch(r"[a-z0-9_]+\.txt", item.name) for item in items)


def test_the_linux_collector_runs_here_and_keeps_to_its_directory(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    """Run for real on this (Linux) machine, in an empty working directory: everything it
    writes is inside the output directory, the manifest names every item, and a second run into
    the same directory is refused rather than overwriting it."""
    script = tmp_path / "collect.sh"
    script.write_text(_script(kb, "linux"))
    work = tmp_path / "work"
    work.mkdir()
    out = work / "collected"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work)}
    result = subprocess.run(
        ["sh", str(script), str(out)], cwd=work, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in work.iterdir()) == ["collected"]
    assert all(path.parent == out for path in out.rglob("*"))
    manifest = (out / MANIFEST).read_text().splitlines()
    assert manifest[0].startswith("collector\tlinux\t")
    rows = [line.split("\t") for line in manifest if line.startswith("file\t")]
    items = collector_items(kb.setting_keys(), "linux")
    assert [row[1] for row in rows] == [item.name for item in items]
    status = {row[1]: row[3] for row in rows}
    assert status["os_release.txt"] == "read" and status["sysctl.txt"] == "read"
    assert status["dnfs_servers.txt"].startswith("not read: needs")  # no Oracle here
    assert "net.ipv4.tcp_sack = " in (out / "sysctl.txt").read_text()
    assert (out / ARCHIVE).is_file()
    again = subprocess.run(
        ["sh", str(script), str(out)], cwd=work, env=env, capture_output=True, text=True
    )
    assert again.returncode == 2 and "exists" in again.stderr


def test_the_collector_is_served_and_printed(client: TestClient, kb: KnowledgeBase) -> None:
    response = client.get("/api/v1/collector/aix")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/x-shellscript")
    assert 'filename="nasplan-collect-aix.sh"' in response.headers["content-disposition"]
    assert response.text == _script(kb, "aix")
    refused = client.get("/api/v1/collector/windows")
    assert refused.status_code == 422
    assert refused.json()["detail"][0]["loc"] == ["path", "os"]
    from io import StringIO

    out = StringIO()
    assert cli_main(["collector", "hpux"], out=out) == 0
    assert out.getvalue() == _script(kb, "hpux")

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.loader import load_knowledge
from nasplan.knowledge.merge import deep_merge
from nasplan.main import create_app
from nasplan.settings import Settings

TODAY = dt.date.today()

TESTS = Path(__file__).parent
QUICK = "not slow"
# Left out of the quick set, pytest -m "not slow" (README): a folder or file under tests/, or
# one test (path::name), and why. The full run (no -m), as in CI, runs them all.
SLOW = {
    "fuzz/": "schemathesis fuzzing of every API operation, on SQLite and PostgreSQL",
    "designs/": "the designs data layer on SQLite and PostgreSQL, server processes, outages",
    "security/test_hostile_bundles.py": "hostile text through every renderer, shellcheck, ansible",
    "renderers/test_filer_playbook.py": "netapp.ontap's argument specs from the pinned Ansible",
    "renderers/test_host_playbook_specs.py": "ansible.posix's argument specs (pinned Ansible)",
    "security/test_server_timeouts.py": "a real uvicorn server and clients that trickle bytes",
    "security/test_rate_limits_proxies.py": "rate-limit windows filled request by request",
    "renderers/test_shellcheck.py": "shellcheck over every generated script",
    "audit/test_parser_complexity.py": "parsers timed at growing sizes until the times are long",
    "audit/test_runner.py": "audit worker processes and their time limits",
    "api/test_audit_limits.py": "audits run into their time limit",
    "engine/test_properties.py": "hypothesis over the whole platform space",
    "api/test_openapi_honesty.py::test_the_platform_schema_states_what_the_handover_fits": (
        "the schema and the model compared on every handover combination"
    ),
}


def _under_tests(path: Path) -> str | None:
    """``path`` relative to tests/ (a folder with a trailing /), or None outside it."""
    if not path.is_relative_to(TESTS):
        return None
    where = path.relative_to(TESTS).as_posix()
    return f"{where}/" if path.is_dir() else where


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    # The quick set does not even import a file whose every test is slow (the fuzz module builds
    # its schema on import): the same tests run, only the deselected count is left out.
    where = _under_tests(collection_path)
    if config.getoption("markexpr") == QUICK and where is not None and where in SLOW:
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        where = _under_tests(item.path)
        if where is not None and f"{where}::{item.name}".startswith(tuple(SLOW)):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return load_knowledge()


def sqlite_settings(directory: Path) -> Settings:
    # The compute limit counts every plan and audit a client asks for; the suite asks for
    # more than a person would (tests/security tests the limit itself).
    return Settings(
        DATABASE_URL=f"sqlite:///{directory / 'nasplan.db'}", NASPLAN_RATE_LIMIT_COMPUTE=""
    )


@pytest.fixture(scope="session")
def client(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = sqlite_settings(tmp_path_factory.mktemp("db"))
    with TestClient(create_app(settings, kb=kb)) as test_client:
        yield test_client


def preset_platform(
    kb: KnowledgeBase,
    preset: str,
    patch: dict[str, Any] | None = None,
    as_of: dt.date | None = None,
) -> Platform:
    data = deep_merge(kb.presets[preset].platform, patch or {})
    if as_of is not None:
        data["as_of"] = as_of.isoformat()
    return Platform.model_validate(data)

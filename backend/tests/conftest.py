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

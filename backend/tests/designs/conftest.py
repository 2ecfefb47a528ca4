"""Every designs test runs on SQLite and on PostgreSQL (a throw-away database per session)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.conftest import sqlite_settings
from tests.postgres import throwaway_database


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with throwaway_database("nasplan_t") as url:
        yield url


def database_settings(request: pytest.FixtureRequest, directory: Path) -> Settings:
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return Settings(DATABASE_URL=url)
    return sqlite_settings(directory)


@pytest.fixture(params=["sqlite", "postgresql"])
def app_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    return database_settings(request, tmp_path)


@pytest.fixture()
def designs_client(kb: KnowledgeBase, app_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings, kb=kb)) as client:
        yield client

"""Every designs test runs on SQLite and on PostgreSQL (a throw-away database per session)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.conftest import sqlite_settings

PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=test connect_timeout=3"


def _postgres_unreachable() -> str | None:
    try:
        with psycopg.connect(PG_ADMIN):
            return None
    except psycopg.Error as exc:
        return f"PostgreSQL at 127.0.0.1:5432 is unreachable: {exc}".strip()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    reason = _postgres_unreachable()
    if reason is not None:
        print(f"\nSKIPPING the PostgreSQL run: {reason}")
        pytest.skip(reason)
    name = f"nasplan_t_{secrets.token_hex(6)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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

"""A throw-away PostgreSQL database for a test run, on the server at 127.0.0.1:5432."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=test connect_timeout=3"


def postgres_unreachable() -> str | None:
    try:
        with psycopg.connect(PG_ADMIN):
            return None
    except psycopg.Error as exc:
        return f"PostgreSQL at 127.0.0.1:5432 is unreachable: {exc}".strip()


@contextmanager
def throwaway_database(prefix: str) -> Iterator[str]:
    """A new database named ``prefix_<random>``, dropped afterwards; skips the test with the
    reason printed when the server is unreachable."""
    reason = postgres_unreachable()
    if reason is not None:
        print(f"\nSKIPPING the PostgreSQL run: {reason}")
        pytest.skip(reason)
    name = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

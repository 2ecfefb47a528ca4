"""Bounded schemathesis fuzzing of every API operation, in-process, on SQLite and on PostgreSQL.

Every operation in /api/v1/openapi.json gets its schema examples plus NASPLAN_FUZZ_EXAMPLES
generated cases (default 50; positive and negative data, derandomized so CI runs are
reproducible), once against an app on a temporary SQLite file and once against an app on a
throw-away PostgreSQL database. Each response must not be a 5xx, must conform to the
documented response schema, and must carry a documented status code and content type.

    cd backend && ../.venv/bin/python -m pytest tests/fuzz

The schema is loaded eagerly (one pytest item per operation and database): schemathesis'
lazy `from_fixture` schemas do not run under pytest 9.2 (they set `Node._nodeid`).
Hypothesis' data health checks stay on: without them, generating valid bodies for
POST /designs/import alone takes over 4 minutes (the nested plan schema filters out most draws).
"""

from __future__ import annotations

import copy
import io
import os
import tarfile
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.conftest import sqlite_settings
from tests.postgres import throwaway_database

MAX_EXAMPLES = int(os.environ.get("NASPLAN_FUZZ_EXAMPLES", "50"))
CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]


def _config(mode: str) -> schemathesis.Config:
    """Schema examples (hypothesis' explicit phase) and generated data (generate phase).

    The coverage phase (unbounded, deterministic edge cases) and stateful link-following are
    off, so the budget stays at about MAX_EXAMPLES cases per operation and generation mode.
    """
    return schemathesis.Config.from_dict(
        {
            "phases": {
                "examples": {"enabled": True},
                "fuzzing": {"enabled": True},
                "coverage": {"enabled": False},
                "stateful": {"enabled": False},
            },
            "generation": {"mode": mode},
        }
    )


def _openapi_document() -> dict[str, Any]:
    """The API's OpenAPI document, from an app on a throw-away in-memory database."""
    app = create_app(Settings(DATABASE_URL="sqlite://"))
    try:
        return app.openapi()
    finally:
        app.state.engine.dispose()


OPENAPI = _openapi_document()


# Valid and invalid data are fuzzed separately: Hypothesis stops generating soon after its first
# failure, so an early 400 for a malformed body would otherwise hide a 500 on valid data.
# POST /designs/import is left out of valid-data fuzzing: a valid document nests a whole plan,
# which Hypothesis cannot draw within its health checks (well over 4 minutes with them off).
# Valid and hostile import documents, built from real exports, are tested in
# tests/designs/test_trust.py and tests/security/. Its invalid data is fuzzed with a smaller
# budget, as each draw of the nested schema is slow.
def _tar(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


# POST /collections takes a collector's tar: the fuzzer sends real ones (a manifest, a file),
# damaged ones (cut short, no manifest) and random bytes.
_COLLECTION = _tar(
    {
        "MANIFEST.txt": b"collector\tlinux\t1\nfile\tsysctl.txt\tsysctl\tread\tsysctl\n",
        "sysctl.txt": b"net.ipv4.tcp_sack = 1\n",
    }
)
schemathesis.openapi.media_type(
    "application/x-tar",
    st.one_of(
        st.sampled_from([_COLLECTION, _COLLECTION[:700], _tar({"x.txt": b"x"})]),
        st.binary(max_size=2048),
    ),
)

IMPORT = "/api/v1/designs/import"
IMPORT_EXAMPLES = max(1, MAX_EXAMPLES // 3)
positive = schemathesis.openapi.from_dict(OPENAPI, config=_config("positive")).exclude(path=IMPORT)
# POST /collections takes any bytes as its body (the schema is a binary string), so there is no
# invalid body to draw: its random and damaged archives come from the positive run's strategy.
# (Drawing "negative" cases for it also left schemathesis unable to build later operations'
# cases: "result is not supported in canonical form".)
COLLECTIONS = "/api/v1/collections"


def _without_platform_conditionals(document: dict[str, Any]) -> dict[str, Any]:
    """The document without Platform's cross-field rules (`allOf` of if/then: N paths need N NICs).

    Negative generation mutates those conditionals into schemas that schemathesis' canonical form
    (jsonschema-rs 0.60) cannot build a strategy for: "result is not supported in canonical form",
    on POST /plans/what-if, whose body holds two platforms. Measured with 20 Hypothesis seeds of
    50 negative what-if cases: 2 seeds failed to generate with the conditionals, none without.
    Which run hit it depended on what the process had generated before (CI failed, a run of
    tests/fuzz alone passed). The positive run keeps them, and
    tests/api/test_openapi_honesty.py checks them against the model on every handover combination.
    """
    stripped = copy.deepcopy(document)
    stripped["components"]["schemas"]["Platform"].pop("allOf")
    return stripped


negative = (
    schemathesis.openapi.from_dict(
        _without_platform_conditionals(OPENAPI), config=_config("negative")
    )
    .exclude(path=IMPORT)
    .exclude(path=COLLECTIONS)
)
negative_import = schemathesis.openapi.from_dict(OPENAPI, config=_config("negative")).include(
    path=IMPORT
)


@pytest.fixture(scope="module")
def fuzz_postgres_url() -> Iterator[str]:
    with throwaway_database("nasplan_fuzz") as url:
        yield url


def _without_rate_limits(app_settings: Settings) -> Settings:
    """Lift the rate limits (an empty limit is off), those the app has."""
    limits = {"rate_limit_writes", "rate_limit_compute"} & set(Settings.model_fields)
    return app_settings.model_copy(update=dict.fromkeys(limits, ""))


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def fuzz_app(
    request: pytest.FixtureRequest, kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FastAPI]:
    if request.param == "postgresql":
        url: str = request.getfixturevalue("fuzz_postgres_url")
        app_settings = Settings(DATABASE_URL=url)
    else:
        app_settings = sqlite_settings(tmp_path_factory.mktemp("fuzz"))
    app = create_app(_without_rate_limits(app_settings), kb=kb)
    try:
        yield app
    finally:
        app.state.engine.dispose()


FuzzCase = schemathesis.Case[Any]
FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    # shrink only runs on failures: it turns them into minimal examples.
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
)


@positive.parametrize()
@FUZZ_SETTINGS
def test_valid_requests(case: FuzzCase, fuzz_app: FastAPI) -> None:
    case.call_and_validate(app=fuzz_app, checks=CHECKS)


@negative.parametrize()
@FUZZ_SETTINGS
def test_invalid_requests(case: FuzzCase, fuzz_app: FastAPI) -> None:
    case.call_and_validate(app=fuzz_app, checks=CHECKS)


@negative_import.parametrize()
@settings(FUZZ_SETTINGS, max_examples=IMPORT_EXAMPLES)
def test_invalid_import_documents(case: FuzzCase, fuzz_app: FastAPI) -> None:
    case.call_and_validate(app=fuzz_app, checks=CHECKS)

"""Runtime settings, from the environment (prefix-free: PORT, DATABASE_URL, ...)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    host: str = Field(default="127.0.0.1", alias="HOST")
    port: int = Field(default=8000, alias="PORT")
    database_url: str = Field(
        default=f"sqlite:///{REPO_ROOT / 'data' / 'nasplan.db'}", alias="DATABASE_URL"
    )
    knowledge_dir: Path = Field(default=REPO_ROOT / "knowledge", alias="NASPLAN_KNOWLEDGE_DIR")
    frontend_dist: Path = Field(
        default=REPO_ROOT / "frontend" / "dist", alias="NASPLAN_FRONTEND_DIST"
    )
    public_url: str | None = Field(
        default=None,
        alias="NASPLAN_PUBLIC_URL",
        description="Base of the permalinks written into bundles and runbooks, e.g. "
        "https://nasplan.example.com; unset: the scheme and host the request came to.",
        pattern=r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?$",
    )
    max_body_bytes: int = Field(default=2_097_152, alias="NASPLAN_MAX_BODY_BYTES")
    rate_limit_writes: str = Field(
        default="60/minute;600/hour",
        alias="NASPLAN_RATE_LIMIT_WRITES",
        description="Writes to /api/v1/designs per client address (limits notation); empty: off.",
    )
    rate_limit_storage: str = Field(default="memory://", alias="NASPLAN_RATE_LIMIT_STORAGE")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="INFO",
        alias="NASPLAN_LOG_LEVEL",
        description="Least severe log record written (JSON, one per line); INFO has one line "
        "per request.",
    )
    workers: int = Field(
        default=1,
        ge=1,
        alias="NASPLAN_WORKERS",
        description="Server processes `nasplan serve` starts (`--workers` wins); each has its "
        "own connection pool, rate-limit counts (unless shared storage) and metrics.",
    )
    migrate_on_start: bool = Field(
        default=True,
        alias="NASPLAN_MIGRATE_ON_START",
        description="Apply the database migrations when the app starts; false where "
        "`nasplan migrate` runs once before the servers (PostgreSQL serialises concurrent "
        "migrations with an advisory lock either way).",
    )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()

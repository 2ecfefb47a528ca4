"""Runtime settings, from the environment (prefix-free: PORT, DATABASE_URL, ...)."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, field_validator
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
        "https://nasplan.example.com; unset: the scheme and Host a revision was saved "
        "through, when that Host is in NASPLAN_ALLOWED_HOSTS, else no permalink.",
        pattern=r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?$",
    )
    allowed_hosts: str = Field(
        default="127.0.0.1:8000,localhost:8000",
        alias="NASPLAN_ALLOWED_HOSTS",
        description="Without NASPLAN_PUBLIC_URL: the host[:port] names (comma-separated, any "
        "case, exactly as in the Host header) whose requests may fix the permalink base of a "
        "revision they save; a revision saved through any other Host gets no permalink. The "
        "client chooses the Host header, so list only the names users reach this server by. "
        "Default: the local server at its default address; empty: no permalinks.",
        pattern=r"^ *([A-Za-z0-9.-]+(:[0-9]{1,5})?)? *(, *([A-Za-z0-9.-]+(:[0-9]{1,5})?)? *)*$",
    )
    max_body_bytes: int = Field(default=2_097_152, alias="NASPLAN_MAX_BODY_BYTES")
    rate_limit_writes: str = Field(
        default="60/minute;600/hour",
        alias="NASPLAN_RATE_LIMIT_WRITES",
        description="Writes to /api/v1/designs per client address (limits notation); empty: off.",
    )
    rate_limit_compute: str = Field(
        default="120/minute;3000/hour",
        alias="NASPLAN_RATE_LIMIT_COMPUTE",
        description="Requests that plan, audit or render (POST /api/v1/plans and below it, "
        "/api/v1/audits, /api/v1/designs/{id}/audits) per client address, one count for all "
        "(limits notation); empty: off.",
    )
    rate_limit_storage: str = Field(default="memory://", alias="NASPLAN_RATE_LIMIT_STORAGE")
    trusted_proxies: str = Field(
        default="",
        validation_alias=AliasChoices("NASPLAN_TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS"),
        description="Addresses and networks (comma-separated, e.g. 10.0.0.5,10.1.0.0/16; * for "
        "any) of the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed. "
        "Empty (the default): none, the client is the connection's peer. uvicorn's "
        "FORWARDED_ALLOW_IPS is read when this is unset.",
    )
    header_timeout_s: float = Field(
        default=10.0,
        gt=0,
        alias="NASPLAN_HEADER_TIMEOUT_S",
        description="Seconds a request's head (request line and headers) may take to arrive, "
        "from the connection or the previous answer; then the connection is closed (408).",
    )
    body_timeout_s: float = Field(
        default=30.0,
        gt=0,
        alias="NASPLAN_BODY_TIMEOUT_S",
        description="Seconds an API request's body may take to arrive, from its first byte "
        "asked for to its last; then 408.",
    )
    max_header_bytes: int = Field(
        default=16_384,
        ge=1024,
        alias="NASPLAN_MAX_HEADER_BYTES",
        description="Largest request head (request line and headers) accepted; a larger one gets "
        "431.",
    )
    audit_timeout_s: float = Field(
        default=10.0,
        gt=0,
        alias="NASPLAN_AUDIT_TIMEOUT_S",
        description="Seconds an audit may run (in a worker process) before it is stopped and "
        "answered 422.",
    )
    audit_workers: int = Field(
        default=2,
        ge=1,
        alias="NASPLAN_AUDIT_WORKERS",
        description="Worker processes that run audits, per server process; started with the "
        "first audit.",
    )
    audit_memory_mb: int = Field(
        default=1536,
        ge=256,
        alias="NASPLAN_AUDIT_MEMORY_MB",
        description="Address space an audit worker may use, MiB; an audit that needs more is "
        "answered 413.",
    )
    limit_concurrency: int = Field(
        default=200,
        ge=1,
        alias="NASPLAN_LIMIT_CONCURRENCY",
        description="Connections (or requests in progress) per server process beyond which "
        "new requests get 503.",
    )
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

    @field_validator("trusted_proxies")
    @classmethod
    def _addresses(cls, value: str) -> str:
        entries = [entry.strip() for entry in value.split(",") if entry.strip()]
        for entry in entries:
            if entry == "*":
                continue
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(
                    f"NASPLAN_TRUSTED_PROXIES: {entry!r} is not an IP address or network"
                ) from None
        return ",".join(entries)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()

"""Runtime settings, from the environment (prefix-free: PORT, DATABASE_URL, ...)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

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
    public_url: str = Field(default="http://127.0.0.1:8000", alias="NASPLAN_PUBLIC_URL")
    max_body_bytes: int = Field(default=2_097_152, alias="NASPLAN_MAX_BODY_BYTES")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()

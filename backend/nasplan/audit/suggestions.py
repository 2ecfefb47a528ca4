"""A platform answer the audit suggests changing, ready to apply to the platform."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class PlatformSuggestion(BaseModel):
    """One answer the pastes point to, ready to apply to the platform: a wizard field and value."""

    field: Literal["host.os", "oracle.version", "filer.os_version"]
    value: str
    label: str = Field(description="The value in words, e.g. 'Solaris' or 'Oracle Database 19c'.")
    reason: str

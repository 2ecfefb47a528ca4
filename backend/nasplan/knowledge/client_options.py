"""The option names an OS's NFS mount takes (``knowledge/catalog/client_options.yaml``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from nasplan.domain.platform import OsName
from nasplan.knowledge.schema import SourceRef


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClientOptions(_Doc):
    """The option names an OS's mount of an NFS file system takes, where it refuses a mount that
    carries another (``knowledge/catalog/client_options.yaml``)."""

    os: OsName
    releases: list[str] = Field(
        default_factory=list, description="The OS releases it holds for; empty for every one."
    )
    rule: str = Field(description="The rule under which the audit reports an unknown option.")
    tolerant: str | None = Field(
        default=None, description="The option that makes the mount skip unknown ones."
    )
    options: list[str] = Field(min_length=1, description="Names, as written before any '='.")
    prefixes: list[str] = Field(
        default_factory=list, description="Names beginning so are taken whole (x-systemd.*)."
    )
    sources: list[SourceRef] = Field(min_length=1)

    def takes(self, option: str) -> bool:
        name = option.split("=", 1)[0].strip()
        return name in self.options or name.startswith(tuple(self.prefixes))


class ClientOptionsCatalog(_Doc):
    clients: list[ClientOptions]

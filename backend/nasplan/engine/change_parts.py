"""A plan change's key in parts, so a client reads what a change is about without parsing its
``key``: a mount's roles and mount point, a setting's target and name, a finding's rule and
message, a check's place and subject, a platform answer's field and storage path number."""

from __future__ import annotations

from pydantic import BaseModel, Field

from nasplan.domain.plan import Check, Finding, Mount, Setting


class SettingParts(BaseModel):
    """A setting change's key in parts (the key reads `target name [volumes] (scope)`)."""

    target: str
    name: str
    volumes: list[str]
    scope: str | None


class MountParts(BaseModel):
    """A mount change's key in parts (the key reads `serves mount_point`)."""

    serves: list[str]
    mount_point: str


class FindingParts(BaseModel):
    """A finding change's key in parts (the key reads `rule: message`)."""

    rule: str
    message: str


class CheckParts(BaseModel):
    """A check change's key in parts (the key reads `where: what`)."""

    where: str
    what: str


class AnswerParts(BaseModel):
    """A platform answer's key in parts: its path in the catalog's answer table and, for a
    storage path's answer, the path's number (the key reads `handover.paths.2.host_address`)."""

    field: str = Field(description="The answer's path in GET /catalog's fields.")
    number: int | None = Field(default=None, description="The storage path's number, from 1.")


def setting_parts(s: Setting) -> SettingParts:
    return SettingParts(target=s.target, name=s.key, volumes=list(s.applies_to), scope=s.scope)


def parts_of(item: object) -> dict[str, BaseModel]:
    """The key of a mount, setting, finding or check in parts, as Change's field for it."""
    if isinstance(item, Setting):
        return {"setting": setting_parts(item)}
    if isinstance(item, Mount):
        return {"mount": MountParts(serves=list(item.serves), mount_point=item.mount_point)}
    if isinstance(item, Finding):
        return {"finding": FindingParts(rule=item.rule, message=item.message)}
    if isinstance(item, Check):
        return {"check": CheckParts(where=item.where, what=item.what)}
    return {}


def answer_parts(key: str) -> AnswerParts:
    """``handover.paths.2.host_address`` -> handover.paths[].host_address, path 2."""
    names: list[str] = []
    number: int | None = None
    for part in key.split("."):
        if part.isdigit() and names:
            names[-1] += "[]"
            number = int(part)
        else:
            names.append(part)
    return AnswerParts(field=".".join(names), number=number)

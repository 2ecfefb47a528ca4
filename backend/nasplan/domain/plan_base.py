"""The building blocks of the plan's models: their frozen base, and the syntax of the names,
paths, keys and values that reach generated files."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints


# A plan is read back from the database and from imported documents, and every renderer
# writes its fields into shell, SQL, YAML and templates. So each field that reaches a file has
# the syntax the knowledge base and the planner produce, and nothing else gets through.
def _no_parent_segment(value: str) -> str:
    if ".." in value.split("/") or "\\" in value:
        raise ValueError("no '..' segments or backslashes")
    return value


RULE_ID_PATTERN = r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$"
RuleId = Annotated[str, StringConstraints(pattern=RULE_ID_PATTERN, max_length=60)]
SettingKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_.:-]{0,79}$")]
SettingValue = Annotated[
    str, StringConstraints(pattern=r"^([A-Za-z0-9 $/._:=,+-]{0,200}|<[a-z0-9-]{1,40}>)$")
]
Scope = Annotated[
    str,
    StringConstraints(pattern=r"^([A-Za-z0-9 /._-]{1,120}|<[a-z0-9-]{1,40}>)$"),
    AfterValidator(_no_parent_segment),
]
PathName = Annotated[
    str,
    StringConstraints(pattern=r"^/[A-Za-z0-9._/-]{0,200}$"),
    AfterValidator(_no_parent_segment),
]
ExportName = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z0-9.-]{1,253}:/[A-Za-z0-9._/-]{0,200}$"),
    AfterValidator(_no_parent_segment),
]
MountOption = Annotated[
    str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,31}(=[A-Za-z0-9._:/-]{1,64})?$")
]


class PlanPart(BaseModel):
    model_config = ConfigDict(frozen=True)

"""The plan as the API serves it: the plan, its mount table in the OS's own format, and the key
of each mount, setting and finding (the name a plan diff and a review item use for it)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, model_validator

from nasplan.domain.item_keys import finding_key, mount_key, setting_key
from nasplan.domain.plan import Plan
from nasplan.renderers.mount_table import MountTable, render_mount_table


class ItemKeys(BaseModel):
    mounts: list[str]
    settings: list[str]
    findings: list[str]


def _keys_of(data: dict[str, Any]) -> ItemKeys:
    return ItemKeys(
        mounts=[mount_key(m) for m in data["mounts"]],
        settings=[setting_key(s) for s in data["settings"]],
        findings=[finding_key(f) for f in data["findings"]],
    )


class PlanView(Plan):
    mount_table: MountTable = Field(description="The mounts as lines of the OS's mount table.")
    item_keys: ItemKeys = Field(
        default_factory=_keys_of,
        description="The key of each mount, setting and finding, in the order of those lists: "
        "what a change's `key` and a review item's `key` name. Always computed from the plan; "
        "a value sent in is ignored.",
    )

    @model_validator(mode="before")
    @classmethod
    def _computed_never_read(cls, data: Any) -> Any:
        if isinstance(data, dict) and "item_keys" in data:
            return {k: v for k, v in data.items() if k != "item_keys"}
        return data


# Fields of the view that are not the plan's: plan.json in a bundle holds the plan as it was
# approved, so a field added to the view never changes a bundle.
VIEW_ONLY = frozenset({"item_keys"})


def plan_view(plan: Plan) -> PlanView:
    # The plan is already validated by construction: assemble the view without re-validating.
    fields = {name: getattr(plan, name) for name in Plan.model_fields}
    return PlanView.model_construct(**fields, mount_table=render_mount_table(plan))

"""The plan as the API serves it: the plan plus its mount table in the OS's own format."""

from __future__ import annotations

from pydantic import Field

from nasplan.domain.plan import Plan
from nasplan.renderers.mount_table import MountTable, render_mount_table


class PlanView(Plan):
    mount_table: MountTable = Field(description="The mounts as lines of the OS's mount table.")


def plan_view(plan: Plan) -> PlanView:
    # The plan is already validated by construction: assemble the view without re-validating.
    fields = {name: getattr(plan, name) for name in Plan.model_fields}
    return PlanView.model_construct(**fields, mount_table=render_mount_table(plan))

"""Two parts of the expectations model's inputs (``knowledge/model/expectations.yaml``): what one
kernel NFS connection carried, and the published measurements the model is held to."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from nasplan.knowledge.schema import SourceRef


class _Point(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Measurement(_Point):
    value: float
    note: str | None = None
    source: SourceRef


class ConnectionCeiling(_Point):
    """The most one kernel NFS TCP connection carries: the mean of the measurements."""

    note: str
    measurements: list[Measurement] = Field(min_length=2)

    @property
    def mb_s(self) -> float:
        return sum(m.value for m in self.measurements) / len(self.measurements)

    @property
    def measured_range(self) -> tuple[float, float]:
        values = [m.value for m in self.measurements]
        return min(values), max(values)


CalibratedOutput = Literal[
    "single_stream_mb_s",
    "planned_scan_mb_s",
    "nfs_overhead_8k_us",
    "nic_payload_ceiling_mb_s",
    "random_8k_reads_ceiling",
]


class CalibrationPoint(_Point):
    """A published measurement the model is held to: the platform it was taken on (a preset
    and a patch), the model output it compares with and, for a ratio, the platform it is
    compared against. ``reached``: whether the model is within 15% of it; where not, why."""

    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    figure: str = Field(min_length=8, max_length=200)
    measured: float
    unit: Literal["MB/s", "µs", "times", "reads/s"]
    output: CalibratedOutput
    preset: str
    patch: dict[str, Any] = {}
    against: dict[str, Any] | None = Field(
        default=None, description="Patch of the platform the ratio is taken against."
    )
    reached: bool
    reason: str | None = Field(default=None, max_length=400)
    source: SourceRef

    @model_validator(mode="after")
    def _a_miss_says_why(self) -> CalibrationPoint:
        if not self.reached and not self.reason:
            raise ValueError("a measurement the model does not reach needs a reason")
        if (self.unit == "times") != (self.against is not None):
            raise ValueError("a ratio (unit: times) needs `against`, and only a ratio has it")
        return self

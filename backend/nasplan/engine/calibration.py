"""The expectations model against the measurements the sources published.

Each point of ``knowledge/model/expectations.yaml`` (``calibration``) is planned on the
platform it was measured on, and the model output it names is set beside the measured figure.
The knowledge base says, point by point, whether the model is meant to come within
``TOLERANCE`` of it, and why not where it is not; the tests hold it to that, and the table
(``calibration_page``) goes into the README.
"""

from __future__ import annotations

from dataclasses import dataclass

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.expectation_points import CalibrationPoint
from nasplan.knowledge.merge import deep_merge

TOLERANCE = 0.15


@dataclass(frozen=True)
class CalibrationRow:
    point: CalibrationPoint
    modelled: float | None

    @property
    def ratio(self) -> float | None:
        return None if self.modelled is None else self.modelled / self.point.measured

    @property
    def within(self) -> bool:
        return self.ratio is not None and abs(self.ratio - 1) <= TOLERANCE


def _output(kb: KnowledgeBase, point: CalibrationPoint, patch: dict[str, object]) -> float | None:
    data = deep_merge(kb.presets[point.preset].platform, patch)
    expectations = make_plan(kb, Platform.model_validate(data)).expectations
    value = getattr(expectations, point.output)
    return None if value is None else float(value)


def calibrate(kb: KnowledgeBase) -> list[CalibrationRow]:
    rows: list[CalibrationRow] = []
    for point in kb.expectations.calibration:
        value = _output(kb, point, point.patch)
        if point.against is not None and value is not None:
            base = _output(kb, point, deep_merge(point.patch, point.against))
            value = None if not base else value / base
        rows.append(CalibrationRow(point, value))
    return rows


def _figure(value: float, unit: str) -> str:
    if unit == "times":
        return f"{value:.2f} times"
    return f"{value:,.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}"


def _short_title(kb: KnowledgeBase, source_id: str) -> str:
    source = kb.sources[source_id]
    if source.number:
        return source.number
    title = source.title.split(" (", 1)[0].split(":", 1)[0]
    return title if len(title) <= 60 else source.publisher


def calibration_page(kb: KnowledgeBase) -> str:
    """The Markdown table: source, figure, measured, nasplan, ratio, and what is not reached."""
    lines = [
        "| Source | What was measured | Measured | nasplan | Ratio |",
        "|---|---|---|---|---|",
    ]
    misses: list[str] = []
    rows = calibrate(kb)
    for row in rows:
        point = row.point
        cite = f"{_short_title(kb, point.source.id)}, {point.source.locator}"
        modelled = "not modelled" if row.modelled is None else _figure(row.modelled, point.unit)
        ratio = "" if row.ratio is None else f"{row.ratio:.2f}"
        mark = "" if row.within else " (not reached)"
        cells = [cite, point.figure, _figure(point.measured, point.unit), modelled, ratio + mark]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        if not point.reached and point.reason:
            misses.append(f"- {point.figure}: {' '.join(point.reason.split())}")
    within = sum(row.within for row in rows)
    total = len(kb.expectations.calibration)
    head = (
        f"{within} of {total} published measurements are reproduced within "
        f"{TOLERANCE:.0%} (ratio = nasplan / measured)."
    )
    return "\n".join([head, "", *lines, *(["", *misses] if misses else [])]) + "\n"

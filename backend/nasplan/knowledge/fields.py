"""``knowledge/catalog/fields.yaml``: every platform answer's words and form, joined with its type
and limits from the platform model into one row per answer.

The platform model (``domain/platform.py``) says what an answer may be; this file says what it is
called, which wizard step asks it, with which widget and opening answer, and which other answers
it depends on. ``answer_fields`` joins the two by path; ``check_fields`` names every entry that
does not fit the model (a path the model lacks, an answer with no entry, a choice the model
refuses), so a renamed answer fails the load with the file and the key.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from nasplan.domain.platform import Platform
from nasplan.domain.platform_fields import FieldRow, platform_fields

WHERE = "knowledge/catalog/fields.yaml"

Step = Literal["host", "network", "oracle", "storage", "layout", "handover"]
Widget = Literal["select", "text", "check"]
# Lists the catalog serves that a select offers (the client reads them from GET /catalog).
CatalogChoices = Literal[
    "os",
    "os_releases",
    "arches",
    "nic_speeds",
    "switch_kinds",
    "vendors",
    "service_levels",
    "throughput_capacities",
]
Suggestions = Literal["oracle_examples", "filer_models", "filer_releases"]
Answer = str | int | float | bool


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FieldOption(_Entry):
    value: str
    label: str
    detail: str | None = Field(
        default=None, description="More words for the wizard's line: 'label: detail'."
    )


class FieldWords(_Entry):
    path: str
    label: str
    in_step: str | None = None
    unit: str | None = None
    hint: str | None = None
    step: Step | None = None
    group: Literal["change", "names", "path", "sizing"] | None = None
    widget: Widget
    wide: bool = False
    choices: CatalogChoices | None = None
    options: list[FieldOption] | None = None
    empty: str | None = None
    suggest: Suggestions | None = None
    opening: Answer | None = None
    shown_when: dict[str, Answer | list[Answer]] = {}


class FieldCatalog(_Entry):
    fields: list[FieldWords]


class AnswerField(FieldWords, FieldRow):
    """One platform answer: the model's type and limits with the words and the form."""


def answer_fields(catalog: FieldCatalog) -> list[AnswerField]:
    """The answers in the wizard's order (``check_fields`` has found every path in the model)."""
    rows = {row.path: row for row in platform_fields()}
    return [
        AnswerField(**rows[w.path].model_dump(), **w.model_dump(exclude={"path"}))
        for w in catalog.fields
        if w.path in rows
    ]


def _fits(row: FieldRow, value: Answer) -> bool:
    return row.enum is None or value in row.enum or str(value) in map(str, row.enum)


def check_fields(catalog: FieldCatalog) -> list[str]:
    rows = {row.path: row for row in platform_fields()}
    problems: list[str] = []
    seen: set[str] = set()
    for words in catalog.fields:
        where = f"{WHERE}: {words.path}"
        if words.path in seen:
            problems.append(f"{where}: listed twice")
        seen.add(words.path)
        row = rows.get(words.path)
        if row is None:
            problems.append(f"{where}: the platform has no such answer")
            continue
        problems += _check_entry(where, words, row, rows)
    problems += [
        f"{WHERE}: no entry for {path}: every answer of the platform needs one"
        for path in rows
        if path not in seen
    ]
    return problems or _check_openings(catalog)


def _check_entry(
    where: str, words: FieldWords, row: FieldRow, rows: dict[str, FieldRow]
) -> list[str]:
    problems = []
    if words.widget == "check" and row.type != "boolean":
        problems.append(f"{where}: widget check needs a yes/no answer, not {row.type}")
    if words.widget == "select" and not (words.choices or words.options):
        problems.append(f"{where}: a select needs choices or options")
    for option in words.options or []:
        if not _fits(row, option.value):
            problems.append(f"{where}: option {option.value!r} is not one the platform takes")
    if words.opening is not None and not _fits(row, words.opening):
        problems.append(f"{where}: opening {words.opening!r} is not one the platform takes")
    for path, wanted in words.shown_when.items():
        if path == "managed_network":
            continue
        other = rows.get(path)
        values = wanted if isinstance(wanted, list) else [wanted]
        if other is None:
            problems.append(f"{where}: shown_when names {path}, which the platform lacks")
        elif not all(_fits(other, value) for value in values):
            problems.append(f"{where}: shown_when {path}: a value the platform does not take")
    return problems


def _check_openings(catalog: FieldCatalog) -> list[str]:
    """The opening answers together must be a platform the API accepts."""
    platform: dict[str, Any] = {}
    for words in catalog.fields:
        if words.opening is None or "[]" in words.path:
            continue
        section, _, name = words.path.rpartition(".")
        platform.setdefault(section, {})[name] = words.opening
    try:
        Platform.model_validate(platform)
    except ValidationError as exc:
        return [
            f"{WHERE}: {'.'.join(map(str, error['loc']))}: the opening answer is refused: "
            f"{error['msg']}"
            for error in exc.errors()
        ]
    return []

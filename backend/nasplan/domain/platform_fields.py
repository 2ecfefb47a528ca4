"""Every answer of a platform as one flat table, read from the models' own JSON schema.

One row per answer (``network.router_hops``, ``handover.paths[].host_address``): its type, the
limits and pattern the API enforces, whether it may be left out, and the words a client needs to
say what is wrong (``x-error`` for a text's syntax, ``x-what`` for a number). The front end's
field checks are generated from this table (``scripts/gen-client.sh``), so a limit or a pattern is
written once, beside the field, in ``platform.py`` and ``text_types.py``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from nasplan.domain.platform import Platform

_KEPT = (
    "type",
    "enum",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "pattern",
    "maxLength",
    "x-error",
    "x-what",
)


class FieldRow(BaseModel):
    path: str
    type: str
    optional: bool
    enum: list[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    pattern: str | None = None
    max_length: int | None = None
    error: str | None = None
    what: str | None = None


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    return defs[ref.rsplit("/", 1)[1]] if isinstance(ref, str) else schema


def _row(path: str, prop: dict[str, Any], defs: dict[str, Any]) -> FieldRow | None:
    branches = prop.get("anyOf", [prop])
    values = [_resolve(b, defs) for b in branches if b.get("type") != "null"]
    if len(values) != 1:
        return None
    merged = {k: v for k, v in values[0].items() if k in _KEPT}
    merged.update({k: v for k, v in prop.items() if k in ("x-what", "x-error")})
    if "type" not in merged or merged["type"] in ("object", "array"):
        return None
    return FieldRow(
        path=path,
        type=merged["type"],
        optional=len(values) < len(branches) or "default" in prop,
        enum=merged.get("enum"),
        minimum=merged.get("minimum"),
        maximum=merged.get("maximum"),
        exclusive_minimum=merged.get("exclusiveMinimum"),
        pattern=merged.get("pattern"),
        max_length=merged.get("maxLength"),
        error=merged.get("x-error"),
        what=merged.get("x-what"),
    )


def _walk(prefix: str, schema: dict[str, Any], defs: dict[str, Any]) -> list[FieldRow]:
    rows: list[FieldRow] = []
    for name, prop in schema.get("properties", {}).items():
        path = f"{prefix}{name}"
        given = [b for b in prop.get("anyOf", [prop]) if b.get("type") != "null"]
        target = _resolve(given[0], defs) if len(given) == 1 else prop
        if target.get("type") == "object" or "properties" in target:
            rows += _walk(f"{path}.", target, defs)
        elif target.get("type") == "array":
            items = _resolve(target.get("items", {}), defs)
            if "properties" in items:
                rows += _walk(f"{path}[].", items, defs)
            elif (row := _row(f"{path}[]", items, defs)) is not None:
                rows.append(row)
        elif (row := _row(path, prop, defs)) is not None:
            rows.append(row)
    return rows


def platform_fields() -> list[FieldRow]:
    schema = Platform.model_json_schema()
    return _walk("", schema, schema.get("$defs", {}))

"""Offline checks of cloud NAS request bodies against the vendors' own API models.

Each checker returns human-readable errors, each naming the path of the offending value
(``OntapConfiguration.SecurityStyle``, ``export_policy.rules[0].access_type``); an empty list
means the body passed. Nothing is sent anywhere: the models are the ones installed with the
pinned SDKs (botocore, azure-mgmt-netapp, google-cloud-netapp).

AWS FSx (``fsx_request_errors``), botocore's service model for ``fsx``:
    botocore's own ``ParamValidator`` checks unknown and missing required members, Python types,
    the ``min`` of strings, lists and numbers, and tagged unions. It leaves out, and this module
    adds from the same shapes: enum values (``shape.enum``, with a hint when only the case
    differs), the ``max`` of strings, lists and numbers, the ``min`` of maps, the ``pattern`` of
    strings (the model's Java/ECMA regexes, anchored as written, searched as Smithy does, with
    ``\\p{..}`` Unicode classes expanded and ``(?i)`` honoured), and booleans passed where a
    number is expected (``True`` is an ``int`` to Python, so botocore takes it).

Azure NetApp Files (``anf_model_errors``), azure-mgmt-netapp's models:
    The SDK validates nothing on its side: a model takes any keyword it knows and any value,
    and serialises it. Version 18 is generated from TypeSpec (``rest_field``), not from msrest,
    so there is no ``_attribute_map`` or ``_validation``; the fields are the ``rest_field``s of
    the class and its bases, read-only is the SDK's own rule (visibility ``["read"]``), required
    is a field whose annotation is not Optional, enum-typed fields are annotated
    ``Union[str, <Enum>]``. The ``properties`` of a resource may be given flattened on the
    resource (``creation_token`` on ``Volume``), as the SDK's constructor takes them, or nested
    under ``properties``. Checked: unknown keys (with a hint for REST camelCase names),
    read-only keys, missing required keys, enum values (the SDK calls them "known values" and
    would pass any string), and types (str, int, float, bool, lists, dicts, nested models),
    recursively. The SDK carries no minimum/maximum/length/pattern constraints at all (they
    are only prose in the docstrings), so none are applied.

Google Cloud NetApp Volumes (``gcnv_message_errors``), google-cloud-netapp's proto-plus types:
    The body is fed to protobuf's ``json_format.ParseDict`` and to the proto-plus constructor,
    and their errors are reported (prefixed ``json_format:`` and ``proto-plus:``). Both stop at
    the first error; proto-plus takes ``True`` and ``"1024"`` for an integer, json_format takes
    camelCase names and enum numbers. The descriptor walk added here reports every error with
    its path: unknown fields, enum names (case-sensitive; the ``*_UNSPECIFIED`` default is
    refused as a value to write down), scalar types and integer ranges, lists for repeated
    fields, string keys for maps, nested messages, and more than one member of a oneof. The
    descriptors proto-plus builds carry no ``google.api.field_behavior`` options, so "Required"
    and "Output only" are read from the class docstrings, where the generator writes them as
    the first word of each field's description. Well-known types (``google.protobuf.*``) are
    left to json_format.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import enum
import functools
import re
import sys
import types
import typing
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import botocore.session  # type: ignore[import-untyped]
import proto  # type: ignore[import-untyped]
from azure.mgmt.netapp import models as anf_models
from azure.mgmt.netapp._utils.model_base import Model as AnfModel
from botocore.validate import ParamValidator  # type: ignore[import-untyped]
from google.cloud import netapp_v1
from google.protobuf import json_format  # type: ignore[import-untyped]
from google.protobuf.descriptor import FieldDescriptor  # type: ignore[import-untyped]

# --------------------------------------------------------------------------------------------
# Shared helpers


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}..."


def _got(value: Any) -> str:
    return f"got {type(value).__name__} {_show(value)}"


def _not_one_of(path: str, value: str, allowed: Iterable[str]) -> str:
    allowed = list(allowed)
    message = f"{path}: {value!r} not one of {', '.join(allowed)}"
    same = [a for a in allowed if a.lower() == value.lower()]
    if same:
        message += f" (case differs from {same[0]!r})"
    return message


def _unknown(path: str, kind: str, owner: str, key: str, known: Iterable[str]) -> str:
    message = f"{path}: unknown {kind} of {owner}"
    close = difflib.get_close_matches(key, list(known), n=1)
    if close:
        message += f" (did you mean {close[0]!r}?)"
    return message


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# --------------------------------------------------------------------------------------------
# AWS FSx: botocore's service model


@functools.cache
def _fsx_model() -> Any:
    return botocore.session.get_session().get_service_model("fsx")


def fsx_request_errors(operation: str, params: dict[str, Any]) -> list[str]:
    """Errors in ``params`` for the FSx API ``operation`` (``"CreateVolume"``), the parameters
    as ``aws fsx <operation> --cli-input-json`` takes them: botocore's ``ParamValidator`` report,
    one error a line, then what that validator leaves out (module docstring)."""
    model = _fsx_model()
    if operation not in model.operation_names:
        raise ValueError(f"FSx has no operation {operation!r}")
    shape = model.operation_model(operation).input_shape
    errors: list[str] = []
    report = ParamValidator().validate(params, shape)
    if report.has_errors():
        errors.extend(report.generate_report().splitlines())
    errors.extend(_fsx_walk(params, shape, ""))
    return errors


def _fsx_walk(value: Any, shape: Any, path: str) -> Iterator[str]:
    """What ParamValidator leaves out, for ``value`` and everything under it. Values of the
    wrong container type are not entered (ParamValidator reports them)."""
    kind = shape.type_name
    metadata = shape.metadata
    if kind == "structure":
        if isinstance(value, dict) and not shape.is_document_type:
            for key, member_value in value.items():
                if key in shape.members:
                    yield from _fsx_walk(member_value, shape.members[key], _join(path, key))
    elif kind == "list":
        if isinstance(value, list | tuple):
            yield from _fsx_size(path, len(value), metadata, "items", check_min=False)
            for index, item in enumerate(value):
                yield from _fsx_walk(item, shape.member, f"{path}[{index}]")
    elif kind == "map":
        if isinstance(value, dict):
            yield from _fsx_size(path, len(value), metadata, "entries", check_min=True)
            for key, item in value.items():
                yield from _fsx_walk(key, shape.key, f"{path} key {key!r}")
                yield from _fsx_walk(item, shape.value, f"{path}[{key!r}]")
    elif kind == "string":
        if isinstance(value, str):
            if "enum" in metadata and value not in metadata["enum"]:
                yield _not_one_of(path, value, metadata["enum"])
            yield from _fsx_size(path, len(value), metadata, "characters", check_min=False)
            pattern = metadata.get("pattern")
            if pattern is not None and not _aws_pattern(pattern).search(value):
                yield f"{path}: {_show(value)} does not match the pattern {pattern}"
    elif kind in ("integer", "long", "float", "double"):
        if isinstance(value, bool):
            yield f"{path}: expected a number ({kind}), got the boolean {value}"
        elif _is_number(value) and "max" in metadata and value > metadata["max"]:
            yield f"{path}: {value} above the maximum {metadata['max']}"


def _fsx_size(
    path: str, size: int, metadata: dict[str, Any], unit: str, *, check_min: bool
) -> Iterator[str]:
    if "max" in metadata and size > metadata["max"]:
        yield f"{path}: {size} {unit}, more than the maximum {metadata['max']}"
    if check_min and "min" in metadata and size < metadata["min"]:
        yield f"{path}: {size} {unit}, fewer than the minimum {metadata['min']}"


_UNICODE_PROPERTY = re.compile(r"\\([pP])\{(\w+)\}")


@functools.cache
def _aws_pattern(pattern: str) -> re.Pattern[str]:
    """The model's ``pattern`` as a Python regex. The AWS models write Java/ECMA regexes: the
    Unicode general categories ``\\p{L}`` are expanded to code point ranges (Python's ``re``
    has no ``\\p``), a leading ``(?i)`` becomes a flag, and ``\\d``/``\\w``/case folding are
    ASCII as in Java. Raises ValueError for a construct it cannot translate."""
    flags = re.ASCII
    if "(?i)" in pattern:
        before, _, after = pattern.partition("(?i)")
        if before not in ("", "^"):
            raise ValueError(f"cannot translate (?i) inside the pattern {pattern!r}")
        pattern, flags = before + after, flags | re.IGNORECASE
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            match = _UNICODE_PROPERTY.match(pattern, index)
            if match is None:
                out.append(pattern[index : index + 2])
                index += 2
                continue
            ranges = _category_ranges(match.group(2))
            negated = match.group(1) == "P"
            if in_class and negated:
                raise ValueError(f"cannot translate \\P inside a class in {pattern!r}")
            out.append(ranges if in_class else f"[{'^' if negated else ''}{ranges}]")
            index = match.end()
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        out.append(char)
        index += 1
    try:
        return re.compile("".join(out), flags)
    except re.error as exc:
        raise ValueError(f"cannot translate the pattern {pattern!r}: {exc}") from exc


@functools.cache
def _unicode_categories() -> dict[str, list[tuple[int, int]]]:
    """Code point ranges of each two-letter Unicode general category."""
    ranges: dict[str, list[tuple[int, int]]] = {}
    start, current = 0, unicodedata.category(chr(0))
    for code in range(1, sys.maxunicode + 2):
        category = unicodedata.category(chr(code)) if code <= sys.maxunicode else ""
        if category != current:
            ranges.setdefault(current, []).append((start, code - 1))
            start, current = code, category
    return ranges


@functools.cache
def _category_ranges(category: str) -> str:
    """``\\p{category}`` (``L``, ``Lu``, ``Nd``...) as the inside of a character class."""
    found = sorted(
        span
        for name, spans in _unicode_categories().items()
        if name.startswith(category)
        for span in spans
    )
    if not found or len(category) > 2:
        raise ValueError(f"unknown Unicode general category {category!r}")
    return "".join(
        f"\\U{first:08x}" if first == last else f"\\U{first:08x}-\\U{last:08x}"
        for first, last in found
    )


# --------------------------------------------------------------------------------------------
# Azure NetApp Files: azure-mgmt-netapp's models


@dataclasses.dataclass(frozen=True)
class _AnfField:
    name: str
    rest_name: str
    read_only: bool
    required: bool
    annotation: Any


def _anf_model_class(model: str) -> type[AnfModel]:
    cls = getattr(anf_models, model, None)
    if not (isinstance(cls, type) and issubclass(cls, AnfModel)):
        raise ValueError(f"azure.mgmt.netapp.models has no model {model!r}")
    return cls


@functools.cache
def _anf_fields(cls: type[AnfModel]) -> dict[str, _AnfField]:
    """The ``rest_field``s of ``cls`` and its bases, by attribute name, found as the SDK's
    ``Model.__new__`` finds them."""
    hints = typing.get_type_hints(cls, localns={"_models": anf_models})
    fields: dict[str, _AnfField] = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if name.startswith("_") or not hasattr(value, "_type"):
                continue
            annotation = hints[name]
            # The SDK's own rule for read-only (model_base._is_readonly).
            read_only = value._visibility == ["read"]
            optional = annotation is Any or type(None) in typing.get_args(annotation)
            fields[name] = _AnfField(
                name=name,
                rest_name=value._rest_name_input or name,
                read_only=read_only,
                required=not optional and not read_only,
                annotation=annotation,
            )
    return fields


@functools.cache
def _anf_flattened(cls: type[AnfModel]) -> frozenset[str]:
    """The attributes of ``properties`` that the SDK lets one set on ``cls`` itself."""
    for klass in cls.__mro__:
        items = vars(klass).get(f"_{klass.__name__}__flattened_items")
        if items is not None:
            return frozenset(items)
    return frozenset()


def anf_model_errors(model: str, body: dict[str, Any]) -> list[str]:
    """Errors in ``body`` for the azure-mgmt-netapp model class ``model`` (``"Volume"``), the
    keys the SDK's Python attribute names, a resource's properties flattened or under
    ``properties`` (module docstring)."""
    cls = _anf_model_class(model)
    if not isinstance(body, Mapping):
        return [f"{model}: expected a mapping, {_got(body)}"]
    return list(_anf_walk(cls, body, "", {}))


def _anf_walk(
    cls: type[AnfModel], body: Mapping[str, Any], path: str, key_paths: Mapping[str, str]
) -> Iterator[str]:
    """Errors in ``body`` as a ``cls``; ``key_paths`` overrides the path shown for some keys
    (the flattened properties, shown where the body has them)."""
    fields = _anf_fields(cls)
    flattened = _anf_flattened(cls)
    properties_cls = _anf_model_of(fields["properties"].annotation) if flattened else None
    flat: dict[str, Any] = {}
    for key, value in body.items():
        key_path = key_paths.get(key, _join(path, key))
        if key in fields:
            field = fields[key]
            if field.read_only:
                yield f"{key_path}: read-only attribute of {cls.__name__}, not to be sent"
            elif not (key == "properties" and properties_cls is not None):
                yield from _anf_value(value, field.annotation, key_path, field.required)
        elif key in flattened:
            flat[key] = value
        else:
            yield _anf_unknown(cls, key, key_path)
    for field in fields.values():
        flattened_properties = field.name == "properties" and properties_cls is not None
        if field.required and field.name not in body and not flattened_properties:
            yield f"{_join(path, field.name)}: required attribute of {cls.__name__} missing"
    if properties_cls is None:
        return
    under = _join(path, "properties")
    nested = body.get("properties")
    if nested is not None and not isinstance(nested, Mapping):
        yield f"{under}: expected a mapping ({properties_cls.__name__}), {_got(nested)}"
        return
    nested = nested or {}
    for key in sorted(flat.keys() & nested.keys()):
        yield f"{_join(path, key)}: set both flattened and under properties"
    if not nested and not flat and not fields["properties"].required:
        return
    merged = {**nested, **flat}
    base = under if "properties" in body and not flat else path
    paths = {key: _join(path if key in flat else under, key) for key in merged}
    yield from _anf_walk(properties_cls, merged, base, paths)


def _anf_unknown(cls: type[AnfModel], key: str, key_path: str) -> str:
    fields = dict(_anf_fields(cls))
    flattened = _anf_flattened(cls)
    if flattened:
        properties = _anf_fields(_anf_model_of(fields["properties"].annotation))
        fields.update({name: properties[name] for name in flattened if name in properties})
    for field in fields.values():
        if field.rest_name == key and field.name != key:
            return (
                f"{key_path}: unknown attribute of {cls.__name__} (the REST name of "
                f"{field.name!r}; the body takes the SDK's attribute names)"
            )
    return _unknown(key_path, "attribute", cls.__name__, key, fields)


def _anf_model_of(annotation: Any) -> type[AnfModel]:
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, AnfModel):
            return candidate
    raise TypeError(f"no model in the annotation {annotation!r}")


_ANF_SCALARS: dict[Any, tuple[str, Any]] = {
    str: ("str", lambda v: isinstance(v, str)),
    int: ("int", _is_int),
    float: ("float", _is_number),
    bool: ("bool", lambda v: isinstance(v, bool)),
    datetime.datetime: ("ISO 8601 str", lambda v: isinstance(v, str | datetime.datetime)),
}


def _anf_value(value: Any, annotation: Any, path: str, required: bool) -> Iterator[str]:
    """Errors in ``value`` as a value of the SDK type ``annotation``."""
    if annotation is Any:
        return
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        if value is None:
            if required:
                yield f"{path}: required attribute is None"
            return
        options = [arg for arg in args if arg is not type(None)]
        enums = [arg for arg in options if isinstance(arg, type) and issubclass(arg, enum.Enum)]
        if len(options) == 1:
            yield from _anf_value(value, options[0], path, required)
        elif len(enums) == 1 and set(options) == {str, enums[0]}:
            if not isinstance(value, str):
                yield f"{path}: expected one of the {enums[0].__name__} values, {_got(value)}"
            elif value not in _enum_values(enums[0]):
                yield _not_one_of(path, value, _enum_values(enums[0]))
        else:
            raise TypeError(f"{path}: unhandled annotation {annotation!r}")
    elif origin is list:
        if not isinstance(value, list):
            yield f"{path}: expected a list, {_got(value)}"
            return
        for index, item in enumerate(value):
            yield from _anf_value(item, args[0], f"{path}[{index}]", True)
    elif origin is dict:
        if not isinstance(value, Mapping):
            yield f"{path}: expected a mapping, {_got(value)}"
            return
        for key, item in value.items():
            if not isinstance(key, str):
                yield f"{path}: expected str keys, {_got(key)}"
            yield from _anf_value(item, args[1], f"{path}[{key!r}]", True)
    elif annotation in _ANF_SCALARS:
        expected, check = _ANF_SCALARS[annotation]
        if value is None:
            if required:
                yield f"{path}: required attribute is None"
        elif not check(value):
            yield f"{path}: expected {expected}, {_got(value)}"
    elif isinstance(annotation, type) and issubclass(annotation, AnfModel):
        if not isinstance(value, Mapping):
            yield f"{path}: expected a mapping ({annotation.__name__}), {_got(value)}"
        else:
            yield from _anf_walk(annotation, value, path, {})
    else:
        raise TypeError(f"{path}: unhandled annotation {annotation!r}")


def _enum_values(cls: type[enum.Enum]) -> list[str]:
    return [str(member.value) for member in cls]


def anf_enum_values(enum_name: str) -> frozenset[str]:
    """The values of the azure-mgmt-netapp enum ``enum_name`` (``"ServiceLevel"``)."""
    cls = getattr(anf_models, enum_name, None)
    if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
        raise ValueError(f"azure.mgmt.netapp.models has no enum {enum_name!r}")
    return frozenset(_enum_values(cls))


# --------------------------------------------------------------------------------------------
# Google Cloud NetApp Volumes: google-cloud-netapp's proto-plus types


def _gcnv_class(message: str) -> Any:
    found: Any = netapp_v1
    for part in message.split("."):
        found = getattr(found, part, None)
    if not (isinstance(found, type) and issubclass(found, proto.Message)):
        raise ValueError(f"google.cloud.netapp_v1 has no message {message!r}")
    return found


@functools.cache
def _gcnv_classes() -> dict[str, Any]:
    """The proto-plus classes of netapp_v1, nested ones too, by full proto name."""
    classes: dict[str, Any] = {}

    def add(cls: Any) -> None:
        classes[cls.meta.full_name] = cls
        for value in vars(cls).values():
            if isinstance(value, type) and issubclass(value, proto.Message):
                add(value)

    for name in dir(netapp_v1):
        value = getattr(netapp_v1, name)
        if isinstance(value, type) and issubclass(value, proto.Message):
            add(value)
    return classes


_DOC_BEHAVIOR = re.compile(
    r"^(?P<indent>[ ]+)(?P<name>\w+) \([^\n]*\):\n"
    r"(?P=indent)[ ]{4}(?P<behavior>Required|Output only)\.",
    re.MULTILINE,
)


@functools.cache
def _gcnv_behaviors(full_name: str) -> dict[str, str]:
    """``Required`` or ``Output only`` by field name, as the class docstring states them."""
    cls = _gcnv_classes().get(full_name)
    doc = (cls.__doc__ or "") if cls is not None else ""
    _, _, attributes = doc.partition("Attributes:")
    return {match["name"]: match["behavior"] for match in _DOC_BEHAVIOR.finditer(attributes)}


def _gcnv_field(descriptor: Any, key: str) -> Any:
    """The field ``key`` names, with proto-plus's rule for names it suffixed with ``_``."""
    fields = descriptor.fields_by_name
    return fields.get(key) or fields.get(f"{key}_")


def _proto_name(field: Any) -> str:
    return str(field.json_name) if field.name.endswith("_") else str(field.name)


def gcnv_message_errors(message: str, body: dict[str, Any]) -> list[str]:
    """Errors in ``body`` for the ``google.cloud.netapp_v1`` message ``message`` (``"Volume"``),
    the keys the proto field names: the descriptor walk, then json_format's and proto-plus's
    own errors (module docstring)."""
    cls = _gcnv_class(message)
    if not isinstance(body, Mapping):
        return [f"{message}: expected a mapping, {_got(body)}"]
    errors = list(_gcnv_walk(cls.pb().DESCRIPTOR, body, ""))
    try:
        json_format.ParseDict(body, cls.pb()())
    except Exception as exc:  # anything the vendor's parser raises is a finding
        errors.append(f"json_format: {exc}")
    try:
        cls(body)
    except Exception as exc:  # likewise for the proto-plus constructor
        errors.append(f"proto-plus: {type(exc).__name__}: {exc}")
    return errors


def _gcnv_walk(descriptor: Any, body: Mapping[str, Any], path: str) -> Iterator[str]:
    behaviors = _gcnv_behaviors(descriptor.full_name)
    present: set[str] = set()
    for key, value in body.items():
        key_path = _join(path, key)
        field = _gcnv_field(descriptor, key) if isinstance(key, str) else None
        if field is None:
            yield _gcnv_unknown(descriptor, key, key_path)
            continue
        if value is None:
            continue
        present.add(field.name)
        if behaviors.get(field.name) == "Output only":
            yield f"{key_path}: output-only field of {descriptor.full_name}, not to be sent"
        else:
            yield from _gcnv_field_value(field, value, key_path)
    for name, behavior in behaviors.items():
        if behavior == "Required" and name not in present:
            field = descriptor.fields_by_name[name]
            yield (
                f"{_join(path, _proto_name(field))}: required field of "
                f"{descriptor.full_name} missing"
            )
    for oneof in descriptor.oneofs:
        members = [field.name for field in oneof.fields]
        if members == [oneof.name[1:]]:
            continue  # the synthetic oneof of a proto3 ``optional`` field
        chosen = [name for name in members if name in present]
        if len(chosen) > 1:
            yield (
                f"{path or descriptor.name}: {', '.join(chosen)} are members of the oneof "
                f"{oneof.name}; set one"
            )


def _gcnv_unknown(descriptor: Any, key: Any, key_path: str) -> str:
    for field in descriptor.fields:
        if field.json_name == key and field.name != key:
            return (
                f"{key_path}: unknown field of {descriptor.full_name} (the JSON name of "
                f"{_proto_name(field)!r}; the body takes the proto field names)"
            )
    names = [_proto_name(field) for field in descriptor.fields]
    return _unknown(key_path, "field", descriptor.full_name, str(key), names)


def _gcnv_field_value(field: Any, value: Any, path: str) -> Iterator[str]:
    message_type = field.message_type
    if message_type is not None and message_type.GetOptions().map_entry:
        if not isinstance(value, Mapping):
            yield f"{path}: expected a mapping (map field), {_got(value)}"
            return
        key_field = message_type.fields_by_name["key"]
        value_field = message_type.fields_by_name["value"]
        for key, item in value.items():
            yield from _gcnv_single(key_field, key, f"{path} key {key!r}")
            yield from _gcnv_single(value_field, item, f"{path}[{key!r}]")
    elif field.is_repeated:
        if not isinstance(value, list | tuple):
            yield f"{path}: expected a list (repeated field), {_got(value)}"
            return
        for index, item in enumerate(value):
            yield from _gcnv_single(field, item, f"{path}[{index}]")
    else:
        yield from _gcnv_single(field, value, path)


_INT_RANGES: dict[int, tuple[str, int, int]] = {
    FieldDescriptor.TYPE_INT32: ("int32", -(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: ("sint32", -(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: ("sfixed32", -(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_UINT32: ("uint32", 0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: ("fixed32", 0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: ("int64", -(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: ("sint64", -(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: ("sfixed64", -(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: ("uint64", 0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: ("fixed64", 0, 2**64 - 1),
}

_DECIMAL = re.compile(r"-?[0-9]+")


def _gcnv_single(field: Any, value: Any, path: str) -> Iterator[str]:
    """Errors in one value (not a list, not a map) of ``field``."""
    kind = field.type
    if kind == FieldDescriptor.TYPE_MESSAGE:
        message_type = field.message_type
        if message_type.full_name.startswith("google.protobuf."):
            return  # well-known types have their own JSON forms; json_format checks them
        if not isinstance(value, Mapping):
            yield f"{path}: expected a mapping ({message_type.name}), {_got(value)}"
        else:
            yield from _gcnv_walk(message_type, value, path)
    elif kind == FieldDescriptor.TYPE_ENUM:
        enum_type = field.enum_type
        names = [item.name for item in enum_type.values]
        if not isinstance(value, str):
            yield f"{path}: expected an enum name ({enum_type.full_name}), {_got(value)}"
        elif value not in names:
            yield _not_one_of(path, value, names)
        elif enum_type.values_by_name[value].number == 0 and value.endswith("_UNSPECIFIED"):
            yield f"{path}: {value!r} is the enum's unset default; leave the field out instead"
    elif kind in _INT_RANGES:
        type_name, low, high = _INT_RANGES[kind]
        number: int | None = None
        if _is_int(value):
            number = value
        elif "64" in type_name and isinstance(value, str) and _DECIMAL.fullmatch(value):
            number = int(value)  # proto3 JSON writes 64-bit integers as decimal strings
        if number is None:
            yield f"{path}: expected an integer ({type_name}), {_got(value)}"
        elif not low <= number <= high:
            yield f"{path}: {number} outside the {type_name} range {low}..{high}"
    elif kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        if not _is_number(value):
            yield f"{path}: expected a number, {_got(value)}"
    elif kind == FieldDescriptor.TYPE_BOOL:
        if not isinstance(value, bool):
            yield f"{path}: expected bool, {_got(value)}"
    elif kind == FieldDescriptor.TYPE_STRING:
        if not isinstance(value, str):
            yield f"{path}: expected str, {_got(value)}"
    elif kind == FieldDescriptor.TYPE_BYTES:
        if not isinstance(value, str | bytes):
            yield f"{path}: expected base64 str or bytes, {_got(value)}"
    else:
        raise TypeError(f"{path}: unhandled field type {kind}")


def gcnv_enum_values(message: str, field: str) -> frozenset[str]:
    """The enum value names of ``field`` of the netapp_v1 message ``message``
    (``("Volume", "protocols")``), the ``*_UNSPECIFIED`` default included."""
    found = _gcnv_field(_gcnv_class(message).pb().DESCRIPTOR, field)
    if found is None or found.enum_type is None:
        raise ValueError(f"{message}.{field} is not an enum field")
    return frozenset(str(item.name) for item in found.enum_type.values)

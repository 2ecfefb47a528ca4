"""Checks a generated ``.tf.json`` file against the providers' pinned schemas
(terraform_provider_schemas.yaml: names, required arguments, documented values and types, from
the providers' own documentation at a named release), without a Terraform binary.

Also checked: the required_providers constraint admits the release the schemas were read from;
every ``${...}`` is one of the references nasplan writes (an input variable, or a resource's
attribute the documentation exports) and names something the file declares.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import Version

SCHEMAS = Path(__file__).with_name("terraform_provider_schemas.yaml")
_TEMPLATE = re.compile(r"\$\{([^}]*)\}")
_VARIABLE_REF = re.compile(r"var\.([a-z][a-z0-9_]*)(?: \* \d+)?")
_RESOURCE_REF = re.compile(r"([a-z0-9_]+)\.([a-z0-9_]+)\.([a-z0-9_]+)")
_TOP_LEVEL = {"//", "terraform", "provider", "variable", "resource", "output"}


@cache
def schemas() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(SCHEMAS.read_text())
    providers: dict[str, Any] = data["providers"]
    return providers


def _resource_schema(kind: str) -> tuple[str, dict[str, Any]] | None:
    for provider, spec in schemas().items():
        if kind in spec["resources"]:
            return provider, spec["resources"][kind]
    return None


def _tilde(constraint: str) -> SpecifierSet:
    """Terraform's ``~> X.Y`` as a Python specifier set (>= X.Y, < X+1)."""
    match = re.fullmatch(r"~> (\d+)\.(\d+)", constraint)
    if not match:
        raise ValueError(f"not a constraint nasplan writes: {constraint!r}")
    major, minor = int(match.group(1)), int(match.group(2))
    return SpecifierSet(f">={major}.{minor},<{major + 1}")


def _type_errors(where: str, kind: str, value: Any) -> list[str]:
    if isinstance(value, str) and _TEMPLATE.fullmatch(value):
        return []  # a reference: Terraform checks its type when it plans
    ok = {
        "string": isinstance(value, str),
        "number": isinstance(value, int | float) and not isinstance(value, bool),
        "bool": isinstance(value, bool),
        "list(string)": isinstance(value, list) and all(isinstance(v, str) for v in value),
        "set(string)": isinstance(value, list) and all(isinstance(v, str) for v in value),
        "map(string)": isinstance(value, dict),
    }.get(kind)
    if ok is None:
        return [f"{where}: unknown pinned type {kind}"]
    return [] if ok else [f"{where}: {value!r} is not a {kind}"]


def _block_errors(where: str, body: dict[str, Any], spec: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    arguments: dict[str, Any] = spec.get("arguments", {})
    blocks: dict[str, Any] = spec.get("blocks", {})
    for key, value in body.items():
        path = f"{where}.{key}"
        if key in arguments:
            argument = arguments[key]
            if argument.get("deprecated"):
                errors.append(f"{path}: deprecated in the pinned documentation")
            errors += _type_errors(path, argument["type"], value)
            allowed = argument.get("values")
            values = value if isinstance(value, list) else [value]
            for item in values:
                literal_value = not (isinstance(item, str) and _TEMPLATE.search(item))
                if allowed and literal_value and item not in allowed:
                    errors.append(f"{path}: {item!r} not one of {allowed}")
            if isinstance(value, int | float):
                low, high = argument.get("min"), argument.get("max")
                if (low is not None and value < low) or (high is not None and value > high):
                    errors.append(f"{path}: {value} outside {low}..{high}")
        elif key in blocks:
            items = value if isinstance(value, list) else [value]
            if "max_items" in blocks[key] and len(items) > blocks[key]["max_items"]:
                errors.append(f"{path}: {len(items)} blocks, at most {blocks[key]['max_items']}")
            for index, item in enumerate(items):
                if not isinstance(item, dict):
                    errors.append(f"{path}[{index}]: a block must be an object")
                    continue
                errors += _block_errors(f"{path}[{index}]", item, blocks[key])
        else:
            errors.append(f"{path}: not an argument or block of the pinned schema")
    for key, argument in arguments.items():
        if argument.get("required") and key not in body:
            errors.append(f"{where}.{key}: required and missing")
    for key, block in blocks.items():
        if block.get("required") and key not in body and key != "timeouts":
            errors.append(f"{where}.{key}: required block missing")
    return errors


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for key, item in value.items() if key != "//" for s in _strings(item)]
    return []


def terraform_errors(text: str) -> list[str]:
    """Everything wrong with one generated .tf.json file, as lines naming the path."""
    document: dict[str, Any] = json.loads(text)
    errors = [
        f"{key}: not a top-level key nasplan writes" for key in document if key not in _TOP_LEVEL
    ]
    providers = document.get("terraform", {}).get("required_providers", {})
    resources: dict[str, dict[str, Any]] = document.get("resource", {})
    variables: dict[str, Any] = document.get("variable", {})
    for kind, named in resources.items():
        found = _resource_schema(kind)
        if found is None:
            errors.append(f"resource {kind}: not in the pinned schemas")
            continue
        provider, spec = found
        pinned = schemas()[provider]
        wanted = providers.get(provider)
        if wanted is None:
            errors.append(f"resource {kind}: provider {provider} not in required_providers")
        else:
            if wanted.get("source") != pinned["source"]:
                errors.append(f"provider {provider}: source {wanted.get('source')}")
            if pinned.get("version") and Version(pinned["version"]) not in _tilde(
                wanted["version"]
            ):
                errors.append(
                    f"provider {provider}: {wanted['version']} does not admit the release the "
                    f"schemas were read from ({pinned['version']})"
                )
        for name, body in named.items():
            errors += _block_errors(f"{kind}.{name}", body, spec)
    for text_value in _strings({k: v for k, v in document.items() if k != "variable"}):
        if re.search(r"(?<!%)%\{", text_value):
            errors.append(f"{text_value!r}: a template directive")
        # $${ is an escaped literal: only what is left is evaluated.
        for reference in _TEMPLATE.findall(text_value.replace("$${", "")):
            if match := _VARIABLE_REF.fullmatch(reference):
                if match.group(1) not in variables:
                    errors.append(f"${{{reference}}}: no such variable")
            elif match := _RESOURCE_REF.fullmatch(reference):
                kind, name, attribute = match.groups()
                found = _resource_schema(kind)
                if name not in resources.get(kind, {}):
                    errors.append(f"${{{reference}}}: no such resource")
                elif found is not None and attribute not in (
                    *found[1].get("arguments", {}),
                    *found[1].get("attributes", []),
                ):
                    errors.append(f"${{{reference}}}: {kind} has no attribute {attribute}")
            else:
                errors.append(f"${{{reference}}}: not a reference nasplan writes")
    for name, body in variables.items():
        if set(body) - {"type", "description", "default"}:
            errors.append(f"variable {name}: unexpected keys {sorted(body)}")
        if body.get("type") not in ("string", "number"):
            errors.append(f"variable {name}: type {body.get('type')}")
    return errors

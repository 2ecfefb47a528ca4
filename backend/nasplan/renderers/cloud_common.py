"""What the cloud NAS files share: the volumes as the services see them, and Terraform files
written as data.

Terraform files are written in Terraform's JSON syntax (``.tf.json``) by ``json.dumps``, so no
value can break out of its string; a value from the plan is escaped as a template literal
(``${`` and ``%{`` doubled) so Terraform never evaluates it. A value the design does not give
yet becomes an input variable without a default: Terraform asks for it and refuses to plan
without it, and the runbook's first page lists it (``terraform_inputs``).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from nasplan.domain.volume_group import VolumeGroupPlan
from nasplan.renderers.common import PLACEHOLDER_RE, Facts, comment_block, header_lines, q
from nasplan.renderers.handover import answer_for, export_clients

GIB = 1024**3
TERRAFORM_DIR = "terraform"
# How each Terraform file says it is run (its header).
TERRAFORM_STEPS = (
    "First step: terraform init, then terraform validate.",
    "Dry run: terraform plan. Apply: terraform apply.",
)
# Terraform's JSON syntax ignores a property named "//": the files' header goes there.
COMMENT_KEY = "//"
_VARIABLE_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")


@dataclass(frozen=True)
class CloudVolume:
    name: str
    path: str  # the export path without its leading slash: what the service calls the volume
    holds: list[str]
    size_gib: int | None
    snapshot_policy: str | None


def cloud_volumes(f: Facts) -> list[CloudVolume]:
    snapshot = {
        volume: s.value for s in f.settings("ontap_snapshot_policy") for volume in s.applies_to
    }
    return [
        CloudVolume(
            name=v.name,
            path=v.export.lstrip("/"),
            holds=list(v.holds),
            size_gib=v.size_gb,
            snapshot_policy=snapshot.get(v.name),
        )
        for v in f.plan.volumes
    ]


def nfs_version(f: Facts) -> str:
    return f.plan.platform.oracle.nfs_version


def size_placeholder(volume: CloudVolume) -> str:
    return f"<size-{volume.name.replace('_', '-')}>"


def variable_for(placeholder: str) -> str:
    """The Terraform input that stands for a placeholder: <size-prod-data> is size_prod_data."""
    return placeholder.strip("<>").replace("-", "_")


def placeholder_for(variable: str) -> str:
    return "<" + variable.replace("_", "-") + ">"


def literal(text: str) -> str:
    """A plan value as a Terraform string that is never a template."""
    return text.replace("${", "$${").replace("%{", "%%{")


@dataclass
class TerraformFile:
    """One ``.tf.json`` file: providers, input variables, resources."""

    header: list[str]
    providers: dict[str, dict[str, str]]
    provider_config: dict[str, dict[str, Any]] = field(default_factory=dict)
    variables: dict[str, dict[str, Any]] = field(default_factory=dict)
    resources: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def variable(self, name: str, description: str, *, kind: str = "string") -> str:
        """Declare an input variable, never with a default (Terraform asks for it), and return
        a reference to it."""
        if not _VARIABLE_NAME.fullmatch(name):
            raise ValueError(f"not a variable name nasplan writes: {name!r}")
        self.variables[name] = {"type": kind, "description": description}
        return f"${{var.{name}}}"

    def value(self, text: str) -> str:
        """A plan value, or where it is still a placeholder the input variable of the same
        name (<storage-subnet-1> is var.storage_subnet_1), asking the same question."""
        if PLACEHOLDER_RE.fullmatch(text):
            answer = answer_for(text)
            asked = f"{answer.question} ({answer.field})" if answer else text
            return self.variable(variable_for(text), asked[:1].upper() + asked[1:])
        return literal(text)

    def number(self, text: str, description: str, scale: int = 1) -> str:
        """A number the design does not give yet, as the variable of its placeholder (times
        ``scale`` where the argument takes another unit)."""
        reference = self.variable(variable_for(text), description, kind="number")
        return reference if scale == 1 else f"{reference[:-1]} * {scale}}}"

    def resource(self, kind: str, name: str, body: dict[str, Any]) -> None:
        self.resources.setdefault(kind, {})[name] = body

    def render(self) -> str:
        document: dict[str, Any] = {
            # Terraform ignores "//", but the design's name is in it: escaped all the same.
            COMMENT_KEY: literal(" ".join(" ".join(self.header).split())),
            "terraform": {"required_providers": self.providers},
        }
        if self.provider_config:
            document["provider"] = self.provider_config
        if self.variables:
            document["variable"] = self.variables
        document["resource"] = self.resources
        if self.outputs:
            document["output"] = self.outputs
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def size_variable(tf: TerraformFile, volume: CloudVolume, scale: int = 1) -> str | int:
    """The planned size in GiB (times ``scale``), or a variable in GiB where sizing does not
    give it."""
    if volume.size_gib is not None:
        return volume.size_gib * scale
    return tf.number(
        size_placeholder(volume),
        f"Size of volume {volume.name} in GiB (holds {', '.join(volume.holds)}): give the "
        "platform's sizing inputs (platform.sizing) and the plan works it out",
        scale,
    )


def client_list(tf: TerraformFile, f: Facts) -> list[str]:
    return [tf.value(client) for client in export_clients(f)]


def terraform_inputs(files: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Each Terraform input (nasplan declares none with a default), as the placeholder it
    stands for: (the file, what the input asks for)."""
    inputs: dict[str, tuple[str, str]] = {}
    for path, text in files.items():
        if not path.endswith(".tf.json"):
            continue
        for name, body in json.loads(text).get("variable", {}).items():
            inputs[placeholder_for(name)] = (f"{path} (var.{name})", body["description"])
    return inputs


def volume_group(f: Facts) -> VolumeGroupPlan | None:
    """The application volume group for Oracle, where the plan found the layout fits one."""
    group = f.plan.volume_group
    return group if f.family == "anf" and group is not None and group.members else None


def tib_ceiling(tib: float) -> int:
    return max(1, math.ceil(tib))


def command_line(program: list[str], flags: list[tuple[str, object]]) -> str:
    """One command line, every value shell-quoted: a person pastes it after replacing any
    value still in angle brackets."""
    words = [*program]
    for flag, value in flags:
        words.append(f"{flag}={q(value)}" if flag.startswith("--") else q(value))
    return " ".join(words)


def cli_text(f: Facts, title: str, rules: list[str], intro: list[str], lines: list[str]) -> str:
    head = comment_block([*header_lines(f, title, rules), "", *intro])
    return head + "\n\n" + "\n\n".join(lines) + "\n"

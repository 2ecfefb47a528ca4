"""The building blocks of the platform's models: the choices its fields offer, the strict base
model, and the helpers that state the rules between fields in JSON Schema."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict


def _not_bool(value: object) -> object:
    # JSON true is not the number 1, although Python's Literal[1] would take it as such.
    if isinstance(value, bool):
        raise ValueError("expected a number, not true or false")
    return value


NotBool = BeforeValidator(_not_bool)

OsName = Literal["solaris", "linux", "aix", "hpux"]
Arch = Literal["sparc", "x86_64", "power", "ia64"]
NicGbps = Annotated[Literal[1, 10, 25, 40, 100], NotBool]
OracleBits = Annotated[Literal[32, 64], NotBool]
SwitchKind = Literal["store_and_forward", "cut_through", "hub"]
Workload = Literal["oltp", "dss", "mixed"]
FilerVendor = Literal[
    "netapp", "sun", "oracle_zfssa", "azure_anf", "gcp_gcnv", "aws_fsxn", "generic"
]
ServiceLevel = Literal["standard", "premium", "ultra", "extreme"]
# The service levels each cloud NAS offers (throughput per TiB: knowledge/catalog/filers.yaml).
SERVICE_LEVELS: dict[str, tuple[str, ...]] = {
    "azure_anf": ("standard", "premium", "ultra"),
    "gcp_gcnv": ("standard", "premium", "extreme"),
}
# Amazon FSx for NetApp ONTAP: the throughput capacities one HA pair can be given, MBps
# (first and second generation; knowledge/catalog/filers.yaml cites them).
FSX_THROUGHPUTS = (128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144)
FsxThroughput = Annotated[
    Literal[128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144], NotBool
]
OracleHomePlacement = Literal["nas", "local"]
NfsVersion = Literal["3", "4.1"]
VolumeLayout = Literal["separate", "shared"]


# The rules between fields that the models' validators enforce, stated again in JSON Schema (for
# clients and for schemathesis) wherever JSON Schema can state them; the rest are in the
# models' descriptions. tests/api/test_openapi_honesty.py checks both say the same. They are
# written as if/then/else, not anyOf: openapi-typescript ignores if/then/else, where it would
# turn each anyOf branch into a union member of the front end's types.
_NULL: dict[str, Any] = {"type": "null"}


def nulls(*names: str) -> dict[str, Any]:
    """Properties that are absent or null."""
    return {"properties": dict.fromkeys(names, _NULL)}


def given(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """Property ``name`` is present and fits ``schema``."""
    return {"properties": {name: schema}, "required": [name]}


class StrictModel(BaseModel):
    # strict: no "48" for 48 and no true for 1; dates alone are still read from their text.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

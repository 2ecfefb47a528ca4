"""The plan: what nasplan advises for a platform (contract: api-v1 "Plan").

Every volume, mount, setting, finding and check names the rules that produced it, and
``rules`` carries each of those rules' title, rationale, sources and history so a reader can
answer "why?" without another request.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from nasplan.domain.platform import Platform
from nasplan.domain.vocabulary import Confidence, Mechanism, Role, RuleSeverity, Severity, Target


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class Volume(_Out):
    role: Role
    name: str
    holds: list[Role]
    export: str = Field(description="Server-side path, e.g. `/vol/prod_data`.")
    rules: list[str]


class Mount(_Out):
    role: Role
    serves: list[Role] = Field(description="File roles this mount carries (redo + control).")
    volume: str
    mount_point: str
    export: str = Field(description="`filer:/path` as it goes into the mount table.")
    options: list[str]
    rules: list[str]
    option_rules: dict[str, list[str]] = Field(description="Option -> the rules that put it there.")


class Setting(_Out):
    target: Target
    key: str
    value: str
    action: Literal["set", "unset"] = "set"
    mechanism: Mechanism
    applies_to: list[str] = Field(default=[], description="Volume names for per-volume settings.")
    requires: Literal["none", "remount", "reboot", "instance_restart", "online"]
    scope: str | None = Field(default=None, description="File or interface the setting lives in.")
    rules: list[str]


class Finding(_Out):
    severity: Severity
    rule: str
    message: str
    related_rules: list[str] = Field(default=[], description="Other rules the finding is about.")


class Check(_Out):
    what: str
    where: Literal["host", "filer", "oracle", "switch"]
    command: str
    expect: str
    rules: list[str]


class SourceCitation(_Out):
    id: str
    title: str
    locator: str
    published: dt.date | None


class RuleExplanation(_Out):
    id: str
    title: str
    category: str
    severity: RuleSeverity
    confidence: Confidence
    rationale: str
    sources: list[SourceCitation]
    effective_from: dt.date
    supersedes: list[str]


class SupersededRule(_Out):
    rule: str
    title: str
    by: list[str]
    effective_from: dt.date
    replaced_on: dt.date
    reason: str


class LatencyPart(_Out):
    part: Literal["wire", "switches", "routers", "server"]
    us: float
    note: str


class Expectations(_Out):
    single_stream_mb_s: float = Field(
        description="One serial stream of rsize reads on the data mount: rsize / round trip, "
        "capped by one NIC's payload ceiling (MB/s, 10^6 bytes)."
    )
    rtt_us: float = Field(description="Round trip of one rsize read used above.")
    rtt_measured: bool = Field(description="True when the round trip came from network.rtt_us.")
    transfer_bytes: int = Field(description="Bytes per request on the wire (rsize after caps).")
    latency_budget_us: list[LatencyPart]
    nic_payload_ceiling_mb_s: float
    aggregate_ceiling_mb_s: float = Field(description="All storage NICs, with the measured loss.")
    pipelined_stream_mb_s: float | None = Field(
        default=None,
        description="One stream when the client keeps several requests in flight "
        "(Linux 2.6+, dNFS): the NIC ceiling. None for serial clients.",
    )
    serial_client: bool
    nfs_overhead_8k_us: float = Field(description="Extra time of one 8 KB read over NFS.")
    overhead_vs_disk_pct: float = Field(description="That overhead against a 7 ms disk read.")
    tcp_window_bytes: int = Field(description="Bandwidth-delay product of one NIC at this RTT.")
    bottleneck: str
    improvements: list[str]
    assumptions: list[str]
    rules: list[str]


class Plan(_Out):
    kb_version: str
    as_of: dt.date
    platform: Platform
    volumes: list[Volume]
    mounts: list[Mount]
    settings: list[Setting]
    findings: list[Finding]
    checks: list[Check]
    expectations: Expectations
    rules: dict[str, RuleExplanation] = Field(
        description="Every rule that produced an item, with its rationale and sources."
    )
    superseded: list[SupersededRule] = Field(
        description="Rules that would apply but were replaced by newer advice, and why."
    )
    applied_rules: list[str] = Field(
        description="Every rule in effect for this platform on as_of (after supersession)."
    )

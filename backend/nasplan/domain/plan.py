"""The plan: what nasplan advises for a platform (contract: api-v1 "Plan").

Every volume, mount, setting, finding and check names the rules that produced it, and
``rules`` carries each of those rules' title, rationale, sources and history so a reader can
answer "why?" without another request.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from nasplan.domain.platform import Platform
from nasplan.domain.text_types import VolumeName
from nasplan.domain.vocabulary import (
    MAX_DNFS_PATHS,
    Confidence,
    DateConfidence,
    Mechanism,
    Role,
    RuleSeverity,
    Severity,
    Target,
)
from nasplan.domain.volume_group import VolumeGroupPlan


# A plan is read back from the database and from imported documents, and every renderer
# writes its fields into shell, SQL, YAML and templates. So each field that reaches a file has
# the syntax the knowledge base and the planner produce, and nothing else gets through.
def _no_parent_segment(value: str) -> str:
    if ".." in value.split("/") or "\\" in value:
        raise ValueError("no '..' segments or backslashes")
    return value


RULE_ID_PATTERN = r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$"
RuleId = Annotated[str, StringConstraints(pattern=RULE_ID_PATTERN, max_length=60)]
SettingKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_.:-]{0,79}$")]
SettingValue = Annotated[
    str, StringConstraints(pattern=r"^([A-Za-z0-9 $/._:=,+-]{0,200}|<[a-z0-9-]{1,40}>)$")
]
Scope = Annotated[
    str,
    StringConstraints(pattern=r"^([A-Za-z0-9 /._-]{1,120}|<[a-z0-9-]{1,40}>)$"),
    AfterValidator(_no_parent_segment),
]
PathName = Annotated[
    str,
    StringConstraints(pattern=r"^/[A-Za-z0-9._/-]{0,200}$"),
    AfterValidator(_no_parent_segment),
]
ExportName = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z0-9.-]{1,253}:/[A-Za-z0-9._/-]{0,200}$"),
    AfterValidator(_no_parent_segment),
]
MountOption = Annotated[
    str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,31}(=[A-Za-z0-9._:/-]{1,64})?$")
]
CodeRanges = tuple[tuple[int, int], ...]

# Text fields take no character of the Unicode categories Cc (controls, C0 and C1) or Cf (format:
# invisible characters such as bidi overrides U+202E, zero-width spaces, the soft hyphen, tags).
# The ranges are spelled out rather than written \p{Cc}\p{Cf}: Python's re, which reads the
# OpenAPI patterns in schemathesis, has no property classes, and each engine would read them
# with its own Unicode version. tests/security/test_model_text.py checks them against Python's
# unicodedata and JavaScript's \p{Cf}. Cf as of Unicode 17.0 (U+13439-U+1343F since 15.0).
_DELETE_AND_C1: CodeRanges = ((0x007F, 0x009F),)
CONTROL_RANGES: CodeRanges = ((0x0000, 0x001F), *_DELETE_AND_C1)
FORMAT_RANGES: CodeRanges = (
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
LINE_SEPARATORS: CodeRanges = ((0x2028, 0x2029),)  # Zl and Zp: line breaks, not controls
# The controls less tab, newline and carriage return, which a multi-line text keeps.
MULTI_LINE_CONTROLS: CodeRanges = (
    (0x0000, 0x0008),
    (0x000B, 0x000C),
    (0x000E, 0x001F),
    *_DELETE_AND_C1,
)
# The Unicode white space (str.isspace) that is neither a control nor a line separator: what a
# name may start or end with, and loses.
SPACE_RANGES: CodeRanges = (
    (0x0020, 0x0020),
    (0x00A0, 0x00A0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)


def _char(code: int) -> str:
    # Above U+FFFF no escape reads alike in Rust's regex (pydantic), Python's re and JavaScript:
    # \U000E0001 is not JavaScript, \u{E0001} is not Python (and JavaScript reads it only with
    # the u flag), and \uE0001 is U+E000 followed by "1" everywhere. Those characters stand in
    # the pattern as themselves, which every engine reads as one character (JavaScript with the
    # u or v flag, as JSON Schema asks; without it the pattern fails to compile).
    return f"\\u{code:04X}" if code <= 0xFFFF else chr(code)


def char_class(*groups: CodeRanges) -> str:
    """The members of a regex character class for these code point ranges."""
    return "".join(
        _char(low) if low == high else f"{_char(low)}-{_char(high)}"
        for ranges in groups
        for low, high in ranges
    )


SPACES = "".join(chr(c) for low, high in SPACE_RANGES for c in range(low, high + 1))


def strip_spaces(value: str) -> str:
    return value.strip(SPACES)


_ONE_LINE_BANNED = char_class(CONTROL_RANGES, FORMAT_RANGES, LINE_SEPARATORS)
_MULTI_LINE_BANNED = char_class(MULTI_LINE_CONTROLS, FORMAT_RANGES)
# One line of text: no control or format characters, no Unicode line or paragraph separators.
ONE_LINE_PATTERN = f"^[^{_ONE_LINE_BANNED}]*$"
# The same with at least one character that is not a space: a name.
NON_BLANK_LINE_PATTERN = (
    f"^[^{_ONE_LINE_BANNED}]*[^{_ONE_LINE_BANNED}{char_class(SPACE_RANGES)}][^{_ONE_LINE_BANNED}]*$"
)
# Free text of several lines (a comment): tab, newline and carriage return are its only controls.
MULTI_LINE_PATTERN = f"^[^{_MULTI_LINE_BANNED}]*$"
# A file or a command's output, like a pasted audit file: no controls but tab, newline and
# carriage return; format characters (a byte order mark) may be part of the file.
FILE_TEXT_PATTERN = f"^[^{char_class(MULTI_LINE_CONTROLS)}]*$"


def _explained(banned: str, rule: str) -> WrapValidator:
    """Put after a pattern of the above in ``Annotated``: pydantic's own message for it quotes
    the pattern (hundreds of characters, some invisible); this one names the character."""
    finder = re.compile(f"[{banned}]")

    def validate(value: object, handler: ValidatorFunctionWrapHandler) -> object:
        try:
            return handler(value)
        except ValidationError as exc:
            if not isinstance(value, str) or exc.errors()[0]["type"] != "string_pattern_mismatch":
                raise
            found = finder.search(value)
            if found is None:
                raise PydanticCustomError(
                    "string_blank", "needs a character other than spaces"
                ) from None
            char = found.group()
            kind = {"Cc": "control character", "Zl": "line break", "Zp": "line break"}
            raise PydanticCustomError(
                "string_character",
                "{kind} {code} at position {position}: {rule}",
                {
                    "kind": kind.get(unicodedata.category(char), "format character"),
                    "code": f"U+{ord(char):04X}",
                    "position": found.start(),
                    "rule": rule,
                },
            ) from None

    return WrapValidator(validate)


ONE_LINE_ERRORS = _explained(
    _ONE_LINE_BANNED, "one line of text, without control or format characters"
)
MULTI_LINE_ERRORS = _explained(
    _MULTI_LINE_BANNED,
    "no format characters, and no control characters but tab, newline and carriage return",
)
FILE_TEXT_ERRORS = _explained(
    char_class(MULTI_LINE_CONTROLS), "no control characters but tab, newline and carriage return"
)
OneLine = Annotated[
    str, StringConstraints(pattern=ONE_LINE_PATTERN, max_length=2000), ONE_LINE_ERRORS
]
_ONE_LINE_FINDER = re.compile(f"[{_ONE_LINE_BANNED}]")


def as_one_line(text: str, max_length: int = 2000) -> str:
    """``text`` made a valid ``OneLine``: each character the rule refuses written as ``<U+XXXX>``
    (so what a pasted file held stays visible), cut to ``max_length`` with an ellipsis."""
    shown = _ONE_LINE_FINDER.sub(lambda found: f"<U+{ord(found.group()):04X}>", text)
    return shown if len(shown) <= max_length else shown[: max_length - 1] + "…"


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class VolumeSizing(_Out):
    """How a volume's size was reached: the arithmetic, what it assumes, and the sources of
    the figures it uses."""

    arithmetic: list[OneLine]
    assumptions: list[OneLine]
    sources: list[OneLine] = Field(description="`source-id: locator` of each figure used.")
    snapshot_reserve_pct: int | None = Field(
        default=None, description="Share of the volume held for snapshots, % (ONTAP)."
    )
    autosize_max_gb: int | None = Field(
        default=None, description="Most the volume may grow to by itself (ONTAP autosize)."
    )


class Volume(_Out):
    role: Role
    name: VolumeName
    holds: list[Role]
    export: PathName = Field(description="Server-side path, e.g. `/vol/prod_data`.")
    rules: list[RuleId]
    size_gb: int | None = Field(
        default=None,
        description="Planned size in GB when platform.sizing gives what the volume's files need.",
    )
    sizing: VolumeSizing | None = None


class RedoLogPlan(_Out):
    log_file_mb: int
    groups_per_thread: int
    threads: int
    basis: OneLine


class ArchiveWatch(_Out):
    alert_pct: int
    hours_to_full_after_alert: float | None = Field(
        description="At the peak redo rate, from the alert to a full archive volume."
    )
    note: OneLine


class CloudCapacity(_Out):
    service_level: str
    needed_tib_for_throughput: float | None
    needed_tib_for_space: float | None
    provisioned_tib: float
    note: OneLine


class Capacity(_Out):
    """Sizing results beyond the volumes: online redo logs, the archive alert, cloud capacity."""

    redo_logs: RedoLogPlan | None = None
    archive: ArchiveWatch | None = None
    cloud: CloudCapacity | None = None
    not_sized: list[OneLine] = Field(
        default_factory=list, description="Volumes without a size, and what would size them."
    )


class Mount(_Out):
    role: Role
    serves: list[Role] = Field(description="File roles this mount carries (redo + control).")
    volume: VolumeName
    mount_point: PathName
    export: ExportName = Field(description="`filer:/path` as it goes into the mount table.")
    options: list[MountOption]
    rules: list[RuleId]
    option_rules: dict[MountOption, list[RuleId]] = Field(
        description="Option -> the rules that put it there."
    )


class Setting(_Out):
    target: Target
    key: SettingKey
    value: SettingValue
    action: Literal["set", "unset"] = "set"
    mechanism: Mechanism
    applies_to: list[VolumeName] = Field(
        default=[], description="Volume names for per-volume settings."
    )
    requires: Literal["none", "remount", "reboot", "instance_restart", "online"]
    scope: Scope | None = Field(default=None, description="File or interface the setting lives in.")
    rules: list[RuleId]


class Finding(_Out):
    severity: Severity
    rule: RuleId
    message: OneLine
    related_rules: list[RuleId] = Field(default=[], description="Other rules the finding is about.")


class Check(_Out):
    what: OneLine
    where: Literal["host", "filer", "oracle", "switch"]
    command: OneLine
    expect: OneLine
    rules: list[RuleId]
    stage: Literal["before", "after"] = Field(
        default="after",
        description="`after`: verifies the change (verify/ scripts); `before`: a go/no-go gate "
        "before the window (the runbook's first phase).",
    )


class SourceCitation(_Out):
    id: str
    title: str
    locator: str
    published: dt.date | None


class RuleExplanation(_Out):
    id: RuleId
    title: str
    category: str
    severity: RuleSeverity
    confidence: Confidence
    rationale: str
    sources: list[SourceCitation]
    effective_from: dt.date
    date_confidence: DateConfidence = Field(
        default="exact",
        description="How sure effective_from is: exact, earliest_evidence (the advice is "
        "older; this is the earliest dated copy cited) or inferred (see date_note).",
    )
    date_note: str | None = None
    supersedes: list[RuleId]


class SupersededRule(_Out):
    rule: RuleId
    title: str
    by: list[RuleId]
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
    planned_client: str = Field(
        default="",
        description="The client the plan uses for database files, as the figures below model "
        "it: Direct NFS over n paths, kernel NFS keeping requests in flight, or a serial "
        "kernel client.",
    )
    service_ceiling_mb_s: float | None = Field(
        default=None,
        description="Cloud NAS: the throughput the service level allows for the provisioned "
        "capacity (MB/s, 10^6 bytes).",
    )
    planned_scan_mb_s: float | None = Field(
        default=None,
        description="What one large parallel scan can reach with the planned client (MB/s): "
        "Direct NFS fills its paths, a pipelining kernel client one link, a serial kernel "
        "client the share of a link measured in Fawcett's lab. None where no source measured "
        "the client.",
    )
    nfs_overhead_8k_us: float = Field(description="Extra time of one 8 KB read over NFS.")
    overhead_vs_disk_pct: float = Field(description="That overhead against a 7 ms disk read.")
    tcp_window_bytes: int = Field(description="Bandwidth-delay product of one NIC at this RTT.")
    bottleneck: str
    improvements: list[str]
    assumptions: list[str]
    rules: list[RuleId]


class Disagreement(_Out):
    topic: OneLine
    followed: OneLine = Field(description="The position the plan follows.")
    rule: RuleId


class PlanSummary(_Out):
    """The plan at a glance: shown first on the page, in the runbook and by the CLI."""

    verdict: OneLine = Field(description="errors · warnings · mounts · volumes")
    decisions: list[OneLine] = Field(description="The decisions that matter, one line each.")
    disagreements: list[Disagreement] = Field(
        description="Vendor disagreements that affect this platform, and what the plan follows."
    )
    reversals: list[OneLine] = Field(description="Earlier advice this plan no longer follows.")


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
    rules: dict[RuleId, RuleExplanation] = Field(
        description="Every rule that produced an item, with its rationale and sources."
    )
    superseded: list[SupersededRule] = Field(
        description="Rules that would apply but were replaced by newer advice, and why."
    )
    applied_rules: list[RuleId] = Field(
        description="Every rule in effect for this platform on as_of (after supersession)."
    )
    capacity: Capacity | None = Field(
        default=None, description="Volume sizing results, when platform.sizing is given."
    )
    volume_group: VolumeGroupPlan | None = Field(
        default=None,
        description="Azure NetApp Files: the application volume group for Oracle, or why the "
        "layout does not fit it (ANF-AVG-ORACLE).",
    )
    summary: PlanSummary | None = Field(default=None, description="The plan at a glance.")


def dnfs_path_count(nic_count: int, settings: list[Setting]) -> int:
    """How many Direct NFS paths oranfstab lists: one per storage NIC, at most four, fewer where
    a rule caps them (setting ``oranfstab_max_paths``, e.g. one over NFSv4.1 to ONTAP)."""
    caps = [int(s.value) for s in settings if s.key == "oranfstab_max_paths"]
    return min(nic_count, MAX_DNFS_PATHS, *caps)

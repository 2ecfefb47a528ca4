"""What every bundle file needs: the bundle's metadata, the file header, quoting, the templates.

The renderers only read the plan. Facts about the platform that the plan does not spell out
(the filer's software family, whether a Linux release reads /etc/sysctl.d) are derived here in
one place so that every file agrees on them.
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape
from pydantic import BaseModel, ConfigDict, Field

from nasplan.domain.plan import Check, Mount, Plan, Setting
from nasplan.domain.platform import ChangeKind, Handover

TEMPLATES = Path(__file__).parent / "templates"

# Placeholders stand only where the platform has no value; they are always written
# <like-this>, and every script that would use one refuses to run until it is replaced.
PLACEHOLDER_RE = re.compile(r"<[a-z0-9-]+>")

# Where apply scripts keep what they found before changing it (rollback reads it back).
STATE_ROOT = "/var/opt/nasplan"

_DESIGN_ID = r"^[A-Za-z0-9_-]{1,64}$"
_PERMALINK = r"^https?://[A-Za-z0-9._~:/?#\[\]@!$&()*+,;=%-]{1,500}$"


class Approval(BaseModel):
    """Who approved a saved revision, and when: printed in the bundle's README only, which is
    outside the manifest, so the approved files are byte for byte those the reviewer saw."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reviewer: str = Field(max_length=200)
    approved_at: dt.datetime


class BundleMeta(BaseModel):
    """Optional facts about a saved design, printed in every file's header."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    design_id: str | None = Field(default=None, pattern=_DESIGN_ID)
    design_name: str | None = Field(default=None, max_length=200)
    revision: int | None = Field(default=None, ge=1)
    permalink: str | None = Field(default=None, pattern=_PERMALINK, max_length=510)
    approval: Approval | None = None


_BRACKETS = str.maketrans({"<": "(", ">": ")", "{": "(", "}": ")"})


def one_line(text: str, limit: int = 120) -> str:
    """Free text (a design name, a reviewer) as one printable line, safe in any comment.

    No control or format characters (newlines, NUL, bidirectional overrides), so it cannot end
    a shell, SQL or YAML comment; no braces, so it cannot open or close a Jinja expression,
    statement or comment in a template Ansible renders; no angle brackets, because
    <like-this> marks a value to fill in and nothing else may look so.
    """
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text)
    cleaned = cleaned.translate(_BRACKETS)
    cleaned = " ".join(cleaned.split())
    return cleaned[:limit]


def q(value: object) -> str:
    """Shell quoting for anything that reaches a script, validated or not."""
    return shlex.quote(str(value))


# ------------------------------------------------------------------ platform facts
FAMILY_LABELS = {
    "ontap7": "Data ONTAP 7-mode",
    "ontap_cluster": "clustered ONTAP",
    "sun7000": "Sun Storage 7000",
    "zfssa": "Oracle ZFS Storage Appliance",
    "anf": "Azure NetApp Files",
    "gcnv": "Google Cloud NetApp Volumes",
    "fsxn": "Amazon FSx for NetApp ONTAP",
    "generic": "NFS server",
}
OS_LABELS = {"solaris": "Solaris", "linux": "Linux", "aix": "AIX", "hpux": "HP-UX"}


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


def filer_family(plan: Plan) -> str:
    """The filer software family, as knowledge/catalog/filers.yaml defines it.

    NetApp releases below 9 are Data ONTAP 7-mode (the catalog accepts 6.0 to 8.2 there) and
    9.x is clustered ONTAP; the other vendors have one family each.
    """
    filer = plan.platform.filer
    if filer.vendor == "netapp":
        return "ontap_cluster" if version_tuple(filer.os_version or "0")[:1] >= (9,) else "ontap7"
    families = {
        "sun": "sun7000",
        "oracle_zfssa": "zfssa",
        "azure_anf": "anf",
        "gcp_gcnv": "gcnv",
        "aws_fsxn": "fsxn",
    }
    return families.get(filer.vendor, "generic")


def oracle_at_least(plan: Plan, release: str) -> bool:
    return version_tuple(plan.platform.oracle.version) >= version_tuple(release)


def linux_reads_sysctl_d(plan: Plan) -> bool:
    """systemd releases (RHEL/OL 7+, SLES 12+) read /etc/sysctl.d at boot; older ones
    read /etc/sysctl.conf, so nasplan adds a marked block there instead."""
    release = plan.platform.host.os_version
    number = version_tuple(release)
    if release.startswith("sles"):
        return number >= (12,)
    return number >= (7,)


@dataclass(frozen=True)
class Facts:
    plan: Plan
    meta: BundleMeta
    os: str
    family: str
    db: str
    db_lower: str
    filer_host: str
    host_name: str | None
    host_if: str | None
    filer_if: str | None
    handover: Handover  # the platform's hand-over answers (empty when none were given)
    rac: bool
    dnfs: bool
    errors: int
    state_dir: str

    @property
    def shell(self) -> str:
        # Solaris 8-10 /bin/sh is the Bourne shell; ksh is on every Solaris, AIX and HP-UX.
        return "/bin/sh" if self.os == "linux" else "/bin/ksh"

    @property
    def awk(self) -> str:
        # Solaris /usr/bin/awk is the old awk without -v; nawk is the POSIX one there.
        return "nawk" if self.os == "solaris" else "awk"

    @property
    def marker(self) -> str:
        return f"nasplan {self.db}"

    @property
    def change_kind(self) -> ChangeKind:
        # Not answered: planned as a migration, the case with a service to keep and restore.
        return self.handover.change_kind or "migration"

    def settings(self, *mechanisms: str) -> list[Setting]:
        return [s for s in self.plan.settings if s.mechanism in mechanisms]

    def checks(self, *where: str, stage: str = "after") -> list[Check]:
        """The plan's checks made at ``where``: ``after`` verify the change, ``before`` are
        the go/no-go gates before the window."""
        return [c for c in self.plan.checks if c.where in where and c.stage == stage]

    def db_mounts(self) -> list[Mount]:
        """Mounts that carry database files (what Direct NFS serves)."""
        wanted = {"data", "redo", "control", "archive"}
        return [m for m in self.plan.mounts if wanted & set(m.serves)]


def facts(plan: Plan, meta: BundleMeta) -> Facts:
    p = plan.platform
    handover = p.handover or Handover()
    first_path = handover.paths[0] if handover.paths else None
    return Facts(
        plan=plan,
        meta=meta,
        os=p.host.os,
        family=filer_family(plan),
        db=p.layout.db_name,
        db_lower=p.layout.db_name.lower(),
        filer_host=p.layout.filer_host,
        host_name=p.host.hostname,
        host_if=(first_path and first_path.host_interface) or p.host.nic_interface,
        filer_if=(first_path and first_path.filer_interface) or p.filer.interface,
        handover=handover,
        rac=p.oracle.rac,
        dnfs=p.oracle.dnfs,
        errors=sum(1 for f in plan.findings if f.severity == "error"),
        state_dir=f"{STATE_ROOT}/{p.layout.db_name}",
    )


# ------------------------------------------------------------------ headers
def platform_line(f: Facts) -> str:
    p = f.plan.platform
    oracle = "RAC" if p.oracle.rac else "single instance"
    nfs = "Direct NFS" if p.oracle.dnfs else "kernel NFS"
    filer = f"{FAMILY_LABELS[f.family]} {p.filer.os_version or ''}".strip()
    return (
        f"{OS_LABELS[f.os]} {p.host.os_version}, Oracle {p.oracle.version} {oracle} on {nfs} "
        f"v{p.oracle.nfs_version}, {filer} at {f.filer_host}, DB_NAME {f.db}"
    )


def header_lines(f: Facts, title: str, rules: Iterable[str]) -> list[str]:
    meta = f.meta
    lines = [
        f"{title}",
        "Generated by nasplan. Do not edit by hand: change the design and generate again.",
        f"Knowledge base release {f.plan.kb_version}; advice as of {f.plan.as_of.isoformat()}.",
        f"Platform: {platform_line(f)}.",
    ]
    if meta.design_id or meta.design_name:
        design = one_line(meta.design_name or "", 80)
        ident = f" ({meta.design_id})" if meta.design_id else ""
        lines.append(f"Design: {design}{ident}".replace(":  (", ": ("))
    if meta.revision is not None:
        lines.append(f"Revision: {meta.revision}")
    if meta.permalink:
        lines.append(f"Permalink: {meta.permalink}")
    rule_ids = list(dict.fromkeys(rules))
    if rule_ids:
        lines.extend(_wrap("Rules behind these lines: ", rule_ids))
    else:
        lines.append("Rules behind these lines: none (this file only restates the plan).")
    lines.append("Why each rule applies, with its sources: RUNBOOK.md and plan.json.")
    return lines


def _wrap(lead: str, items: list[str], width: int = 92) -> list[str]:
    lines: list[str] = []
    current = lead
    for index, item in enumerate(items):
        token = item + ("," if index < len(items) - 1 else ".")
        if len(current) + len(token) + 1 > width and current.strip():
            lines.append(current.rstrip())
            current = "  "
        current += token + " "
    lines.append(current.rstrip())
    return lines


def comment_block(lines: Iterable[str], prefix: str = "#") -> str:
    return "\n".join(f"{prefix} {line}".rstrip() for line in lines)


def header(f: Facts, title: str, rules: Iterable[str], prefix: str = "#") -> str:
    return comment_block(header_lines(f, title, rules), prefix)


def rules_of(items: Iterable[Setting | Mount | Check]) -> list[str]:
    return list(dict.fromkeys(r for item in items for r in item.rules))


def cite(plan: Plan, rule_id: str) -> str:
    """`RULE-ID (source locator; ...)` in one line, for comments next to a line."""
    rule = plan.rules.get(rule_id)
    if rule is None:
        return rule_id
    sources = "; ".join(f"{s.id} \u00a7{s.locator}" for s in rule.sources)
    return f"{rule_id} ({sources})"


# ------------------------------------------------------------------ templates
def _shell_env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=False,  # shell: every value goes through the q filter instead
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["q"] = q
    return env


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def code_spans(text: str) -> Markup:
    """Plain text for HTML, escaped first; `backticked` parts become <code> (the runbook's
    texts mark commands that way for Markdown)."""
    return Markup(_CODE_SPAN.sub(r"<code>\1</code>", str(escape(text))))


def _html_env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "html.j2"], default_for_string=True),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["code_spans"] = code_spans
    return env


@cache
def shell_env() -> Environment:
    return _shell_env()


@cache
def html_env() -> Environment:
    return _html_env()


def render_template(name: str, **context: object) -> str:
    env = html_env() if name.endswith(".html.j2") else shell_env()
    text = env.get_template(name).render(**context)
    return text if text.endswith("\n") else text + "\n"

"""The platform a collection shows, answer by answer, each with the evidence it rests on.

Only what the files say is answered: the OS and its release (the collector that ran, then
/etc/os-release, /etc/release, oslevel or uname), the Oracle release (the v$version banner,
else ``compatible``), whether Direct NFS is in use (v$dnfs_servers rows, or "no rows selected"),
jumbo frames and the fastest link (the interface listing). The user confirms or corrects these
before any finding is shown; what the files do not say is left as the user gave it.

Every reader takes a file's text once, line by line, with patterns of fixed words around
digit runs, so it stays linear in what was uploaded.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from nasplan.audit.collection import Collection
from nasplan.audit.detect import guess_oracle_release
from nasplan.audit.filer_signs import export_sign
from nasplan.audit.hints import release_version
from nasplan.audit.kinds import FILE_KINDS
from nasplan.audit.parsers import MAX_LINE_CHARS
from nasplan.audit.sqlplus import parse_dnfs_servers, parse_show_parameter
from nasplan.knowledge.base import KnowledgeBase


class InferredAnswer(BaseModel):
    """One platform answer the collection shows."""

    field: str = Field(description="The platform field, as a dotted path (host.os_version).")
    value: str | int | bool
    label: str = Field(description="The answer in words.")
    evidence: str = Field(description="The file and the line it rests on.")


_OS_RELEASE = re.compile(r'(?P<key>ID|VERSION_ID)="?(?P<value>[A-Za-z0-9._-]{1,40})"?')
_DISTROS = {"rhel": "rhel", "ol": "ol", "sles": "sles", "centos": "rhel", "rocky": "rhel"}
_SOLARIS = re.compile(
    r"Solaris (?P<major>\d{1,2})(?:\.(?P<minor>\d{1,2}))?(?: (?P<update>\d{1,2}/\d{2}))?"
)
_OSLEVEL = re.compile(r"(?P<major>\d)(?P<minor>\d)00-\d{2}")
_HPUX = re.compile(r"B\.(?P<release>11\.\d{2})")
_BANNER = re.compile(r"(?:Release|Version) (?P<version>\d{1,2}(?:\.\d{1,3}){1,4})")
_MTU = re.compile(r"\bmtu (?P<mtu>\d{3,5})\b", re.IGNORECASE)
_SPEED = re.compile(r"speed_mbps=(?P<speed>\d{1,7})\b")


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines()[:2000] if len(line) <= MAX_LINE_CHARS]


def _first(pattern: re.Pattern[str], text: str) -> tuple[re.Match[str], str] | None:
    for line in _lines(text):
        match = pattern.search(line)
        if match is not None:
            return match, line.strip()
    return None


def _os_answers(kb: KnowledgeBase, collection: Collection) -> list[InferredAnswer]:
    os_name = collection.os
    if os_name not in kb.os:
        return []
    entry = kb.os[os_name]
    answers = [
        InferredAnswer(
            field="host.os",
            value=os_name,
            label=entry.label,
            evidence=f"MANIFEST.txt: the {entry.label} collector wrote this collection",
        )
    ]
    release = _release(collection, os_name)
    if release is not None:
        release_id, evidence = release
        found = entry.release(release_id)
        if found is not None:
            answers.append(
                InferredAnswer(
                    field="host.os_version", value=found.id, label=found.label, evidence=evidence
                )
            )
    return answers


def _after_10u8(update: str | None) -> bool:
    """Whether a Solaris 10 update, named by its month/year (``8/11``), is 10/09 (update 8,
    the catalog's 10u8) or a later one: updates came out in that order, so a later date is a
    later update, to which the rules from update 8 on apply."""
    if update is None:
        return False
    month, year = (int(part) for part in update.split("/"))
    return (year, month) >= (9, 10)


def _release(collection: Collection, os_name: str) -> tuple[str, str] | None:
    if os_name == "linux":
        text = collection.text("os_release.txt") or ""
        values = {}
        for line in _lines(text):
            match = _OS_RELEASE.fullmatch(line.strip())
            if match is not None:
                values[match["key"]] = match["value"]
        distro = _DISTROS.get(values.get("ID", ""))
        major = values.get("VERSION_ID", "").split(".", 1)[0]
        if distro and major.isdigit():
            shown = f"ID={values['ID']}, VERSION_ID={values['VERSION_ID']}"
            return f"{distro}{major}", f"os_release.txt: {shown}"
        return None
    if os_name == "solaris":
        found = _first(_SOLARIS, collection.text("release.txt") or "")
        if found is None:
            return None
        match, line = found
        major = match["major"]
        release = "10u8" if major == "10" and _after_10u8(match["update"]) else major
        return release, f"release.txt: {line}"
    if os_name == "aix":
        found = _first(_OSLEVEL, collection.text("oslevel.txt") or "")
        if found is None:
            return None
        match, line = found
        return f"{match['major']}.{match['minor']}", f"oslevel.txt: {line}"
    found = _first(_HPUX, collection.text("uname.txt") or "")
    if found is None:
        return None
    match, line = found
    return match["release"], f"uname.txt: {line}"


def _oracle_answers(kb: KnowledgeBase, collection: Collection) -> list[InferredAnswer]:
    answers: list[InferredAnswer] = []
    found = _first(_BANNER, collection.text("oracle_version.txt") or "")
    if found is not None:
        match, line = found
        answers.append(
            InferredAnswer(
                field="oracle.version",
                value=match["version"],
                label=f"Oracle {match['version']}",
                evidence=f"oracle_version.txt: {line[:160]}",
            )
        )
    else:
        params = parse_show_parameter(collection.text("show_parameter.txt") or "").items
        release_id = guess_oracle_release(params, kb.oracle)
        if release_id is not None:
            release = next(r for r in kb.oracle.releases if r.id == release_id)
            compatible = next(p.value for p in params if p.name.lower() == "compatible")
            compatible = compatible.strip().strip("'\"")
            answers.append(
                InferredAnswer(
                    field="oracle.version",
                    value=release_version(release, compatible, kb.oracle.examples),
                    label=f"{release.label} or later (compatible is a lower bound)",
                    evidence=f"show_parameter.txt: compatible = {compatible[:40]}",
                )
            )
    servers = collection.text("dnfs_servers.txt")
    if servers is not None:
        parsed = parse_dnfs_servers(servers)
        if parsed.items:
            answers.append(
                InferredAnswer(
                    field="oracle.dnfs",
                    value=True,
                    label="Direct NFS",
                    evidence=f"dnfs_servers.txt: {len(parsed.items)} row(s) of v$dnfs_servers",
                )
            )
        elif parsed.says_empty:
            answers.append(
                InferredAnswer(
                    field="oracle.dnfs",
                    value=False,
                    label="kernel NFS",
                    evidence="dnfs_servers.txt: v$dnfs_servers says no rows selected",
                )
            )
    return answers


def _network_answers(collection: Collection) -> list[InferredAnswer]:
    text = collection.text("nics.txt")
    if text is None:
        return []
    answers: list[InferredAnswer] = []
    jumbo = [
        line.strip()[:120]
        for line in _lines(text)
        if (m := _MTU.search(line)) and int(m["mtu"]) >= 9000 and "loopback" not in line.lower()
    ]
    answers.append(
        InferredAnswer(
            field="network.jumbo_frames",
            value=bool(jumbo),
            label="jumbo frames" if jumbo else "standard frames (MTU 1500)",
            evidence=f"nics.txt: {jumbo[0]}" if jumbo else "nics.txt: no interface has MTU 9000",
        )
    )
    speeds = [int(m["speed"]) for line in _lines(text) if (m := _SPEED.search(line))]
    fastest = max((s for s in speeds if s < 1_000_000), default=0)
    if fastest >= 1000:
        answers.append(
            InferredAnswer(
                field="network.nic_gbps",
                value=fastest // 1000,
                label=f"{fastest // 1000} Gb/s",
                evidence=f"nics.txt: the fastest interface runs at {fastest} Mb/s",
            )
        )
    return answers


def _filer_answers(kb: KnowledgeBase, collection: Collection) -> list[InferredAnswer]:
    """The filer family the mounted export paths show (audit/filer_signs.py), with the newest
    release of it the catalog knows: the host cannot show the filer's release."""
    devices: list[str] = []
    names: list[str] = []
    for item in collection.files:
        spec = next((spec for kind, spec in FILE_KINDS.items() if kind == item.kind), None)
        if item.status != "read" or spec is None or spec.reads != "mounts":
            continue
        found = [entry.device for entry in spec.parse(item.text).items]
        if found:
            devices += found
            names.append(item.name)
    sign = export_sign(kb, devices)
    if sign is None:
        return []
    evidence = f"{', '.join(names)}: {sign.evidence}"
    answers = [
        InferredAnswer(
            field="filer.vendor", value=sign.vendor, label=sign.vendor_label, evidence=evidence
        )
    ]
    if sign.release is not None:
        answers.append(
            InferredAnswer(
                field="filer.os_version",
                value=sign.release,
                label=f"{sign.family_label} {sign.release} (the newest the catalog knows: the "
                "host does not show the filer's release, correct it)",
                evidence=evidence,
            )
        )
    return answers


def infer_platform(kb: KnowledgeBase, collection: Collection) -> list[InferredAnswer]:
    """What the collection shows of the platform, each answer with its evidence."""
    return [
        *_os_answers(kb, collection),
        *_oracle_answers(kb, collection),
        *_network_answers(collection),
        *_filer_answers(kb, collection),
    ]


class CollectedFileStatus(BaseModel):
    file: str
    what: str
    status: str = Field(description="read, or why it could not be read on the host.")


class CollectionReport(BaseModel):
    """What a collection holds: the pastes to audit, the platform answers it shows with their
    evidence (to confirm before the audit runs), and what the collector could not read."""

    collector_os: str
    host: str | None
    collected_at: str | None
    collected_by: str | None
    kb_version: str | None = Field(
        description="The knowledge base release the collector came from."
    )
    pastes: list[dict[str, str]] = Field(
        description="Name, kind and text of each file to audit: send them as the audit's "
        "`pastes`, with the platform once its answers are confirmed."
    )
    answers: list[InferredAnswer]
    files: list[CollectedFileStatus] = Field(description="Every file of the collection.")
    left_out: list[str] = Field(
        default_factory=list, description="Files read but not audited, and why."
    )


def collection_report(kb: KnowledgeBase, collection: Collection) -> CollectionReport:
    pastes: list[dict[str, str]] = []
    left_out: list[str] = []
    runtime_mounts = None
    for item in collection.files:
        if item.kind == "-" or item.status != "read":
            continue
        if not item.text.strip():
            left_out.append(f"{item.name}: empty")
            continue
        if item.kind == "mount":
            # /proc/mounts and nfsstat -m show the same mounts: audit them once.
            if runtime_mounts is not None:
                left_out.append(f"{item.name}: the same mounts as {runtime_mounts}")
                continue
            runtime_mounts = item.name
        pastes.append({"name": item.name, "kind": item.kind, "text": item.text})
    left_out += [f"{name}: not described in MANIFEST.txt" for name in collection.unused]
    return CollectionReport(
        collector_os=collection.os or "",
        host=collection.host,
        collected_at=collection.collected_at,
        collected_by=collection.user,
        kb_version=collection.kb_version,
        pastes=pastes,
        answers=infer_platform(kb, collection),
        files=[
            CollectedFileStatus(file=f.name, what=f.what, status=f.status) for f in collection.files
        ],
        left_out=left_out,
    )

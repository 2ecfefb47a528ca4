"""How a revision's plan is stored: compressed, with each rule explanation kept once.

A saved plan is about 45 KB of JSON, and about 60% of it is the explanations of the rules it
cites: the same text for a rule in every design planned with the same knowledge base. The plan is
stored in parts:

- the plan with ``"rules":{}`` (zlib, about 4 KB) on the revision;
- each rule's explanation (zlib) in ``plan_parts`` under a digest of its text, shared by every
  revision that cites that rule;
- a manifest, the list of those digests in the plan's order (zlib), in ``plan_parts`` under the
  SHA-256 of its text; the revision's ``rules_digest`` names it.

Reading splices the parts back: the same bytes as were saved. Revisions packed before the
manifests (migration 0005) name one part holding all their explanations; a part's first
character tells the two kinds apart (``[`` a manifest, ``{`` the explanations themselves).
"""

from __future__ import annotations

import hashlib
import json
import threading
import zlib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from cachetools import LRUCache
from sqlalchemy import Executable, insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from nasplan.data.models import PlanPartRow

_EMPTY = '"rules":{}'
_LEVEL = 9
# An explanation's digest: 128 bits of SHA-256, as hex (ample for content addressing, and it
# keeps a manifest of forty rules under a kilobyte compressed).
_ENTRY_DIGEST_CHARS = 32

PartLoader = Callable[[Collection[str]], Mapping[str, bytes]]


@dataclass(frozen=True)
class PackedPlan:
    plan_z: bytes
    rules_digest: str


def split(plan_json: str, short_json: str) -> str:
    """The explanations text of ``plan_json``, given the same plan dumped with ``rules`` empty:
    the one place where the two differ."""
    at = short_json.index(_EMPTY) + len('"rules":')
    tail = short_json[at + 2 :]
    if not (plan_json.startswith(short_json[:at]) and plan_json.endswith(tail)):
        raise ValueError("the short plan is not the plan with its rules left out")
    return plan_json[at : len(plan_json) - len(tail)]


def splice(short_json: str, rules_json: str) -> str:
    at = short_json.index(_EMPTY) + len('"rules":')
    return short_json[:at] + rules_json + short_json[at + 2 :]


def entries(rules_json: str) -> list[str] | None:
    """The members of a compact JSON object as exact substrings (``"ID":{…}``), so that
    ``"{" + ",".join(members) + "}"`` is ``rules_json``; None if it is not written that way."""
    decoder = json.JSONDecoder()
    if not (rules_json.startswith("{") and rules_json.endswith("}")) or rules_json == "{}":
        return None
    members: list[str] = []
    at = 1
    try:
        while True:
            start = at
            key, at = decoder.raw_decode(rules_json, at)
            if not isinstance(key, str) or rules_json[at] != ":":
                return None
            _, at = decoder.raw_decode(rules_json, at + 1)
            members.append(rules_json[start:at])
            if rules_json[at] == "}":
                break
            if rules_json[at] != ",":
                return None
            at += 1
    except (ValueError, IndexError):
        return None
    return members if at == len(rules_json) - 1 else None


def _entry_digest(member: str) -> str:
    return hashlib.sha256(member.encode()).hexdigest()[:_ENTRY_DIGEST_CHARS]


def _store(session: Session, parts: Mapping[str, str]) -> None:
    """Insert parts that are not stored yet; a part already there (saved by an earlier design,
    or by a save racing this one) is left as it is."""
    values = [
        {"digest": digest, "body": zlib.compress(text.encode(), _LEVEL)}
        for digest, text in parts.items()
    ]
    dialect = session.get_bind().dialect.name
    statement: Executable
    if dialect == "postgresql":
        statement = postgresql.insert(PlanPartRow).values(values).on_conflict_do_nothing()
    elif dialect == "sqlite":
        statement = sqlite.insert(PlanPartRow).values(values).on_conflict_do_nothing()
    else:  # pragma: no cover - the two databases nasplan supports
        statement = insert(PlanPartRow).values(values)
    session.execute(statement)


def pack(session: Session, plan_json: str, short_json: str) -> PackedPlan:
    """Store the explanations (each once per content) and return the revision's columns."""
    rules_json = split(plan_json, short_json)
    if splice(short_json, rules_json) != plan_json:
        raise ValueError("the plan would not read back byte for byte")
    members = entries(rules_json)
    if members is None:
        # Nothing to share (no rules cited): the explanations are stored whole.
        digest = hashlib.sha256(rules_json.encode()).hexdigest()
        _store(session, {digest: rules_json})
    else:
        by_digest = {_entry_digest(member): member for member in members}
        manifest = json.dumps([_entry_digest(member) for member in members], separators=(",", ":"))
        digest = hashlib.sha256(manifest.encode()).hexdigest()
        _store(session, {**by_digest, digest: manifest})
    return PackedPlan(zlib.compress(short_json.encode(), _LEVEL), digest)


def _text(body: bytes) -> str:
    return zlib.decompress(body).decode()


def explanations(rules_digest: str, load: PartLoader) -> str:
    """The explanations text a revision names, from a manifest or from one whole part."""
    stored = load([rules_digest]).get(rules_digest)
    if stored is None:
        raise LookupError(f"plan part {rules_digest} is missing")
    text = _text(stored)
    if not text.startswith("["):
        return text
    digests: list[str] = json.loads(text)
    bodies = load(set(digests))
    missing = sorted(set(digests) - bodies.keys())
    if missing:
        raise LookupError(f"plan parts {', '.join(missing)} are missing")
    return "{" + ",".join(_text(bodies[d]) for d in digests) + "}"


# Saved plans never change: the text of those read most recently is kept, keyed by the stored
# bytes themselves (not a row id, which two databases in one process may share).
_UNPACKED: LRUCache[tuple[bytes, str], str] = LRUCache(maxsize=256)
_UNPACKED_LOCK = threading.Lock()  # designs are read on the thread pool


def unpack_cached(plan_z: bytes, rules_digest: str, load: PartLoader) -> str:
    """The plan text; ``load`` is asked for parts (a query) only when it is not cached."""
    key = (plan_z, rules_digest)
    with _UNPACKED_LOCK:
        text = _UNPACKED.get(key)
    if text is None:
        text = splice(_text(plan_z), explanations(rules_digest, load))
        with _UNPACKED_LOCK:
            _UNPACKED[key] = text
    return text

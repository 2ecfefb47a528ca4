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

Reading (and the splitting both sides share) is in nasplan.data.plan_codec.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Executable, insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from nasplan.data.models import PlanPartRow
from nasplan.data.plan_codec import entries, splice, split

_LEVEL = 9
# An explanation's digest: 128 bits of SHA-256, as hex (ample for content addressing, and it
# keeps a manifest of forty rules under a kilobyte compressed).
_ENTRY_DIGEST_CHARS = 32


@dataclass(frozen=True)
class PackedPlan:
    plan_z: bytes
    rules_digest: str


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

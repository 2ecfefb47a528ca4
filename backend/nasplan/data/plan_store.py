"""How a revision's plan is stored: compressed, with its rule explanations kept once.

A saved plan is about 45 KB of JSON, and about 60% of it is the explanations of the rules it
cites, the same text in every design planned with the same rules and knowledge base. The plan
is stored in two parts: the plan with ``"rules":{}`` (zlib, about 5 KB) on the revision, and the
explanations (zlib) in ``plan_parts`` under the SHA-256 of their text, shared by every revision
that cites the same ones. Reading splices the two back: the same bytes as were saved.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import LRUCache
from sqlalchemy import Executable, insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from nasplan.data.models import PlanPartRow

_EMPTY = '"rules":{}'
_LEVEL = 6


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


def pack(session: Session, plan_json: str, short_json: str) -> PackedPlan:
    """Store the explanations part (once per content) and return the revision's columns."""
    rules_json = split(plan_json, short_json)
    if splice(short_json, rules_json) != plan_json:
        raise ValueError("the plan would not read back byte for byte")
    digest = hashlib.sha256(rules_json.encode()).hexdigest()
    values = {"digest": digest, "body": zlib.compress(rules_json.encode(), _LEVEL)}
    dialect = session.get_bind().dialect.name
    # Two saves citing the same rules may race: the second insert does nothing.
    statement: Executable
    if dialect == "postgresql":
        statement = postgresql.insert(PlanPartRow).values(values).on_conflict_do_nothing()
    elif dialect == "sqlite":
        statement = sqlite.insert(PlanPartRow).values(values).on_conflict_do_nothing()
    else:  # pragma: no cover - the two databases nasplan supports
        statement = insert(PlanPartRow).values(values)
    session.execute(statement)
    return PackedPlan(zlib.compress(short_json.encode(), _LEVEL), digest)


def unpack(plan_z: bytes, rules_body: bytes) -> str:
    return splice(zlib.decompress(plan_z).decode(), zlib.decompress(rules_body).decode())


# Saved plans never change: the text of those read most recently is kept, keyed by the stored
# bytes themselves (not a row id, which two databases in one process may share).
_UNPACKED: LRUCache[tuple[bytes, str], str] = LRUCache(maxsize=256)


def unpack_cached(plan_z: bytes, rules_digest: str, rules_body: Callable[[], bytes]) -> str:
    """The plan text; ``rules_body`` is asked for (a query) only when it is not cached."""
    key = (plan_z, rules_digest)
    text = _UNPACKED.get(key)
    if text is None:
        text = _UNPACKED[key] = unpack(plan_z, rules_body())
    return text

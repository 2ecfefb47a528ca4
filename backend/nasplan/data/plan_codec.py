"""Reading a packed plan back, and the text operations that packing and reading share.

The format is described in nasplan.data.plan_store, which writes the parts. Nothing here touches
a table: nasplan.data.models reads a revision's plan through this module, and plan_store (which
needs the models to store parts) builds on it, so neither of the two imports the other.
"""

from __future__ import annotations

import json
import threading
import zlib
from collections.abc import Callable, Collection, Mapping

from cachetools import LRUCache

_EMPTY = '"rules":{}'

PartLoader = Callable[[Collection[str]], Mapping[str, bytes]]


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

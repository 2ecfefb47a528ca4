"""Build what planning needs from a knowledge base before the first request asks for it.

Compiling the rules' predicates and the rule index is a burst of small allocations over a heap
that already holds every rule; with the cyclic garbage collector running, a 100-fold knowledge base
spends most of that time in collections that find nothing. The collector is paused meanwhile,
and a server freezes what it loaded (``gc.freeze``) so later collections skip it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from nasplan.engine.evaluate import compiled_predicates
from nasplan.engine.index import rule_index
from nasplan.knowledge.base import KnowledgeBase


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def warm(kb: KnowledgeBase) -> None:
    with collector_paused():
        compiled_predicates(kb)
        rule_index(kb)

"""Request-scoped dependencies."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from nasplan.knowledge.base import KnowledgeBase


def get_kb(request: Request) -> KnowledgeBase:
    kb: KnowledgeBase = request.app.state.kb
    return kb


KbDep = Annotated[KnowledgeBase, Depends(get_kb)]

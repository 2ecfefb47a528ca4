"""The error answers the designs routes document (nasplan.api.routes.designs and
design_records share them)."""

from __future__ import annotations

from typing import Any

Responses = dict[int | str, dict[str, Any]]
NOT_FOUND: Responses = {404: {"description": "No design (or revision) with this id"}}
TOKEN: Responses = {403: {"description": "Missing or wrong token; nothing was written"}}
INPUT: Responses = {
    422: {"description": "Bad input; `detail` names the field"},
    413: {"description": "The body is larger than the limit"},
    429: {"description": "Too many writes from this address; `Retry-After` says when to retry"},
}

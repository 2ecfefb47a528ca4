"""Rate limits per client address, in named buckets of requests.

- ``writes``: writes to /api/v1/designs (saving designs, revisions, reviews, imports);
- ``compute``: the requests that plan, audit or render on the server (POST /api/v1/plans and
  everything under it: compare, what-if, bundle, runbook; POST /api/v1/audits and
  /api/v1/designs/{id}/audits), one count for all of them.

A request in several buckets (a design's audit is a write too) must be within all of them; it
is counted in each only when it is. Over a limit the answer is 429 with ``Retry-After`` and a
detail naming the limit.

The counting is the ``limits`` library's moving window; its storage is in memory by default
(one count per server process) or shared, e.g. ``redis://host:6379`` when several workers serve
the same site. The client address is the connection's peer, or the address a trusted proxy
forwarded (``NASPLAN_TRUSTED_PROXIES``; uvicorn rewrites ``scope["client"]``).
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

#: Whether a request (method, path) is counted in a bucket.
Matcher = Callable[[str, str], bool]

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Bucket:
    name: str
    """Key of the counts in the storage."""
    what: str
    """What is counted, for the 429 detail: "too many <what> from this address"."""
    items: tuple[RateLimitItem, ...]
    matches: Matcher


def bucket(name: str, what: str, limit: str, matches: Matcher) -> Bucket | None:
    """A bucket for ``limit`` in the limits library's notation (e.g. ``30/minute;300/day``);
    None when ``limit`` is empty (no limit)."""
    if not limit.strip():
        return None
    return Bucket(name, what, tuple(parse_many(limit)), matches)


def writes_under(prefix: str) -> Matcher:
    return lambda method, path: method in _WRITES and path.startswith(prefix)


def posts_to(*patterns: str) -> Matcher:
    """POSTs to paths matching any of the regular expressions (whole path)."""
    compiled = re.compile("|".join(f"(?:{p})" for p in patterns))
    return lambda method, path: method == "POST" and compiled.fullmatch(path) is not None


def api_buckets(prefix: str, writes: str, compute: str) -> list[Bucket]:
    """The API's buckets (see the module's docstring) for the API under ``prefix``."""
    api = re.escape(prefix)
    candidates = [
        bucket("writes", "writes", writes, writes_under(f"{prefix}/designs")),
        bucket(
            "compute",
            "plans, audits and bundles",
            compute,
            posts_to(rf"{api}/plans(?:/.*)?", rf"{api}/audits/?", rf"{api}/designs/[^/]+/audits/?"),
        ),
    ]
    return [b for b in candidates if b is not None]


class RateLimit:
    def __init__(self, app: ASGIApp, buckets: Sequence[Bucket], storage_uri: str) -> None:
        self.app = app
        self.buckets = tuple(buckets)
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.buckets:
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        matching = [b for b in self.buckets if b.matches(method, path)]
        if matching:
            client = scope.get("client")
            key = client[0] if client else "unknown"
            # Test every limit before counting, so that a request refused by one bucket does not
            # use up another's allowance; hit() still refuses if a concurrent request (another
            # worker on shared storage) took the last place meanwhile.
            for current in (self.limiter.test, self.limiter.hit):
                for b in matching:
                    for item in b.items:
                        if not current(item, b.name, key):
                            await self._too_many(send, b, item, key)
                            return
        await self.app(scope, receive, send)

    async def _too_many(self, send: Send, b: Bucket, item: RateLimitItem, key: str) -> None:
        reset = self.limiter.get_window_stats(item, b.name, key).reset_time
        retry_after = max(1, math.ceil(reset - time.time()))
        detail = f"too many {b.what} from this address (limit {item}); try again in {retry_after} s"
        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(retry_after).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

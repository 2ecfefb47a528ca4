"""Rate limits on writes (saving designs, revisions, reviews, imports), per client address.

The counting is the ``limits`` library's moving window; its storage is in memory by default
(one count per server process) or shared, e.g. ``redis://host:6379`` when several workers serve
the same site. The client address is the connection's peer: behind a reverse proxy, run uvicorn
with ``--proxy-headers --forwarded-allow-ips=<proxy>`` so that it is the real client's.
"""

from __future__ import annotations

import json
import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

_WRITES = {"POST", "PUT", "PATCH", "DELETE"}


class WriteRateLimit:
    def __init__(self, app: ASGIApp, limit: str, storage_uri: str, prefix: str) -> None:
        """``limit`` is in the limits library's notation, e.g. ``30/minute;300/day``; an empty
        string switches the limit off."""
        self.app = app
        self.prefix = prefix
        self.items: list[RateLimitItem] = parse_many(limit) if limit.strip() else []
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            not self.items
            or scope["type"] != "http"
            or scope["method"] not in _WRITES
            or not scope["path"].startswith(self.prefix)
        ):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = client[0] if client else "unknown"
        for item in self.items:
            if not self.limiter.hit(item, "writes", key):
                reset = self.limiter.get_window_stats(item, "writes", key).reset_time
                await _too_many(send, item, max(1, math.ceil(reset - time.time())))
                return
        await self.app(scope, receive, send)


async def _too_many(send: Send, item: RateLimitItem, retry_after: int) -> None:
    body = json.dumps(
        {"detail": f"too many writes from this address (limit {item}); try again later"}
    ).encode()
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

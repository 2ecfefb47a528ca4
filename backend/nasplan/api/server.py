"""uvicorn's h11 HTTP/1.1 protocol with a deadline and a size limit for each request head.

uvicorn closes a connection that sends nothing for ``timeout_keep_alive`` after an answer, but
any byte cancels that timer, and nothing bounds the time a request head takes to arrive: one
header byte every few seconds keeps a connection (and a place under ``limit_concurrency``)
for good. Here a timer runs from the moment the server waits for a head (the connection is
made, or the previous exchange is complete) until the head is complete, however slowly bytes
trickle in meanwhile. When it fires, a client that sent part of a head gets 408 and the
connection is closed; an idle one is closed quietly, as keep-alive would.

A head is at most ``h11_max_incomplete_event_size`` bytes (431 beyond). h11 applies that limit
only to a head that is still incomplete after a read, so one sent whole in a single read of up
to 256 KiB would pass; it is checked here before h11 sees the bytes.
"""

from __future__ import annotations

import asyncio
import functools
import re
from typing import Any, cast

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

#: The blank line that ends a head, as h11 recognises it.
_HEAD_END = re.compile(rb"\n\r?\n")


def _closing_answer(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 %s\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: %d\r\n"
        b"connection: close\r\n\r\n%s" % (status, len(text), text)
    )


_TIMED_OUT = _closing_answer(b"408 Request Timeout", b"Request headers not received in time\n")
_TOO_LARGE = _closing_answer(b"431 Request Header Fields Too Large", b"Request headers too large\n")


class HeaderTimeoutProtocol(H11Protocol):
    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        header_timeout_s: float,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout_s = header_timeout_s
        self.header_deadline: asyncio.TimerHandle | None = None
        self.max_head_bytes = config.h11_max_incomplete_event_size or (
            DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
        )

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and self._head_too_large(data):
            self.logger.warning("Request headers too large; connection closed.")
            self._close_with(_TOO_LARGE)
            return
        super().data_received(data)
        self._watch_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def _watch_head(self) -> None:
        """Arm the deadline when the server starts waiting for a head (h11: the client's side
        IDLE); cancel it once a head is complete (any other state)."""
        waiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if waiting and self.header_deadline is None:
            self.header_deadline = self.loop.call_later(self.header_timeout_s, self._timed_out)
        elif not waiting:
            self._cancel_deadline()

    def _cancel_deadline(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
            self.header_deadline = None

    def _head_too_large(self, data: bytes) -> bool:
        buffered, _ = self.conn.trailing_data
        if len(buffered) + len(data) <= self.max_head_bytes:
            return False
        # Empty lines before a request line are allowed (and skipped by h11).
        head = (buffered + data).lstrip(b"\r\n")
        return len(head) > self.max_head_bytes and (
            _HEAD_END.search(head[: self.max_head_bytes + 3]) is None
        )

    def _timed_out(self) -> None:
        self.header_deadline = None
        if self.transport.is_closing():
            return
        received, _ = self.conn.trailing_data
        if received:
            self.logger.warning("Request headers not received in time; connection closed.")
            self._close_with(_TIMED_OUT)
        else:
            self.transport.close()

    def _close_with(self, answer: bytes) -> None:
        self._cancel_deadline()
        self.transport.write(answer)
        self.transport.close()


def header_timeout_protocol(header_timeout_s: float) -> type[asyncio.Protocol]:
    """The protocol for uvicorn's ``http`` option.

    A partial, not a subclass made here: ``--workers`` pickles uvicorn's Config (this option
    with it) for each worker process, and a partial of a module-level class pickles by
    reference. uvicorn only calls it, with the keyword arguments a protocol class takes.
    """
    factory = functools.partial(HeaderTimeoutProtocol, header_timeout_s=header_timeout_s)
    return cast("type[asyncio.Protocol]", factory)

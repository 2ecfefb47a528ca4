"""50 clients revise the same base revision at once: exactly one wins (PostgreSQL)."""

from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx2
import uvicorn

from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_fifty_concurrent_revisions(kb: KnowledgeBase, postgres_url: str) -> None:
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(Settings(DATABASE_URL=postgres_url), kb=kb),
            host="127.0.0.1",
            port=port,
            log_level="warning",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.1)
        created = httpx2.post(
            f"{base}/designs", json={"name": "race", "platform": EXAMPLE_PLATFORM}, timeout=30
        ).json()
        url = f"{base}/designs/{created['id']}/revisions"
        headers = {"X-Edit-Token": created["edit_token"]}
        start = threading.Barrier(50)

        def revise(_: int) -> int:
            with httpx2.Client(timeout=60) as client:
                start.wait()
                response = client.post(
                    url, json={"platform": EXAMPLE_PLATFORM, "base_revision": 1}, headers=headers
                )
                return response.status_code

        with ThreadPoolExecutor(max_workers=50) as pool:
            statuses = list(pool.map(revise, range(50)))
        assert statuses.count(201) == 1, statuses
        assert statuses.count(409) == 49, statuses
        design = httpx2.get(f"{base}/designs/{created['id']}", timeout=30).json()
        assert [r["number"] for r in design["revisions"]] == [1, 2]
    finally:
        server.should_exit = True
        thread.join(timeout=10)

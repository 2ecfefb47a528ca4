"""A buffer set above its ceiling is refused (issue 26): on Solaris 11, ipadm takes send_buf
and recv_buf only up to the current max_buf (Oracle Solaris 11.2 Tunable Parameters Reference
Manual, send_buf and recv_buf ranges), so a script that sets max_buf to 1048576 and then the
buffers to 1056768 (Oracle's 18c Solaris guide, corpus case unx-sol11-ora18c-dnfs-ipadm-2019)
leaves the buffers where they were. Raising max_buf first, as SOL11-TCP-BUFFERS-IPADM orders
them, is what works."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import preset_platform


def _findings(client: TestClient, kb: KnowledgeBase, text: str) -> list[dict[str, Any]]:
    platform = preset_platform(kb, "fawcett-lab", {"host": {"os_version": "11"}})
    body = {"platform": platform.model_dump(mode="json"), "files": {"ndd": text}}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["findings"]
    return found


def test_buffers_above_the_max_buf_set_before_them_are_refused(
    client: TestClient, kb: KnowledgeBase
) -> None:
    text = (
        "# ipadm set-prop -p max_buf=1048576 tcp\n"
        "# ipadm set-prop -p send_buf=1056768 tcp\n"
        "# ipadm set-prop -p recv_buf=1056768 tcp\n"
    )
    refused = [f for f in _findings(client, kb, text) if "max_buf" in f["message"]]
    assert [(f["line"], f["about"], f["severity"]) for f in refused] == [
        (2, ["send_buf"], "warning"),
        (3, ["recv_buf"], "warning"),
    ]
    assert all(f["rule"] == "SOL11-TCP-BUFFERS-IPADM" for f in refused)
    assert "1048576" in refused[0]["message"] and "line 1" in refused[0]["message"]


def test_buffers_within_max_buf_or_after_it_is_raised_are_not(
    client: TestClient, kb: KnowledgeBase
) -> None:
    raised_first = (
        "ipadm set-prop -p max_buf=2097152 tcp\n"
        "ipadm set-prop -p send_buf=1056768 tcp\n"
        "ipadm set-prop -p recv_buf=400000 tcp\n"
    )
    assert not [f for f in _findings(client, kb, raised_first) if "max_buf" in f["message"]]
    # Without max_buf in the paste, its default (1048576) is the ceiling.
    alone = "ipadm set-prop -p send_buf=2097152 tcp\n"
    [refused] = [f for f in _findings(client, kb, alone) if "max_buf" in f["message"]]
    assert "default" in refused["message"]

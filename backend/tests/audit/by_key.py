"""An audit's findings grouped by what each is about (the option or setting key)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def findings_by_key(client: TestClient, body: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    found: dict[str, list[dict[str, Any]]] = {}
    for finding in response.json()["findings"]:
        for key in finding["about"]:
            found.setdefault(key, []).append(finding)
    return found

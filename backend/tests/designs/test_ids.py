from __future__ import annotations

import base64

from fastapi.testclient import TestClient

from nasplan.domain.platform import EXAMPLE_PLATFORM


def _neighbours(design_id: str) -> list[str]:
    last = design_id[-1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    flipped = [design_id[:-1] + ch for ch in alphabet if ch != last][:10]
    first = [ch + design_id[1:] for ch in alphabet[:5] if ch != design_id[0]]
    return flipped + first + [design_id.upper(), design_id.lower(), design_id[:-1]]


def test_ids_are_long_random_and_unguessable(designs_client: TestClient) -> None:
    ids = [
        designs_client.post(
            "/api/v1/designs", json={"name": f"d{i}", "platform": EXAMPLE_PLATFORM}
        ).json()["id"]
        for i in range(3)
    ]
    assert len(set(ids)) == 3
    for design_id in ids:
        raw = base64.urlsafe_b64decode(design_id + "=" * (-len(design_id) % 4))
        assert len(raw) * 8 >= 96
        assert all(ch.isalnum() or ch in "-_" for ch in design_id)
        for guess in _neighbours(design_id):
            if guess in ids:
                continue
            assert designs_client.get(f"/api/v1/designs/{guess}").status_code == 404

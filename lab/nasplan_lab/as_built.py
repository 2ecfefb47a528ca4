"""Record a host's verify report through nasplan's own as-built API, as a team would."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from nasplan.main import create_app
from nasplan.settings import Settings


def record_reports(name: str, platform: dict[str, Any], reports: dict[str, Path]) -> None:
    """Save the platform as a design (SQLite in a temporary directory), then POST each report
    to /api/v1/designs/{id}/as-built; each answer goes beside its report as JSON."""
    with tempfile.TemporaryDirectory(prefix="nasplan-lab-db-") as directory:
        settings = Settings(
            DATABASE_URL=f"sqlite:///{Path(directory) / 'nasplan.db'}",
            NASPLAN_RATE_LIMIT_COMPUTE="",
        )
        with TestClient(create_app(settings)) as client:
            created = client.post("/api/v1/designs", json={"name": name, "platform": platform})
            created.raise_for_status()
            design = created.json()
            for label, report in reports.items():
                if not report.is_file():
                    continue
                answer = client.post(
                    f"/api/v1/designs/{design['id']}/as-built",
                    json={"revision": 1, "report": report.read_text(errors="replace")},
                    headers={"X-Edit-Token": design["edit_token"]},
                )
                target = report.with_name(f"as-built-{label}.json")
                target.write_text(json.dumps({"status": answer.status_code, **answer.json()}))

"""Record a host's verify report through nasplan's own as-built API, as a team would."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from nasplan.main import create_app
from nasplan.settings import Settings

COLLECTION = "nasplan-collect.tar"


def audit_collection(platform: dict[str, Any], directory: Path) -> None:
    """Upload the collector's archive to /api/v1/collections, then audit the files it holds
    against the platform (/api/v1/audits), as the audit page does; both answers go to
    ``audit.json`` beside the collection."""
    archive = directory / COLLECTION
    if not archive.is_file():
        return
    settings = Settings(DATABASE_URL="sqlite://", NASPLAN_RATE_LIMIT_COMPUTE="")
    with TestClient(create_app(settings)) as client:
        read = client.post(
            "/api/v1/collections",
            content=archive.read_bytes(),
            headers={"content-type": "application/x-tar"},
        )
        result: dict[str, Any] = {"collection_status": read.status_code, "collection": read.json()}
        if read.status_code == 200:
            audited = client.post(
                "/api/v1/audits",
                json={"platform": platform, "pastes": read.json()["pastes"]},
            )
            result |= {"audit_status": audited.status_code, "audit": audited.json()}
    (directory / "audit.json").write_text(json.dumps(result))


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

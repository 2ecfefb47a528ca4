"""Score the audit on the real-world corpus: precision, recall and files understood, per kind.

Each file is sent as a paste of kind ``auto`` with the platform its source describes and no
roles (as a user's first paste would be). A finding counts when it is a warning or an error:

- it is *right* when an expected item of the manifest has its line (or no line) and shares one
  of its ``about`` keys; one that is not right and matches a ``disputed`` item (where the
  sources disagree) is neither right nor wrong and is not counted;
- an expected item is *found* when at least one right finding matches it at the item's
  severity or above;
- a file is *understood* when it was recognised as the manifest's kind and at least one entry
  of it was read.

Run it from ``backend/`` to print the report:
``../.venv/bin/python -m tests.corpus.realworld.score``.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

HERE = Path(__file__).parent
_RANK = {"info": 0, "warning": 1, "error": 2}


@dataclass
class Case:
    id: str
    kind: str
    text: str
    platform: dict[str, Any]
    expected: list[dict[str, Any]]
    must_not: list[dict[str, Any]]
    entry: dict[str, Any]
    manifest: str = ""
    # Where the sources disagree (an expert panel would split): a finding on it is not scored.
    disputed: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class FileScore:
    case: Case
    recognised_as: str | None
    checked: int
    findings: list[dict[str, Any]]  # warnings and errors
    right: list[dict[str, Any]] = field(default_factory=list)
    wrong: list[dict[str, Any]] = field(default_factory=list)
    missed: list[dict[str, Any]] = field(default_factory=list)
    disputed: list[dict[str, Any]] = field(default_factory=list)
    found: int = 0
    status: int = 200
    error: str | None = None
    assignments: list[dict[str, Any]] = field(default_factory=list)

    def roles_guessed(self) -> tuple[int, int]:
        """(right, stated): of the mounts whose role the source states, how many the audit
        matched to that role on its own (a mount the source calls other: no database role).
        A mount point on several lines of one file (a mount command and the fstab line that
        keeps it) is one mount: right when every one of its lines is."""
        stated = {
            point.rstrip("/") or "/": role
            for point, role in (self.case.entry.get("roles") or {}).items()
            if role in _DECLARABLE and str(point).startswith("/")
        }
        guessed: dict[str, bool] = {}
        for assignment in self.assignments:
            point = assignment["mount_point"].rstrip("/") or "/"
            role = stated.get(point)
            if role is None:
                continue
            right = (assignment["role"] or "other") == role
            guessed[point] = guessed.get(point, True) and right
        return sum(guessed.values()), len(guessed)

    @property
    def understood(self) -> bool:
        return self.recognised_as == self.case.kind and self.checked > 0


def load_cases(root: Path = HERE) -> list[Case]:
    cases: list[Case] = []
    for manifest in sorted(root.glob("manifest-*.yaml")):
        for entry in yaml.safe_load(manifest.read_text(encoding="utf-8"))["files"]:
            text = (root / "files" / f"{entry['id']}.txt").read_text(encoding="utf-8")
            cases.append(
                Case(
                    id=entry["id"],
                    kind=entry["kind"],
                    text=text,
                    platform=entry["platform"],
                    expected=entry.get("expected") or [],
                    must_not=entry.get("must_not") or [],
                    entry=entry,
                    manifest=manifest.name,
                    disputed=entry.get("disputed") or [],
                )
            )
    return cases


def _matches(finding: dict[str, Any], item: dict[str, Any]) -> bool:
    line = item.get("line")
    if line is not None and finding.get("line") not in (line, None):
        return False
    if line is not None and finding.get("line") is None and item.get("about") is None:
        return False
    wanted = {str(key).lower() for key in item.get("about") or []}
    return bool(wanted & {key.lower() for key in finding.get("about") or []})


_DECLARABLE = {"data", "redo", "control", "archive", "oracle_home", "crs", "backup", "other"}


def declared_roles(case: Case) -> dict[str, list[str]]:
    """The roles the source states, as a user confirms them on the audit page."""
    roles = case.entry.get("roles") or {}
    return {
        str(point): [str(role)]
        for point, role in roles.items()
        if role in _DECLARABLE and str(point).startswith("/")
    }


def score_case(client: TestClient, case: Case, confirmed: bool = False) -> FileScore:
    """One file's audit: as a first paste (roles guessed), or with the roles the source states
    confirmed (``confirmed``)."""
    body: dict[str, Any] = {
        "platform": case.platform,
        "pastes": [{"name": case.id, "kind": "auto", "text": case.text}],
    }
    if confirmed and declared_roles(case):
        body["roles"] = declared_roles(case)
    response = client.post("/api/v1/audits", json=body)
    if response.status_code != 200:
        return FileScore(case, None, 0, [], status=response.status_code, error=response.text[:300])
    report = response.json()
    recognised = report.get("recognised") or []
    kind = recognised[0]["kind"] if recognised else None
    checked = sum(report.get("checked", {}).values())
    raised = [f for f in report["findings"] if f["severity"] in ("warning", "error")]
    score = FileScore(case, kind, checked, [], assignments=report.get("assignments") or [])
    for finding in raised:
        # Right when an expert raises the same thing on the same line; its severity counts
        # for recall (an expected error is found only by an error). Where the sources
        # disagree, a finding is neither right nor wrong and is not counted.
        hits = [item for item in case.expected if _matches(finding, item)]
        if not hits and any(_matches(finding, item) for item in case.disputed):
            score.disputed.append(finding)
            continue
        score.findings.append(finding)
        (score.right if hits else score.wrong).append(finding)
    for item in case.expected:
        hit = any(
            _matches(f, item) and _RANK[f["severity"]] >= _RANK[item["severity"]]
            for f in score.right
        )
        if hit:
            score.found += 1
        else:
            score.missed.append(item)
    return score


@dataclass
class Totals:
    files: int = 0
    understood: int = 0
    right: int = 0
    raised: int = 0
    found: int = 0
    expected: int = 0

    def add(self, score: FileScore) -> None:
        self.files += 1
        self.understood += score.understood
        self.right += len(score.right)
        self.raised += len(score.findings)
        self.found += score.found
        self.expected += len(score.case.expected)

    @property
    def precision(self) -> float:
        return self.right / self.raised if self.raised else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def understood_share(self) -> float:
        return self.understood / self.files if self.files else 1.0


def totals(scores: list[FileScore]) -> tuple[Totals, dict[str, Totals]]:
    overall = Totals()
    per_kind: defaultdict[str, Totals] = defaultdict(Totals)
    for score in scores:
        overall.add(score)
        per_kind[score.case.kind].add(score)
    return overall, dict(per_kind)


def report(scores: list[FileScore], confirmed: list[FileScore] | None = None) -> str:
    overall, per_kind = totals(scores)
    right = sum(score.roles_guessed()[0] for score in scores)
    stated = sum(score.roles_guessed()[1] for score in scores)
    lines = [
        "First paste (roles guessed by the audit):",
        f"{'kind':<16} {'files':>5} {'understood':>10} {'precision':>10} {'recall':>8}",
    ]
    for kind, t in sorted(per_kind.items()):
        lines.append(
            f"{kind:<16} {t.files:>5} {t.understood:>6}/{t.files:<3} "
            f"{t.precision:>10.2f} {t.recall:>8.2f}   ({t.right}/{t.raised} right, "
            f"{t.found}/{t.expected} found)"
        )
    lines.append(
        f"{'all':<16} {overall.files:>5} {overall.understood:>6}/{overall.files:<3} "
        f"{overall.precision:>10.2f} {overall.recall:>8.2f}   ({overall.right}/{overall.raised} "
        f"right, {overall.found}/{overall.expected} found)"
    )
    lines.append(
        f"roles guessed right: {right}/{stated} of the mounts whose role the source states"
    )
    disputed = sum(len(score.disputed) for score in scores)
    lines.append(f"not scored: {disputed} findings on points where the sources disagree")
    if confirmed is not None:
        with_roles, _ = totals(confirmed)
        lines.append(
            f"With the stated roles confirmed: precision {with_roles.precision:.2f} "
            f"({with_roles.right}/{with_roles.raised}), recall {with_roles.recall:.2f} "
            f"({with_roles.found}/{with_roles.expected})"
        )
    for score in scores:
        problems = []
        if score.error:
            problems.append(f"  HTTP {score.status}: {score.error}")
        if not score.understood and not score.error:
            problems.append(
                f"  read as {score.recognised_as} ({score.checked} entries), not {score.case.kind}"
            )
        problems += [
            f"  not expected: line {f['line']} {f['severity']} {f['rule']} {f['about']}: "
            f"{f['message'][:110]}"
            for f in score.wrong
        ]
        problems += [
            f"  missed: line {item.get('line')} {item['severity']} {item['about']}"
            for item in score.missed
        ]
        if problems:
            lines.append(f"{score.case.id}:")
            lines += problems
    return "\n".join(lines)


def main() -> int:
    import tempfile

    from nasplan.knowledge.loader import load_knowledge
    from nasplan.main import create_app
    from tests.conftest import sqlite_settings

    with tempfile.TemporaryDirectory() as directory:
        app = create_app(sqlite_settings(Path(directory)), kb=load_knowledge())
        with TestClient(app) as client:
            cases = load_cases()
            scores = [score_case(client, case) for case in cases]
            confirmed = [score_case(client, case, confirmed=True) for case in cases]
    print(report(scores, confirmed))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Golden files: one text file per platform holding every bundle file.

Regenerate after an intended change with

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest backend/tests/renderers -q

then review the diff (git diff backend/tests/renderers/golden) before committing it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"


def flatten(files: dict[str, str], skip: tuple[str, ...] = ()) -> str:
    parts = []
    for path in sorted(files):
        if path in skip:
            continue
        mode = "755" if files[path].startswith("#!") else "644"
        parts.append(f"===== {path} ({mode}) =====\n{files[path]}")
    return "".join(parts)


def check_golden(name: str, text: str, folder: Path = GOLDEN, what: str = "bundle") -> None:
    """Compare ``text`` with ``folder/name.txt``; UPDATE_GOLDEN=1 rewrites it instead."""
    path = folder / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no golden file {path.name}: run with UPDATE_GOLDEN=1 and review it")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    f"golden/{path.name}",
                    "rendered",
                )
            )[:80]
        )
        pytest.fail(f"{what} differs from golden/{path.name} (UPDATE_GOLDEN=1 to accept):\n{diff}")

#!/usr/bin/env python3
"""Refuse a source module over MAX_LINES lines unless the allow-list below names it with a reason.

Source modules: the backend package, the lab package, the front end's code (tests and the
generated API client aside) and the scripts. Test files are left out: a table of cases reads
best in one file. Exits 1 and names each module over the limit.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 400
SOURCES = {
    "backend/nasplan": ("*.py",),
    "lab/nasplan_lab": ("*.py",),
    "frontend/src": ("*.ts", "*.tsx"),
    "scripts": ("*.py", "*.sh"),
}
# path -> why it may stay longer. Keep it short: split a module rather than list it.
ALLOWED: dict[str, str] = {
    "frontend/src/api/schema.d.ts": "generated from the OpenAPI schema by scripts/gen-client.sh",
}


def _is_source(path: Path) -> bool:
    name = path.name
    return not (name.endswith((".test.ts", ".test.tsx")) or "/tests/" in path.as_posix())


def oversized() -> list[tuple[str, int]]:
    found = []
    for folder, patterns in SOURCES.items():
        for pattern in patterns:
            for path in sorted((ROOT / folder).rglob(pattern)):
                if "node_modules" in path.parts or not _is_source(path):
                    continue
                with path.open(encoding="utf-8") as handle:
                    lines = sum(1 for _ in handle)
                rel = path.relative_to(ROOT).as_posix()
                if lines > MAX_LINES and rel not in ALLOWED:
                    found.append((rel, lines))
    return found


def main() -> int:
    stale = [path for path in ALLOWED if not (ROOT / path).exists()]
    over = oversized()
    for path, lines in over:
        print(f"{path}: {lines} lines (more than {MAX_LINES}): split it", file=sys.stderr)
    for path in stale:
        print(f"scripts/module_sizes.py: ALLOWED names {path}, which is gone", file=sys.stderr)
    if not over and not stale:
        print(f"every source module is within {MAX_LINES} lines (allowed: {', '.join(ALLOWED)})")
    return 1 if over or stale else 0


if __name__ == "__main__":
    sys.exit(main())

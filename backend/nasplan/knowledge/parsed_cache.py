"""A cache of the parsed rule files, keyed by their content.

Parsing YAML is most of the cost of starting with a large knowledge base (12,600 rules: about
7 s with libyaml, most of it building Python objects). The parsed documents of every rule file
are kept as one JSON file named by the SHA-256 of the files' paths and bytes, so a restart with
unchanged rules reads one JSON file instead. It holds parsed data only: every rule is validated
again when loaded. The cache lives in the user's cache directory (``NASPLAN_CACHE_DIR``, else
``$XDG_CACHE_HOME/nasplan`` or ``~/.cache/nasplan``); when it cannot be written, nothing is
cached and nothing fails.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

# Bump when the parsed form changes, so older cache files are not read.
_FORMAT = "1"


def cache_dir() -> Path:
    configured = os.environ.get("NASPLAN_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nasplan"


def digest(files: list[tuple[str, bytes]]) -> str:
    h = hashlib.sha256(_FORMAT.encode())
    for name, data in files:
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def _plain(value: object) -> str:
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"cannot cache a {type(value).__name__}")


def read(key: str) -> dict[str, Any] | None:
    try:
        data = json.loads((cache_dir() / f"rules-{key}.json").read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write(key: str, documents: dict[str, Any]) -> None:
    try:
        text = json.dumps(documents, default=_plain, separators=(",", ":"))
        directory = cache_dir()
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, suffix=".tmp") as out:
            out.write(text)
        os.replace(out.name, directory / f"rules-{key}.json")
    except (OSError, TypeError, ValueError):
        return

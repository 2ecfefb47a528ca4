"""Read what a collector wrote (``nasplan.renderers.collector``): its tar, or its directory.

A collection is untrusted input like any paste: the tar is read in memory (nothing is written
to disk), only regular files with plain names at its top are taken, each at most
``MAX_FILE_BYTES`` and all together at most ``MAX_TOTAL_BYTES`` once unpacked, and at most
``MAX_FILES`` of them. ``MANIFEST.txt`` says which audit kind each file is; a file the manifest
does not name, or names with a kind the audit does not know, is listed as not used.
"""

from __future__ import annotations

import io
import re
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

from nasplan.audit.kinds import FileKind

MANIFEST = "MANIFEST.txt"
MAX_FILES = 64
MAX_FILE_BYTES = 1_048_576
MAX_TOTAL_BYTES = 8 * 1_048_576
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,80}")
_KINDS: frozenset[str] = frozenset(get_args(FileKind))


class CollectionError(ValueError):
    """What was sent is not a collection the audit can read; the message says why."""


@dataclass(frozen=True)
class CollectedFile:
    name: str
    kind: str  # an audit kind, or "-" for platform facts only
    status: str  # "read", or why not
    what: str
    text: str


@dataclass
class Collection:
    os: str | None = None
    kb_version: str | None = None
    host: str | None = None
    collected_at: str | None = None
    user: str | None = None
    files: list[CollectedFile] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)  # files no manifest row describes

    def text(self, name: str) -> str | None:
        found = next((f for f in self.files if f.name == name and f.status == "read"), None)
        return found.text if found is not None else None


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _member_name(raw: str) -> str | None:
    name = raw.removeprefix("./")
    return name if _NAME.fullmatch(name) and not name.startswith(".") else None


def read_collection_tar(data: bytes) -> Collection:
    """A collector's ``nasplan-collect.tar`` (or the same files tarred and gzipped)."""
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
            return _collection(_members(archive))
    except CollectionError:
        raise
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise CollectionError(
            "not a tar archive the audit can read: send the nasplan-collect.tar a collector "
            "wrote (gzipped or not)"
        ) from exc


def _members(archive: tarfile.TarFile) -> dict[str, str]:
    contents: dict[str, str] = {}
    total = 0
    for count, member in enumerate(archive):
        if count >= MAX_FILES * 2:
            raise CollectionError(f"more than {MAX_FILES} files: not a collection")
        # Sizes first, whatever the member: skipping one still unpacks it.
        if member.size > MAX_FILE_BYTES:
            raise CollectionError(f"{member.name[:80]} is larger than {MAX_FILE_BYTES:,} bytes")
        total += member.size
        if total > MAX_TOTAL_BYTES:
            raise CollectionError(f"the files add up to more than {MAX_TOTAL_BYTES:,} bytes")
        name = _member_name(member.name)
        if not member.isfile() or name is None:
            continue
        handle = archive.extractfile(member)
        if handle is not None:
            contents[name] = _decode(handle.read(MAX_FILE_BYTES))
    return contents


def read_collection_dir(directory: Path) -> Collection:
    """The directory a collector wrote (what ``nasplan audit --collected DIR`` reads)."""
    contents: dict[str, str] = {}
    total = 0
    for path in sorted(directory.iterdir())[: MAX_FILES * 2]:
        name = _member_name(path.name)
        if name is None or not path.is_file() or path.suffix != ".txt":
            continue
        size = path.stat().st_size
        if size > MAX_FILE_BYTES or total + size > MAX_TOTAL_BYTES:
            raise CollectionError(f"{name} makes the collection larger than it can be")
        total += size
        contents[name] = _decode(path.read_bytes())
    return _collection(contents)


def _collection(contents: dict[str, str]) -> Collection:
    manifest = contents.get(MANIFEST)
    if manifest is None:
        raise CollectionError(f"no {MANIFEST}: not what a nasplan collector writes")
    collection = Collection()
    described: set[str] = {MANIFEST}
    for line in manifest.splitlines()[: MAX_FILES + 8]:
        fields = line.split("\t")
        if fields[0] == "collector" and len(fields) >= 3:
            collection.os, collection.kb_version = fields[1], fields[2]
        elif fields[0] in ("host", "date", "user") and len(fields) >= 2:
            value = fields[1][:120]
            if fields[0] == "host":
                collection.host = value
            elif fields[0] == "date":
                collection.collected_at = value
            else:
                collection.user = value
        elif fields[0] == "file" and len(fields) >= 5:
            name, kind, status, what = fields[1], fields[2], fields[3][:200], fields[4][:200]
            if _member_name(name) is None or (kind != "-" and kind not in _KINDS):
                continue
            described.add(name)
            text = contents.get(name, "")
            if status == "read" and name not in contents:
                status = "not read: missing from the upload"
            collection.files.append(CollectedFile(name, kind, status, what, text))
    if collection.os is None:
        raise CollectionError(f"{MANIFEST} does not say which collector wrote it")
    collection.unused = sorted(
        name for name in contents if name not in described and not name.endswith(".err.txt")
    )
    return collection

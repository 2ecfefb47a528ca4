"""What changed in the files two revisions' downloads give, file by file, as unified diffs.

A revision's files are those of its bundle: the approved zip itself once the revision is
approved, else the bundle rendered from what the revision stored (nasplan.designs.files).

Every file's header names its revision, its permalink and (in the runbooks) its review status
with the bundle digest, so every file of two revisions differs. Lines that differ only in those
stamps count as the same line: a file whose other lines are equal is not listed as changed
(``stamp_only`` names it), and the diffs show only what a team would run differently.

README.md and the checksum lists (``*.sha256``) are not compared: README.md is the bundle's
index and review status, which an approval changes while nothing that runs does, and the
checksum lists change whenever any other file does and cannot be read as a change.
"""

from __future__ import annotations

import difflib
import io
import re
import zipfile
from dataclasses import dataclass

from sqlalchemy.orm import Session

from nasplan.data.models import RevisionRow
from nasplan.designs import files, service
from nasplan.designs.schemas import FileDiff, FileStatus

CONTEXT_LINES = 3
MAX_FILE_LINES = 400
MAX_TOTAL_LINES = 3000
MAX_LINE_CHARS = 400
README = "README.md"
NOT_COMPARED_SUFFIX = ".sha256"


@dataclass(frozen=True)
class RevisionFiles:
    """One revision's bundle files and the stamps its files carry."""

    number: int
    files: dict[str, str]
    digest: str
    permalink: str | None


@dataclass(frozen=True)
class FilesComparison:
    changed: list[FileDiff]
    stamp_only: list[str]
    not_compared: list[str]


def revision_files(session: Session, design_id: str, revision: RevisionRow) -> RevisionFiles:
    """The files its bundle download gives (the approved bytes once approved)."""
    stored = service.approved_bundle(session, revision)
    if stored is not None:
        bundle, digest = _unzip(stored.zip), stored.digest
    else:
        rendered = files.render_revision_bundle(design_id, revision, None)
        bundle, digest = rendered.files, rendered.digest
    permalink = files.revision_meta(design_id, revision, None).permalink
    return RevisionFiles(revision.number, bundle, digest, permalink)


def _unzip(zip_bytes: bytes) -> dict[str, str]:
    root = files.zip_root(zip_bytes)
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        return {
            name.removeprefix(f"{root}/"): archive.read(name).decode("utf-8")
            for name in archive.namelist()
            if not name.endswith("/")
        }


def is_compared(path: str) -> bool:
    return path != README and not path.endswith(NOT_COMPARED_SUFFIX)


class _Line(str):
    """A file's line that difflib matches by its text without the revision's stamps, so that
    ``# Revision: 1`` and ``# Revision: 2`` are the same line, while the diff shows each line as
    it is in its file."""

    key: str

    def __new__(cls, text: str, key: str) -> _Line:
        line = super().__new__(cls, text)
        line.key = key
        return line

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Line) and self.key == other.key

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.key)


# Where a file names its revision: the header comment, the runbook's design table (Markdown and
# HTML) and plan.json.
_REVISION_MARKS = r'(Revision: |\| Revision \| |<th>Revision</th><td>|"revision": )'


def _lines(text: str, stamps: RevisionFiles) -> list[_Line]:
    revision = re.compile(rf"{_REVISION_MARKS}{stamps.number}\b")
    lines: list[_Line] = []
    for text_line in text.splitlines():
        if stamps.digest in text_line:
            # Only the review status names the bundle's own digest: it says who approved it.
            key = "\x00review status"
        else:
            key = revision.sub(r"\1#", text_line)
            if stamps.permalink:
                key = key.replace(stamps.permalink, "\x00permalink")
        lines.append(_Line(text_line, key))
    return lines


def _short(line: str) -> str:
    return line if len(line) <= MAX_LINE_CHARS else f"{line[: MAX_LINE_CHARS - 1]}…"


def compare_files(old: RevisionFiles, new: RevisionFiles) -> FilesComparison:
    """Every compared file that differs from ``old`` to ``new``, by path, with its diff; the
    diff lines are cut at MAX_FILE_LINES a file and MAX_TOTAL_LINES in all."""
    changed: list[FileDiff] = []
    stamp_only: list[str] = []
    budget = MAX_TOTAL_LINES
    paths = sorted(old.files.keys() | new.files.keys())
    for path in filter(is_compared, paths):
        before = _lines(old.files[path], old) if path in old.files else []
        after = _lines(new.files[path], new) if path in new.files else []
        if [line.key for line in before] == [line.key for line in after]:
            if old.files.get(path) != new.files.get(path):
                stamp_only.append(path)
            continue
        status: FileStatus = (
            "added" if path not in old.files else "removed" if path not in new.files else "changed"
        )
        diff = list(
            difflib.unified_diff(
                before,
                after,
                fromfile=f"revision {old.number}/{path}",
                tofile=f"revision {new.number}/{path}",
                n=CONTEXT_LINES,
                lineterm="",
            )
        )
        shown = diff[: min(MAX_FILE_LINES, budget)]
        budget -= len(shown)
        changed.append(
            FileDiff(
                path=path,
                status=status,
                lines=[_short(line) for line in shown],
                lines_left_out=len(diff) - len(shown),
            )
        )
    return FilesComparison(changed, stamp_only, [p for p in paths if not is_compared(p)])

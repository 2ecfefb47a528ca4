"""Read oranfstab, Oracle Direct NFS's list of filers: ``server:`` blocks with their paths,
exports, local addresses and NFS version.

Like every parser (``nasplan.audit.parsers``), it returns what it understood with line numbers
and lists the lines it did not understand in ``ignored``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from nasplan.audit.parsers import Parsed, content_lines, reads_long_lines_as_blank


@dataclass(frozen=True)
class NfstabServer:
    line: int
    server: str
    paths: list[str]
    exports: list[tuple[str, str]]  # (export, mount point)
    nfs_version: str | None
    locals: list[str] = field(default_factory=list)
    # The line of each path and local, in order.
    path_lines: list[int] = field(default_factory=list)
    local_lines: list[int] = field(default_factory=list)


@dataclass
class _ServerBuilder:
    line: int
    server: str
    paths: list[str] = field(default_factory=list)
    exports: list[tuple[str, str]] = field(default_factory=list)
    nfs_version: str | None = None
    locals: list[str] = field(default_factory=list)
    path_lines: list[int] = field(default_factory=list)
    local_lines: list[int] = field(default_factory=list)

    def build(self) -> NfstabServer:
        return NfstabServer(
            self.line,
            self.server,
            self.paths,
            self.exports,
            self.nfs_version,
            self.locals,
            self.path_lines,
            self.local_lines,
        )


def _oranfstab_items(text: str) -> Iterator[tuple[int, str]]:
    for number, line in content_lines(text):
        head, sep, tail = line.partition(" path:")
        if sep and head.lower().startswith("local:"):
            yield number, head
            yield number, f"path:{tail}"
        else:
            yield number, line


@reads_long_lines_as_blank
def parse_oranfstab(text: str) -> Parsed[NfstabServer]:
    """oranfstab: ``server:`` blocks with ``path:``, ``export: X mount: Y``, ``nfs_version:``.
    A ``local: A path: B`` pair may share a line, as Oracle's examples print it."""
    result: Parsed[NfstabServer] = Parsed()
    current: _ServerBuilder | None = None
    for number, line in _oranfstab_items(text):
        key, _, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "server":
            if current is not None:
                result.items.append(current.build())
            current = _ServerBuilder(number, value)
        elif current is None:
            result.ignored.append(number)
        elif key == "path":
            current.paths.append(value)
            current.path_lines.append(number)
        elif key == "export":
            export, _, rest = value.partition(" ")
            mount = rest.split("mount:", 1)[-1].strip() if "mount:" in rest else ""
            current.exports.append((export.strip(), mount))
        elif key == "nfs_version":
            current.nfs_version = value
        elif key == "local":
            current.locals.append(value)
            current.local_lines.append(number)
        elif key in ("dontroute", "mnt_timeout", "security_default", "management", "community"):
            continue
        else:
            result.ignored.append(number)
    if current is not None:
        result.items.append(current.build())
    return result

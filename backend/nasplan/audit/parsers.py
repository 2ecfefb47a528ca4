"""Read the configuration files and command outputs people paste for an audit.

Each parser returns what it understood with line numbers; lines it does not understand are
returned as ``ignored`` so the caller can say so instead of guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Generic, TypeVar


@dataclass(frozen=True)
class MountEntry:
    line: int
    device: str
    mount_point: str
    options: list[str]


@dataclass(frozen=True)
class Parameter:
    line: int
    name: str
    value: str


@dataclass(frozen=True)
class NfstabServer:
    line: int
    server: str
    paths: list[str]
    exports: list[tuple[str, str]]  # (export, mount point)
    nfs_version: str | None


T = TypeVar("T")


@dataclass
class Parsed(Generic[T]):
    items: list[T] = field(default_factory=list)
    ignored: list[int] = field(default_factory=list)


def _content_lines(text: str) -> list[tuple[int, str]]:
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#")
    ]


def _split_options(text: str) -> list[str]:
    return [o.strip() for o in text.split(",") if o.strip()]


def _parse_table(
    text: str, columns: int, fstype: int, device: int, point: int, options: int
) -> Parsed[MountEntry]:
    """A whitespace-separated mount table; NFS lines kept, others reported as ignored."""
    result: Parsed[MountEntry] = Parsed()
    for number, line in _content_lines(text):
        fields = line.split()
        if len(fields) >= columns and fields[fstype] in ("nfs", "nfs4"):
            result.items.append(
                MountEntry(number, fields[device], fields[point], _split_options(fields[options]))
            )
        else:
            result.ignored.append(number)
    return result


def parse_vfstab(text: str) -> Parsed[MountEntry]:
    """Solaris /etc/vfstab: device, fsck device, mount point, type, pass, at boot, options."""
    return _parse_table(text, columns=7, fstype=3, device=0, point=2, options=6)


def parse_fstab(text: str) -> Parsed[MountEntry]:
    """Linux and HP-UX /etc/fstab: device, mount point, type, options, dump, pass."""
    return _parse_table(text, columns=4, fstype=2, device=0, point=1, options=3)


def parse_filesystems(text: str) -> Parsed[MountEntry]:
    """AIX /etc/filesystems stanzas (``/mount/point:`` then ``attribute = value`` lines)."""
    result: Parsed[MountEntry] = Parsed()
    stanza: dict[str, str] = {}
    start = 0
    mount_point = ""

    def flush() -> None:
        if mount_point and stanza.get("vfs") == "nfs":
            device = f"{stanza.get('nodename', '')}:{stanza.get('dev', '')}"
            options = _split_options(stanza.get("options", ""))
            result.items.append(MountEntry(start, device, mount_point, options))

    for number, line in _content_lines(text):
        if line.endswith(":") and "=" not in line:
            flush()
            stanza, start, mount_point = {}, number, line[:-1]
        elif "=" in line and mount_point:
            key, _, value = line.partition("=")
            stanza[key.strip()] = value.strip()
        else:
            result.ignored.append(number)
    flush()
    return result


_LINUX_MOUNT = re.compile(r"^(\S+) on (\S+) type (nfs4?) \((.*)\)$")
_SOLARIS_MOUNT = re.compile(r"^(\S+) on (\S+:\S+) (\S+)(?: on .*)?$")
_NFSSTAT_HEAD = re.compile(r"^(\S+) from (\S+:\S+)")


def parse_mount_output(text: str) -> Parsed[MountEntry]:
    """`mount` (Linux or Solaris), /proc/mounts, or Solaris `nfsstat -m` output."""
    result: Parsed[MountEntry] = Parsed()
    lines = _content_lines(text)
    index = 0
    while index < len(lines):
        number, line = lines[index]
        index += 1
        if match := _LINUX_MOUNT.match(line):
            device, point, _, option_text = match.groups()
            result.items.append(MountEntry(number, device, point, _split_options(option_text)))
        elif match := _NFSSTAT_HEAD.match(line):
            point, device = match.groups()
            flags_line: list[str] = []
            while index < len(lines) and not _NFSSTAT_HEAD.match(lines[index][1]):
                label, _, value = lines[index][1].partition(":")
                if label.strip() == "Flags":
                    flags_line = _split_options(value)
                index += 1
            result.items.append(MountEntry(number, device, point, flags_line))
        elif (fields := line.split()) and len(fields) >= 4 and fields[2] in ("nfs", "nfs4"):
            result.items.append(MountEntry(number, fields[0], fields[1], _split_options(fields[3])))
        elif match := _SOLARIS_MOUNT.match(line):
            point, device, flags = match.groups()
            result.items.append(MountEntry(number, device, point, flags.split("/")))
        else:
            result.ignored.append(number)
    return result


def parse_init_ora(text: str) -> Parsed[Parameter]:
    """init.ora / pfile lines: ``name = value`` or ``*.name='value'``."""
    result: Parsed[Parameter] = Parsed()
    for number, line in _content_lines(text):
        name, sep, value = line.partition("=")
        if not sep:
            result.ignored.append(number)
            continue
        name = name.strip().split(".", 1)[-1].lower()
        value = value.split("#", 1)[0].strip().strip("'\"")
        result.items.append(Parameter(number, name, value))
    return result


def parse_vol_options(text: str) -> Parsed[Parameter]:
    """Data ONTAP 7-mode `vol options <vol>` output: ``name=value, name=value, ...``."""
    result: Parsed[Parameter] = Parsed()
    for number, line in _content_lines(text):
        pairs = [p.strip() for p in line.split(",") if "=" in p]
        if not pairs:
            result.ignored.append(number)
            continue
        for pair in pairs:
            name, _, value = pair.partition("=")
            result.items.append(Parameter(number, name.strip(), value.strip()))
    return result


@dataclass
class _ServerBuilder:
    line: int
    server: str
    paths: list[str] = field(default_factory=list)
    exports: list[tuple[str, str]] = field(default_factory=list)
    nfs_version: str | None = None

    def build(self) -> NfstabServer:
        return NfstabServer(self.line, self.server, self.paths, self.exports, self.nfs_version)


def parse_oranfstab(text: str) -> Parsed[NfstabServer]:
    """oranfstab: ``server:`` blocks with ``path:``, ``export: X mount: Y``, ``nfs_version:``."""
    result: Parsed[NfstabServer] = Parsed()
    current: _ServerBuilder | None = None
    for number, line in _content_lines(text):
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
        elif key == "export":
            export, _, rest = value.partition(" ")
            mount = rest.split("mount:", 1)[-1].strip() if "mount:" in rest else ""
            current.exports.append((export.strip(), mount))
        elif key == "nfs_version":
            current.nfs_version = value
        elif key in ("local", "dontroute", "mnt_timeout", "security_default", "management"):
            continue
        else:
            result.ignored.append(number)
    if current is not None:
        result.items.append(current.build())
    return result

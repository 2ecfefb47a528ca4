"""Read the NFS mounts of a host: /etc/fstab (Linux, HP-UX), /etc/vfstab (Solaris),
/etc/filesystems stanzas (AIX), and ``mount``, /proc/mounts or ``nfsstat -m`` output.

Like every parser (``nasplan.audit.parsers``), each returns the NFS mounts it understood with
line numbers and lists the lines it did not understand in ``ignored``.
"""

from __future__ import annotations

from nasplan.audit.parsers import (
    MountEntry,
    Parsed,
    content_lines,
    fstab_options,
    joined_lines,
    reads_long_lines_as_blank,
    split_options,
)


def _parse_table(
    text: str, columns: int, fstype: int, device: int, point: int, options: int
) -> Parsed[MountEntry]:
    """A whitespace-separated mount table; NFS lines kept, others reported as ignored. A line
    that stops before its options column (``server:/x /mnt nfs`` in an fstab) mounts with the
    defaults, so it is read as ``defaults``: its missing options are what the audit reports."""
    result: Parsed[MountEntry] = Parsed()
    for number, line in joined_lines(text):
        fields = line.split()
        if len(fields) >= columns and fields[fstype] in ("nfs", "nfs4"):
            given = fstab_options(fields, options)
            result.items.append(
                MountEntry(number, fields[device], fields[point], given or ["defaults"])
            )
        else:
            result.ignored.append(number)
    return result


@reads_long_lines_as_blank
def parse_vfstab(text: str) -> Parsed[MountEntry]:
    """Solaris /etc/vfstab: device, fsck device, mount point, type, pass, at boot, options."""
    return _parse_table(text, columns=7, fstype=3, device=0, point=2, options=6)


@reads_long_lines_as_blank
def parse_fstab(text: str) -> Parsed[MountEntry]:
    """Linux and HP-UX /etc/fstab: device, mount point, type, options, dump, pass."""
    # The options, dump and pass fields may be left out (fstab(5)): three columns are a line.
    return _parse_table(text, columns=3, fstype=2, device=0, point=1, options=3)


@reads_long_lines_as_blank
def parse_filesystems(text: str) -> Parsed[MountEntry]:
    """AIX /etc/filesystems stanzas (``/mount/point:`` then ``attribute = value`` lines).
    An entry's line is its ``options`` line (what a finding asks to change), or the stanza's
    first line when it has none."""
    result: Parsed[MountEntry] = Parsed()
    stanza: dict[str, str] = {}
    start = 0
    options_line = 0
    mount_point = ""

    def flush() -> None:
        if mount_point and stanza.get("vfs") == "nfs":
            device = f"{stanza.get('nodename', '')}:{stanza.get('dev', '')}"
            options = split_options(stanza.get("options", ""))
            result.items.append(MountEntry(options_line or start, device, mount_point, options))

    for number, line in content_lines(text):
        if line.endswith(":") and "=" not in line:
            flush()
            stanza, start, options_line, mount_point = {}, number, 0, line[:-1]
        elif "=" in line and mount_point:
            key, _, value = line.partition("=")
            stanza[key.strip()] = value.strip()
            if key.strip() == "options":
                options_line = number
        else:
            result.ignored.append(number)
    flush()
    return result


def _is_word(text: str) -> bool:
    """One or more characters, none of them whitespace (what ``\\S+`` matches)."""
    return bool(text) and text.split() == [text]


def _first_word(text: str) -> str:
    """The characters before the first whitespace, empty when the text starts with one."""
    return text.split(maxsplit=1)[0] if text and not text[0].isspace() else ""


def _remote(device: str) -> bool:
    """``host:path``: a colon with something on both sides (``\\S+:\\S+``)."""
    return ":" in device[1:-1]


# The three line shapes below were regular expressions; `x on ` followed by 40,000 colons made
# the Solaris one backtrack for seconds. They are now tests on fields split at single spaces.


def _linux_mount(line: str) -> tuple[str, str, str] | None:
    """``device on point type nfs|nfs4 (options)``: device, point, options text."""
    parts = line.split(" ", 5)
    if (
        len(parts) == 6
        and parts[1] == "on"
        and parts[3] == "type"
        and parts[4] in ("nfs", "nfs4")
        and _is_word(parts[0])
        and _is_word(parts[2])
        and len(parts[5]) >= 2
        and parts[5][0] == "("
        and parts[5][-1] == ")"
    ):
        return parts[0], parts[2], parts[5][1:-1]
    return None


def _nfsstat_head(line: str) -> tuple[str, str] | None:
    """``point from host:path`` and anything after (Solaris ``nfsstat -m``): point, device."""
    point, found, rest = line.partition(" from ")
    device = _first_word(rest)
    if found and _is_word(point) and _remote(device):
        return point, device
    return None


def _solaris_mount(line: str) -> tuple[str, str, str] | None:
    """``point on host:path flags`` and optionally `` on <date>``: point, device, flags."""
    parts = line.split(" ", 4)
    if (
        len(parts) >= 4
        and parts[1] == "on"
        and _is_word(parts[0])
        and _is_word(parts[2])
        and _remote(parts[2])
        and _is_word(parts[3])
        and (len(parts) == 4 or parts[4].startswith("on "))
    ):
        return parts[0], parts[2], parts[3]
    return None


@reads_long_lines_as_blank
def parse_mount_output(text: str) -> Parsed[MountEntry]:
    """`mount` (Linux or Solaris), /proc/mounts, or Solaris `nfsstat -m` output."""
    result: Parsed[MountEntry] = Parsed()
    lines = list(content_lines(text))
    index = 0
    while index < len(lines):
        number, line = lines[index]
        index += 1
        if linux := _linux_mount(line):
            device, point, option_text = linux
            result.items.append(MountEntry(number, device, point, split_options(option_text)))
        elif head := _nfsstat_head(line):
            point, device = head
            flags_line: list[str] = []
            while index < len(lines) and not _nfsstat_head(lines[index][1]):
                label, _, value = lines[index][1].partition(":")
                if label.strip() == "Flags":
                    flags_line = split_options(value)
                index += 1
            result.items.append(MountEntry(number, device, point, flags_line))
        elif (fields := line.split()) and len(fields) >= 4 and fields[2] in ("nfs", "nfs4"):
            result.items.append(MountEntry(number, fields[0], fields[1], split_options(fields[3])))
        elif solaris := _solaris_mount(line):
            point, device, flags = solaris
            result.items.append(MountEntry(number, device, point, flags.split("/")))
        else:
            result.ignored.append(number)
    return result

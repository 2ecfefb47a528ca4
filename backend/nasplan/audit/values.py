"""Values compared as what they mean, not as they are spelled.

Files and command outputs spell one value many ways: an NFS version as ``3``, ``v3``, ``3.0``,
``NFSv3`` or ``NFSv3.0`` (how ``v$dnfs_servers`` prints it); a size as ``1048576``, ``1M`` or
``1024K``; a switch as ``1``, ``on``, ``true``, ``yes`` or ``enabled``. Before the audit says a
value differs from the plan, both sides are brought to one spelling here.

Every function reads its text once, with no regular expression, so it stays linear in the input.
"""

from __future__ import annotations

_TRUE = {"1", "on", "true", "yes", "enabled", "enable"}
_FALSE = {"0", "off", "false", "no", "disabled", "disable"}
_SIZE_UNITS = {
    "k": 1 << 10,
    "kb": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
}


def _plain(value: str) -> str:
    return " ".join(value.split()).strip("'\"").lower()


def nfs_version(value: str) -> str | None:
    """``NFSv3.0`` -> ``3``, ``vers=4,minorversion=1`` -> ``4.1``; None if it is no version."""
    text = _plain(value)
    minor = None
    if "minorversion=" in text:
        text, _, minor = text.partition(",minorversion=")
    for prefix in ("nfsvers=", "vers=", "nfs_version=", "nfsv", "v"):
        text = text.removeprefix(prefix)
    major, _, rest = text.partition(".")
    if not major.isdigit() or not major.isascii():
        return None
    minor = minor if minor is not None else rest
    if minor and not (minor.isdigit() and minor.isascii()):
        return None
    return major if not minor or int(minor) == 0 else f"{major}.{int(minor)}"


def size_bytes(value: str) -> int | None:
    """``1M`` -> 1048576, ``65536`` -> 65536 (binary units, as Oracle and ONTAP print them)."""
    text = _plain(value).replace(" ", "")
    digits = len(text) - len(text.lstrip("0123456789"))
    number, unit = text[:digits], text[digits:]
    if not number or not number.isascii():
        return None
    if not unit:
        return int(number)
    factor = _SIZE_UNITS.get(unit)
    return int(number) * factor if factor else None


def switch(value: str) -> bool | None:
    text = _plain(value)
    return True if text in _TRUE else False if text in _FALSE else None


def same_value(found: str, planned: str) -> bool:
    """Whether a value found in a file means the planned one."""
    a, b = _plain(found), _plain(planned)
    if a == b:
        return True
    try:
        if int(a, 0) == int(b, 0):
            return True
    except ValueError:
        pass
    size_a, size_b = size_bytes(a), size_bytes(b)
    if size_a is not None and size_a == size_b:
        return True
    switch_a, switch_b = switch(a), switch(b)
    return switch_a is not None and switch_a == switch_b


def set_elsewhere(word: str) -> bool:
    """Whether a word is filled in when its line runs: a shell variable or command (``$OPTS``,
    ``${OPTS}``, ``$(cat f)``, a backquoted command) or a template (``{{ opts }}``). What it
    holds is not in the text."""
    if "`" in word or "{{" in word:
        return True
    at = word.find("$")
    while 0 <= at < len(word) - 1:
        following = word[at + 1]
        if following in "{(_" or (following.isascii() and following.isalpha()):
            return True
        at = word.find("$", at + 1)
    return False

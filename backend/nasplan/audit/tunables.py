"""Read kernel tunables as pasted: Linux ``sysctl`` output and /etc/sysctl.conf, AIX ``nfso`` and
``no``, Solaris /etc/system, ``ndd`` and ``ipadm``.

Like every parser (``nasplan.audit.parsers``), each returns what it understood with line numbers
and lists the lines it did not understand in ``ignored``; blank lines and comments are
understood and produce nothing. No parser raises on any text. Line numbers count lines as
``str.splitlines`` does (LF, CRLF and CR all end a line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from nasplan.audit.parsers import (
    MAX_COLUMNS,
    Parameter,
    Parsed,
    numbered,
    reads_long_lines_as_blank,
    squeeze,
)


def _unquote(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


# ---------------------------------------------------------------------------------------------
# name = value files


# Possessive quantifiers (*+): what follows each one cannot start with what it matched, so
# giving characters back could never help and the match is one pass over the line.
_SYSCTL = re.compile(r"-?(?P<name>[A-Za-z0-9_][\w./:@*+-]*+)\s*+=\s*+(?P<value>.*)")
# A dotted key, a colon and a value: a setting as a list or YAML prints it, not sysctl's form.
_COLON = re.compile(r"(?P<name>[a-z][\w-]*+(?:\.[\w-]++)++):[ \t]*+(?P<value>\S.*+)")
_NFSO = re.compile(r"(?P<name>[A-Za-z_]\w*+)\s*+=\s*+(?P<value>.*)")


def _assignments(
    text: str,
    pattern: re.Pattern[str],
    comments: tuple[str, ...],
    noise: tuple[str, ...] = (),
    command: str | None = None,
) -> Parsed[Parameter]:
    result: Parsed[Parameter] = Parsed()
    lines = [(number, raw.strip()) for number, raw in numbered(text)]
    commands = (
        [line for _, line in lines if _after_command(line, command) != line] if command else []
    )
    hash_is_prompt = _hash_is_prompt(commands)
    for number, line in lines:
        if not line:
            continue
        if line.startswith(comments) and not (
            hash_is_prompt and command and _after_command(line, command) != line
        ):
            continue
        if command is not None:
            rest = _after_command(line, command)
            if rest != line and "=" not in rest:
                continue  # a command that lists or shows tunables (nfso -a, no -o sb_max)
            line = rest
        match = None if noise and line.startswith(noise) else pattern.fullmatch(line)
        if match is None:
            result.ignored.append(number)
            continue
        result.items.append(Parameter(number, match["name"], _unquote(squeeze(match["value"]))))
    return result


def _hash_is_prompt(commands: list[str]) -> bool:
    """Documents print a root session with "# " before every command; in a script, "#" is a
    comment. Where every command of the paste has "# " before it, it is a prompt."""
    return bool(commands) and all(line.startswith("# ") for line in commands)


def _after_command(line: str, command: str) -> str:
    """``sudo /sbin/sysctl -w a=b`` -> ``a=b``: the command that sets what the line holds, its
    path, a sudo before it and its flags are dropped; any other line is returned as it is."""
    if line.startswith("[") and (end := line.find("]")) > 0 and line[end + 1 : end + 2] in "#$":
        line = line[end + 2 :].lstrip()  # [root@host ~]# prompt
    words = line.split(None, 4)
    while words and (words[0] == "sudo" or words[0].endswith(("#", "$", "%", ">"))):
        words = words[1:]
    if not words or words[0].rsplit("/", 1)[-1] != command:
        return line
    rest = line[line.index(words[0]) + len(words[0]) :].lstrip()
    while rest.startswith("-") and " " in rest and "=" not in rest.split(" ", 1)[0]:
        rest = rest.split(" ", 1)[1].lstrip()
    return rest


def has_sysctl_commands(text: str) -> bool:
    """Whether a line of the text is a ``sysctl`` command that sets a value."""
    for raw in text.splitlines():
        line = raw.strip()
        rest = _after_command(line, "sysctl")
        if rest != line and _SYSCTL.fullmatch(rest):
            return True
    return False


@reads_long_lines_as_blank
def parse_sysctl(text: str) -> Parsed[Parameter]:
    """Linux ``sysctl -a`` / ``sysctl -p`` output or /etc/sysctl.conf: ``name = value``.

    Comments start with ``#`` or ``;``; a leading ``-`` (ignore failures) is dropped; a name
    written with slashes only (``net/core/rmem_max``) is given dots; values made of several
    numbers (``4096 87380 16777216``) keep single spaces between them. ``sysctl:`` messages
    such as ``permission denied on key`` are reported as ignored. ``sysctl -w name=value``
    commands (as runbooks and slides print them) are read as the setting they make.
    """
    result = _assignments(text, _SYSCTL, ("#", ";"), noise=("sysctl:",), command="sysctl")
    # "net.core.rmem_max: 4194304", as lists and YAML print a setting: sysctl reads no such
    # line, so it sets nothing (refused, with what it meant).
    lines = dict(numbered(text))
    still_ignored: list[int] = []
    for number in result.ignored:
        match = _COLON.fullmatch(lines[number].strip())
        if match is None:
            still_ignored.append(number)
        else:
            result.refused.append(Parameter(number, match["name"], match["value"]))
    result.ignored = still_ignored
    result.items = [
        item if "." in item.name else Parameter(item.line, item.name.replace("/", "."), item.value)
        for item in result.items
    ]
    return result


@reads_long_lines_as_blank
def parse_nfso(text: str) -> Parsed[Parameter]:
    """AIX ``nfso -a`` output: ``name = value``, one tunable a line (padded to align the ``=``),
    or ``nfso -p -o name=value`` commands (behind a prompt, a path or sudo).

    Double quotes around a value (as in /etc/tunables/nextboot) are dropped.
    """
    return _assignments(text, _NFSO, ("#",), command="nfso")


@reads_long_lines_as_blank
def parse_no(text: str) -> Parsed[Parameter]:
    """AIX ``no -a`` output (network options, ``name = value`` as nfso prints them) or
    ``no -p -o name=value`` commands; ``no -o name`` alone shows a value and sets nothing."""
    return _assignments(text, _NFSO, ("#",), command="no")


_ETC_SYSTEM = re.compile(
    r"set\s++(?P<name>[A-Za-z_]\w*+(?::[A-Za-z_]\w*+)?)\s*+=\s*+(?P<value>\S.*)", re.IGNORECASE
)


@reads_long_lines_as_blank
def parse_etc_system(text: str) -> Parsed[Parameter]:
    """Solaris /etc/system: ``set module:name = value`` or ``set name=value``.

    ``*`` and ``#`` start comments. The name keeps its module (``nfs:nfs3_max_transfer_size``)
    and the value its text (``0x100000``). Other directives (``forceload:``, ``exclude:``) and
    the bitwise forms ``set name | value`` and ``set name & value`` are reported as ignored.
    """
    result: Parsed[Parameter] = Parsed()
    for number, raw in numbered(text):
        line = raw.strip()
        if not line or line.startswith(("*", "#")):
            continue
        match = _ETC_SYSTEM.fullmatch(line)
        if match is None:
            result.ignored.append(number)
            continue
        result.items.append(Parameter(number, match["name"], _unquote(match["value"].strip())))
    return result


# ---------------------------------------------------------------------------------------------
# Solaris ndd / ipadm


def _is_shell_prompt(line: str) -> bool:
    """A stripped line whose first word ends like a shell prompt (``#``, ``$``, ``%``, ``>``)."""
    first = line.split(maxsplit=1)
    return bool(first) and first[0].endswith(("#", "$", "%", ">"))


@dataclass
class _PendingGet:
    line: int
    name: str
    values: list[str] = field(default_factory=list)


def _ndd_args(tokens: list[str]) -> list[str] | None:
    for index, token in enumerate(tokens):
        if token == "ndd" or token.endswith("/ndd"):
            return tokens[index + 1 :]
    return None


def _ipadm_set(tokens: list[str]) -> tuple[str, str] | None:
    if "set-prop" not in tokens:
        return None
    for option, argument in pairwise(tokens):
        if option == "-p" and "=" in argument:
            name, _, value = argument.partition("=")
            return name, value
    return None


_TYPESET_DASHES = ("\u2013", "\u2014")  # en and em dash, as documents print a flag's hyphen


def _flag_dashes(tokens: list[str]) -> list[str]:
    """Tokens with a typeset dash before a flag (``\u2013get``) read as the hyphen it stands for."""
    return [f"-{t[1:]}" if t.startswith(_TYPESET_DASHES) else t for t in tokens]


def _is_ipadm(tokens: list[str]) -> bool:
    return any(t == "ipadm" or t.endswith("/ipadm") for t in tokens)


def _is_command(tokens: list[str]) -> bool:
    return _ndd_args(tokens) is not None or _is_ipadm(tokens)


@dataclass
class _NddState:
    result: Parsed[Parameter] = field(default_factory=Parsed)
    pending: _PendingGet | None = None
    columns: tuple[int, int] | None = None
    hash_is_prompt: bool = False  # see _hash_is_prompt

    def add(self, item: Parameter) -> None:
        self.result.items.append(item)

    def flush(self) -> None:
        if self.pending is None:
            return
        if self.pending.values:
            value = " ".join(self.pending.values)
            self.add(Parameter(self.pending.line, self.pending.name, value))
        else:
            self.result.ignored.append(self.pending.line)
        self.pending = None

    def commented(self, line: str) -> bool:
        return line.startswith("#") and not self.hash_is_prompt

    def command(self, number: int, line: str, args: list[str]) -> None:
        self.flush()
        self.columns = None
        if args[:1] == ["-set"]:
            if len(args) >= 4 and args[1].startswith("/dev/") and not self.commented(line):
                self.add(Parameter(number, args[2], " ".join(args[3:])))
            elif len(args) == 3 and args[1].startswith("/dev/") and "=" in args[2][1:]:
                # name=value in one argument: ndd reads it as a parameter name and fails.
                name, _, value = args[2].partition("=")
                if not self.commented(line):
                    self.result.refused.append(Parameter(number, name, value))
            elif not self.commented(line):
                self.result.ignored.append(number)
            return
        if args[:1] == ["-get"]:
            args = args[1:]
        if len(args) == 2 and args[0].startswith("/dev/") and args[1] not in ("?", "\\?"):
            self.pending = _PendingGet(number, args[1])
        else:
            self.result.ignored.append(number)

    def other(self, number: int, line: str) -> None:
        tokens = line.split()
        if self.columns is not None:
            name_at, value_at = self.columns
            if len(tokens) > max(name_at, value_at):
                self.add(Parameter(number, tokens[name_at], tokens[value_at]))
            else:
                self.result.ignored.append(number)
        elif self.pending is not None and (not self.pending.values or len(tokens) == 1):
            self.pending.values.append(" ".join(tokens))
        else:
            self.result.ignored.append(number)


@reads_long_lines_as_blank
def parse_ndd(text: str) -> Parsed[Parameter]:
    """Solaris ``ndd`` and ``ipadm`` output pasted from a shell session or a boot script.

    * ``ndd -get /dev/tcp tcp_max_buf`` (or ``ndd /dev/tcp tcp_max_buf``), behind any prompt,
      with the value printed on the next line; further one-word lines (``tcp_extra_priv_ports``
      lists) are added to the value with spaces;
    * ``ndd -set /dev/tcp tcp_xmit_hiwat 65536``; written after a ``#`` it is a commented-out
      script line and skipped;
    * ``ipadm set-prop [-t] -p max_buf=4194304 tcp``;
    * ``ipadm show-prop`` / ``show-ifprop`` tables: the PROPERTY column is the name and the
      CURRENT column the value (a header of more than ``MAX_COLUMNS`` words is ignored).
    """
    lines = [(number, raw.strip(), _flag_dashes(raw.split())) for number, raw in numbered(text)]
    commands = [line for _, line, tokens in lines if _is_command(tokens)]
    state = _NddState(hash_is_prompt=_hash_is_prompt(commands))
    for number, line, tokens in lines:
        if not line:
            continue
        args = _ndd_args(tokens)
        upper = [token.upper() for token in tokens]
        if args is not None:
            state.command(number, line, args)
        elif "PROPERTY" in upper and "CURRENT" in upper:
            state.flush()
            state.columns = None
            if len(tokens) > MAX_COLUMNS:
                state.result.ignored.append(number)
            else:
                state.columns = (upper.index("PROPERTY"), upper.index("CURRENT"))
        elif _is_ipadm(tokens):
            state.flush()
            state.columns = None
            setting = _ipadm_set(tokens)
            if setting is not None and not state.commented(line):
                state.add(Parameter(number, *setting))
        elif line.startswith("#"):
            continue
        elif _is_shell_prompt(line):
            state.flush()
            state.columns = None
            state.result.ignored.append(number)
        else:
            state.other(number, line)
    state.flush()
    state.result.ignored.sort()
    return state.result

"""Read ``mount`` commands typed at a shell (from a runbook, a blog post, a support note).

Each OS spells the file-system type its own way: Linux ``mount -t nfs -o OPTS server:/x /mnt``,
Solaris and HP-UX ``mount -F nfs -o OPTS server:/x /mnt`` (mount_nfs(1M)), AIX
``mount -v nfs -n server -o OPTS /x /mnt`` or ``mount -o OPTS server:/x /mnt`` (mount(1)). A
command is read as the mount it makes: its source, mount point and options. A command that
writes an fstab line (``echo "server:/x /mnt nfs OPTS 0 0" >> /etc/fstab``, ``… | tee -a
/etc/fstab``, or either inside ``sh -c '…'``) is read as that line. Lines that are neither are
reported as ignored. Like every parser of a paste, this takes time
linear in the text (``shlex`` splits each line in one pass; no regular expression is used).
"""

from __future__ import annotations

import shlex

from nasplan.audit.parsers import (
    MountEntry,
    Parsed,
    continues,
    fstab_options,
    joined_lines,
    reads_long_lines_as_blank,
)

NFS_TYPES = ("nfs", "nfs3", "nfs4")
# Options that take the next word as their value, in any OS's mount.
_WITH_VALUE = {"-t", "--types", "-F", "-o", "--options", "-O", "--test-opts"}
# Words that may stand before the command: a prompt, sudo, a shell keyword, a list number.
_PREFIXES = {"$", "#", "%", ">", "sudo", "pfexec", "doas", "if", "then", "do", "else", "!", "time"}
# Where a command ends inside a line (shlex gives each run of these characters as one word).
_PUNCTUATION = ";&|()"


def _is_prefix(word: str) -> bool:
    """A prompt (``$``, ``[root@db1 ~]#``, ``SQL>``-like), a keyword or sudo, or the number
    of a list item (``1.``, ``2)``) as blog posts print commands."""
    return (
        word in _PREFIXES
        or (word[-1:] == ":" and word[:-1].isalpha())  # a label: "Solaris: mount -F nfs ..."
        or word[-1:] in ("$", "#", "%", ">")
        or (word[:-1].isdigit() and word[-1:] in (".", ")"))
        or all(char in _PUNCTUATION for char in word)
    )


# The longest placeholder read as one word ("<storage account name>").
_PLACEHOLDER_CHARS = 80


def _placeholders_as_words(line: str) -> str:
    """Documents write what the reader fills in as ``<storage account name>``; its spaces are
    not word breaks. Each such placeholder (no ``<`` inside, at most ``_PLACEHOLDER_CHARS``) has
    its spaces made underscores, in one pass over the line."""
    out: list[str] = []
    at = 0
    while (start := line.find("<", at)) >= 0:
        end = line.find(">", start + 1, start + _PLACEHOLDER_CHARS)
        inner = line[start + 1 : end] if end > 0 else ""
        if end < 0 or "<" in inner or not inner.strip():
            out.append(line[at : start + 1])
            at = start + 1
            continue
        out.append(line[at:start] + "<" + inner.replace(" ", "_") + ">")
        at = end + 1
    out.append(line[at:])
    return "".join(out)


# The longest command substitution read as one word ("$(cat /etc/ora_nfs_opts)").
_SUBSTITUTION_CHARS = 200
_HELD = ("\ue000", "\ue001")  # private-use marks around a held substitution's number


def _hold_substitutions(line: str) -> tuple[str, list[str]]:
    """The line with each command substitution (``$(...)`` with no parenthesis inside, or a
    backquoted command, at most ``_SUBSTITUTION_CHARS``) replaced by a numbered mark, and the
    substitutions: the shell fills each in as one value, so its spaces and parentheses are not
    word or command breaks. One pass over the line."""
    held: list[str] = []
    if _HELD[0] in line or _HELD[1] in line:  # the marks are the paste's own: hold nothing
        return line, held
    out: list[str] = []
    at, dollar, tick = 0, line.find("$("), line.find("`")
    while True:
        # A search runs again only once the reading has passed what it found, so the line is
        # scanned for each mark once.
        if 0 <= dollar < at:
            dollar = line.find("$(", at)
        if 0 <= tick < at:
            tick = line.find("`", at)
        starts = [s for s in (dollar, tick) if s >= 0]
        if not starts:
            break
        start = min(starts)
        closing = ")" if start == dollar else "`"
        first = start + (2 if closing == ")" else 1)
        end = line.find(closing, first, start + _SUBSTITUTION_CHARS)
        if end < 0 or (closing == ")" and "(" in line[first:end]):
            out.append(line[at:first])
            at = first
            continue
        out.append(f"{line[at:start]}{_HELD[0]}{len(held)}{_HELD[1]}")
        held.append(line[start : end + 1])
        at = end + 1
    out.append(line[at:])
    return "".join(out), held


def _shell_words(line: str) -> list[str] | None:
    """The words of a shell line as the shell splits them (quotes removed); None when a quote
    is left open. A command substitution stays inside its word, as the shell keeps it."""
    marked, held = _hold_substitutions(line)
    lexer = shlex.shlex(marked, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        words = list(lexer)
    except ValueError:  # an unbalanced quote
        return None
    if not held:
        return words
    restored: list[str] = []
    for word in words:
        parts = word.split(_HELD[0])
        for part in parts[1:]:
            number, _, rest = part.partition(_HELD[1])
            parts[0] += held[int(number)] + rest
        restored.append(parts[0])
    return restored


def _quoted_command(words: list[str], verb: str) -> str | None:
    """The word that is a whole command quoted for another shell (``ssh host "sudo mount
    ..."``, ``sh -c 'echo ...'``) and runs ``verb``; None when there is none."""
    return next((w for w in words if " " in w and verb in w.split()), None)


def _words(line: str) -> list[str] | None:
    """The arguments of the ``mount`` command in a line, wherever the command starts (after a
    prompt, sudo, ``if`` or a list number) and up to where it ends (``;``, ``&&``, ``|``, a
    parenthesis: what follows is another command or a remark)."""
    words = _shell_words(_placeholders_as_words(line))
    if words is None:  # an unbalanced quote: not a command we can read
        return None
    # A prompt of several words ("[root@db1 ~]#"): everything up to its last word goes.
    prompt_end = next(
        (at for at, word in enumerate(words[:3]) if word[-1:] in ("$", "#", "%", ">")), None
    )
    if prompt_end is not None:
        words = words[prompt_end + 1 :]
    if not any(word.rsplit("/", 1)[-1] == "mount" for word in words):
        # A command run elsewhere and quoted whole (ssh host "sudo mount ...", sh -c '...'):
        # its one quoted word is read as the command.
        inner = _quoted_command(words, "mount")
        return _words(inner) if inner is not None else None
    for index, word in enumerate(words):
        if word.rsplit("/", 1)[-1] != "mount":
            if _is_prefix(word):
                continue
            return None
        args: list[str] = []
        for arg in words[index + 1 :]:
            if all(char in _PUNCTUATION for char in arg):
                break
            args.append(arg)
        return args
    return None


# Quotes a web page prints in place of the shell's: read as word breaks, since a pasted command
# with one left open (a left single quote before echo, as published) would otherwise not be
# read at all.
_TYPOGRAPHIC_QUOTES = str.maketrans("\u2018\u2019\u201c\u201d", "    ")


def _echoed_entry(line: str, depth: int = 0) -> tuple[str, str, list[str]] | None:
    """The NFS fstab line an ``echo`` writes: its device, mount point and options."""
    words = _shell_words(_placeholders_as_words(line).translate(_TYPOGRAPHIC_QUOTES))
    if words is None:
        return None
    at = next((i for i, word in enumerate(words) if word.rsplit("/", 1)[-1] == "echo"), None)
    if at is None:
        # sh -c 'echo … >> /etc/fstab': the quoted command is one word.
        inner = _quoted_command(words, "echo")
        return _echoed_entry(inner, depth + 1) if inner is not None and depth < 2 else None
    written: list[str] = []
    for word in words[at + 1 :]:
        if word.startswith(">") or all(char in _PUNCTUATION for char in word):
            break  # the redirection or pipe to the file, or the next command
        written.append(word)
    fields = " ".join(written).split()
    while fields and fields[0] in ("-e", "-n", "-E"):
        fields = fields[1:]
    if (
        len(fields) < 3
        or fields[2] not in NFS_TYPES
        or ":" not in fields[0][1:-1]
        or not fields[1].startswith(("/", "$"))  # a path, or the variable a script set it in
    ):
        return None
    return fields[0], fields[1], fstab_options(fields, 3) or ["defaults"]


def _read(args: list[str]) -> tuple[str | None, list[str], list[str], str | None]:
    """The type, the options, the positional words and the AIX node of one mount command."""
    fstype: str | None = None
    node: str | None = None
    options: list[str] = []
    positional: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        following = args[index + 1] if index + 1 < len(args) else None
        if word in _WITH_VALUE and following is not None:
            if word in ("-t", "--types", "-F"):
                fstype = following
            elif word in ("-o", "--options"):
                options += [o for o in following.split(",") if o]
            index += 2
            continue
        if word in ("-v", "-n") and following is not None and not following.startswith("-"):
            # AIX: -v VFS and -n NODE take a value; elsewhere -v (verbose) and -n (no mtab) do
            # not, so a value is taken only where it reads as one.
            if word == "-v" and following in NFS_TYPES:
                fstype = following
                index += 2
                continue
            if word == "-n" and len(args) - index - 2 >= 2:
                node = following
                index += 2
                continue
        if word[:2] in ("-t", "-F") and len(word) > 2:
            fstype = word[2:]
        elif word.startswith("-o") and len(word) > 2:
            options += [o for o in word[2:].split(",") if o]
        elif word == "-r":
            options.append("ro")
        elif not word.startswith("-"):
            positional.append(word)
        index += 1
    return fstype, options, positional, node


def _options_line(physical: list[str], number: int) -> int:
    """The line of a command continued over several lines that holds its options (``-o …``
    after the ``mount`` word): what a finding on them asks to change, as an AIX stanza's
    options line is. The command's first line when no line does."""
    seen_mount = False
    at = number
    while at <= len(physical):
        for word in physical[at - 1].split():
            if word.rsplit("/", 1)[-1] == "mount":
                seen_mount = True
            elif seen_mount and (word in ("-o", "--options") or word.startswith("-o")):
                return at
        if not continues(physical[at - 1].strip()):
            break
        at += 1
    return number


@reads_long_lines_as_blank
def parse_mount_commands(text: str) -> Parsed[MountEntry]:
    result: Parsed[MountEntry] = Parsed()
    physical = text.splitlines()
    for number, line in joined_lines(text, comments=True):
        args = _words(line) if "mount" in line else None  # shlex only where it can help
        if args is None:
            echoed = _echoed_entry(line) if "echo" in line else None
            if echoed is None:
                result.ignored.append(number)
            else:
                device, point, options = echoed
                result.items.append(MountEntry(number, device, point, options, for_fstab=True))
            continue
        fstype, options, positional, node = _read(args)
        if len(positional) != 2:
            result.ignored.append(number)
            continue
        source, point = positional
        if node is not None and source.startswith("/"):
            source = f"{node}:{source}"
        remote = ":" in source and not source.startswith("/")
        if (fstype is not None and fstype not in NFS_TYPES) or not remote:
            result.ignored.append(number)
            continue
        at = _options_line(physical, number) if options else number
        result.items.append(MountEntry(at, source, point, options or ["defaults"]))
    return result

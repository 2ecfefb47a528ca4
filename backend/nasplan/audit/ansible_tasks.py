"""Ansible tasks that mount NFS, read as the /etc/fstab lines they write.

A task of the mount module (``ansible.posix.mount``, ``ansible.builtin.mount`` or ``mount``,
its arguments as a mapping or as ``key=value`` words) with an NFS ``fstype`` and a state that
leaves a mount (anything but ``absent``, ``absent_from_fstab`` and ``unmounted``) is an fstab line:
``src``, ``path`` (``name`` in older playbooks), ``opts``. Variables the paste itself sets
(``name: value`` in a vars file or a ``vars:`` block, a list for a loop) are filled in where a
value is exactly ``{{ name }}``; anything else in braces stays as written, and the audit treats
it as set elsewhere. A loop (``loop``, ``with_items``) over a list the paste holds gives one line
per item. A finding names the line of the task's ``opts`` (the line to change).

The text is read by PyYAML's safe composer, which builds no Python object from a tag; it is
recursive, so a text nested deeper than Python's recursion limit is not read (an error, caught).
Nodes are walked once each (aliases included), with an explicit stack.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from nasplan.audit.commands import NFS_TYPES
from nasplan.audit.parsers import MountEntry, Parsed, reads_long_lines_as_blank, split_options

MOUNT_MODULES = ("mount", "ansible.posix.mount", "ansible.builtin.mount")
# States that leave no mount; ephemeral and remounted mount now but write no fstab line.
_NO_MOUNT = {"absent", "absent_from_fstab", "unmounted"}
_NOT_AT_BOOT = {"ephemeral", "remounted"}
_LOOPS = ("loop", "with_items", "with_list")


@reads_long_lines_as_blank
def parse_ansible_mounts(text: str) -> Parsed[MountEntry]:
    result: Parsed[MountEntry] = Parsed()
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError):
        return result
    nodes = list(_walk([d for d in documents if d is not None]))
    variables = _variables(nodes)
    for node in nodes:
        for task_args, line in _mount_args(node):
            for item in _loop_items(node, variables):
                entry = _entry(task_args, line, variables, item)
                if entry is not None:
                    result.items.append(entry)
    return result


def _walk(roots: list[Node]) -> Iterator[Node]:
    """Every node once, however often aliases repeat it."""
    seen: set[int] = set()
    stack = list(reversed(roots))
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        if isinstance(node, MappingNode):
            stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
        elif isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))


def _variables(nodes: list[Node]) -> dict[str, str | list[str]]:
    """``name: value`` pairs of the paste, the first of each name: a scalar, or a list of
    scalars (what a loop runs over)."""
    found: dict[str, str | list[str]] = {}
    for node in nodes:
        if not isinstance(node, MappingNode):
            continue
        for key, value in node.value:
            if not isinstance(key, ScalarNode) or not key.value.isidentifier():
                continue
            if isinstance(value, ScalarNode):
                found.setdefault(key.value, str(value.value))
            elif isinstance(value, SequenceNode) and all(
                isinstance(n, ScalarNode) for n in value.value
            ):
                found.setdefault(key.value, [str(n.value) for n in value.value])
    return found


def _mount_args(task: Node) -> Iterator[tuple[dict[str, str], int]]:
    """The arguments of a mount-module task, and the line its options are on."""
    if not isinstance(task, MappingNode):
        return
    for key, value in task.value:
        if not (isinstance(key, ScalarNode) and key.value in MOUNT_MODULES):
            continue
        if isinstance(value, MappingNode):
            args = {
                k.value: str(v.value)
                for k, v in value.value
                if isinstance(k, ScalarNode) and isinstance(v, ScalarNode)
            }
            opts = next((v for k, v in value.value if getattr(k, "value", None) == "opts"), None)
            yield args, (opts or value).start_mark.line + 1
        elif isinstance(value, ScalarNode):  # mount: path=/u02 src=nas:/d fstype=nfs opts=...
            try:
                words = shlex.split(str(value.value))
            except ValueError:
                continue
            pairs = (w.partition("=") for w in words)
            yield {k: v for k, sep, v in pairs if sep}, value.start_mark.line + 1


def _loop_items(task: Node, variables: dict[str, str | list[str]]) -> list[str | None]:
    """What ``{{ item }}`` stands for in each run of the task (None: no loop the paste sets)."""
    if not isinstance(task, MappingNode):
        return [None]
    for key, value in task.value:
        if not (isinstance(key, ScalarNode) and key.value in _LOOPS):
            continue
        if isinstance(value, ScalarNode):
            named = variables.get(_template_name(str(value.value)) or "")
            return list(named) if isinstance(named, list) and named else [None]
        if isinstance(value, SequenceNode):
            items: list[str | None] = []
            for node in value.value:
                if not isinstance(node, ScalarNode):
                    return [None]
                named = variables.get(_template_name(str(node.value)) or "")
                if isinstance(named, list):  # with_items: ['{{ a_list }}'] runs over the list
                    items.extend(named)
                else:
                    items.append(str(node.value))
            return items or [None]
    return [None]


def _template_name(text: str) -> str | None:
    """``name`` when the text is exactly ``{{ name }}``."""
    inner = text.strip()
    if not (inner.startswith("{{") and inner.endswith("}}")):
        return None
    name = inner[2:-2].strip()
    return name if name.isidentifier() else None


def _filled(text: str, variables: dict[str, str | list[str]], item: str | None) -> str:
    """The text with each ``{{ name }}`` the paste sets (or the loop's ``item``) filled in."""
    out: list[str] = []
    at = 0
    while (start := text.find("{{", at)) >= 0:
        end = text.find("}}", start + 2)
        if end < 0:
            break
        name = text[start + 2 : end].strip()
        value = item if name == "item" else variables.get(name)
        out.append(text[at:start])
        if isinstance(value, str) and "{{" not in value:
            out.append(value)
        else:
            out.append(text[start : end + 2])
        at = end + 2
    out.append(text[at:])
    return "".join(out)


def _entry(
    args: dict[str, str], line: int, variables: dict[str, str | list[str]], item: str | None
) -> MountEntry | None:
    def arg(name: str) -> str:
        return _filled(args.get(name, ""), variables, item).strip()

    fstype = arg("fstype")
    point = arg("path") or arg("name")
    source = arg("src")
    state = arg("state")
    if fstype not in NFS_TYPES or not point or not source or state in _NO_MOUNT:
        return None
    options = split_options(arg("opts")) or ["defaults"]
    return MountEntry(line, source, point, options, for_fstab=state not in _NOT_AT_BOOT)

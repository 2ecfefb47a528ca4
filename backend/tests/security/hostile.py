"""A corpus of hostile strings, each with a short label, and the canary that detects execution.

Every string that could run something names the command ``nasplan_canary`` (with its label as
argument) and/or touches the CANARY file. The tests put a directory first in PATH whose
``nasplan_canary`` (and ``touch``, ``id``, ``rm``, ``curl``, ``wget`` ...) record each call in a
log, so any execution of hostile text is seen whether it happens in a shell script, in an
Ansible ``pipe`` lookup or anywhere else. The marker ``nasplan_canary`` is letters and an
underscore only, so it survives the sanitising of free text and can be looked for in files.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

MARK = "nasplan_canary"
CANARY_DIR = Path(tempfile.gettempdir()) / f"nasplan-canary-{os.getuid()}-{os.getpid()}"
CANARY = CANARY_DIR / "CANARY"
CANARY_LOG = CANARY_DIR / "calls.log"


@dataclass(frozen=True)
class Hostile:
    label: str
    text: str
    kind: str


def _c(label: str) -> str:
    """The canary command for one string: `nasplan_canary <label>`."""
    return f"{MARK} {label}"


_T = f"touch {CANARY}"

CORPUS: list[Hostile] = [
    # ---- shell
    Hostile("cmd-subst", f"$({_c('cmd-subst')}; {_T})", "shell"),
    Hostile("backticks", f"`{_c('backticks')}`", "shell"),
    Hostile("semicolon", f"x; {_c('semicolon')}; {_T}", "shell"),
    Hostile("single-quote", f"O'Brien'; {_c('single-quote')} '", "shell"),
    Hostile("double-quote", f'x"; {_c("double-quote")}; echo "', "shell"),
    Hostile("backslash", f"a\\'; {_c('backslash')} \\", "shell"),
    Hostile("and-pipe", f"x && {_c('and')} | {_c('pipe')} || {_T}", "shell"),
    Hostile("param-expansion", f"${{PATH}}${{IFS}}{_c('param')}", "shell"),
    # ---- Jinja / Ansible
    Hostile("jinja-lookup", f"{{{{ lookup('pipe','{_c('jinja-lookup')}; {_T}') }}}}", "jinja"),
    Hostile("jinja-comment-id", "x #}{{ lookup('pipe','id') }}{# " + MARK, "jinja"),
    Hostile(
        "jinja-comment-canary", f"#}}{{{{ lookup('pipe','{_c('jinja-comment')}') }}}}{{#", "jinja"
    ),
    Hostile("jinja-raw", f"{{% raw %}}{MARK} raw {{% endraw %}}", "jinja"),
    Hostile("jinja-stmt-open", f"{{% {MARK} stmt", "jinja"),
    Hostile("jinja-stmt-lookup", f"{{% set x = lookup('pipe','{_c('jinja-stmt')}') %}}", "jinja"),
    # ---- YAML
    Hostile("yaml-colon", f"key: {MARK} colon", "yaml"),
    Hostile("yaml-dash", f"- {MARK} dash", "yaml"),
    Hostile("yaml-tag", f"!!python/object/apply:os.system ['{_c('yaml-tag')}']", "yaml"),
    Hostile("yaml-anchor", f"&a [{MARK}] *a", "yaml"),
    Hostile("yaml-hash", f"# {MARK} hash", "yaml"),
    Hostile("yaml-flow", f"{{ {MARK}: [a, b] }}", "yaml"),
    # ---- SQL
    Hostile("sql-drop", f"'; DROP TABLE x; -- {MARK}", "sql"),
    Hostile("sql-comment-end", f"*/ {MARK} sql /*", "sql"),
    # ---- HTML / Markdown
    Hostile("html-script", f"</script><script>alert(1)</script>{MARK}", "html"),
    Hostile("html-img", f"<img src=x onerror=alert(1)>{MARK}", "html"),
    Hostile("html-attr", f'" onmouseover="alert(1)" {MARK}', "html"),
    Hostile("md-link", f"[{MARK}](javascript:alert(1)) <!--", "html"),
    # ---- paths
    Hostile("path-traversal", f"../../etc/{MARK}", "path"),
    Hostile("path-backslash", f"..\\..\\{MARK}", "path"),
    Hostile("path-absolute", f"/etc/{MARK}", "path"),
    # ---- control characters and odd Unicode
    Hostile("newline", f"x\n{_c('newline')}\n# ", "control"),
    Hostile("heredoc-end", f"x\nNASPLAN_EOF\n{_c('heredoc')}\nNASPLAN_EOF\n", "control"),
    Hostile("carriage-return", f"x\r{_c('cr')}", "control"),
    Hostile("line-separator", f"x\u2028{_c('u2028')}\u2029y", "control"),
    Hostile("next-line", f"x\x85{_c('nel')}", "control"),
    Hostile("nul", f"x\x00{_c('nul')}", "control"),
    Hostile("escapes", f"x\x1b[2J\x07\x08\x0b\x0c\x7f{MARK}", "control"),
    Hostile("rtl-override", f"\u202e{MARK} gpj.exe\u202c", "unicode"),
    Hostile("zero-width", f"\u200b{MARK}\ufeff\u200d", "unicode"),
    Hostile("long", f"{MARK} " + "A" * 10_000, "long"),
]

BY_LABEL: dict[str, Hostile] = {h.label: h for h in CORPUS}
assert len(BY_LABEL) == len(CORPUS), "labels must be unique"

# A representative subset for the fields that are cheaper to cover less thoroughly.
SUBSET_LABELS = [
    "cmd-subst",
    "single-quote",
    "jinja-lookup",
    "jinja-comment-canary",
    "yaml-tag",
    "sql-drop",
    "html-script",
    "path-traversal",
    "heredoc-end",
    "nul",
]
SUBSET: list[Hostile] = [BY_LABEL[label] for label in SUBSET_LABELS]

# The few strings worth a full `ansible-playbook --check` run.
WORST_LABELS = ["jinja-lookup", "jinja-comment-id", "jinja-comment-canary", "jinja-stmt-lookup"]
WORST: list[Hostile] = [BY_LABEL[label] for label in WORST_LABELS]

# For the import test: the strings most likely to do harm in a plan field.
IMPORT_LABELS = ["cmd-subst", "jinja-lookup", "heredoc-end", "path-backslash"]
IMPORT_SET: list[Hostile] = [BY_LABEL[label] for label in IMPORT_LABELS]

# Commands the shim directory replaces with a recorder: nothing a dry run should call with
# hostile arguments (the recorder only logs; it never does what the real command does).
RECORDED = [
    MARK,
    "touch",
    "id",
    "rm",
    "curl",
    "wget",
    "nc",
    "reboot",
    "halt",
    "shutdown",
    "dd",
    "mkfs",
    "chmod",
    "chown",
]
# Commands that would touch the network or the system: inert in tests (print nothing, exit 0).
INERT = [
    "ping",
    "traceroute",
    "ethtool",
    "nfsstat",
    "netstat",
    "mount",
    "umount",
    "make",
    "ndd",
    "ifconfig",
    "ip",
    "lsattr",
    "chdev",
    "nfso",
    "no",
    "kctune",
    "dladm",
    "ipadm",
    "nmcli",
    "pgrep",
    "sqlplus",
]

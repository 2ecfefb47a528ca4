"""The bundle's filer commands, translated to what a Linux kernel NFS server can stand in for.

Only what has a Linux meaning is translated: the export rules (client match, read/write,
superuser), the volumes' junction paths, the server's largest TCP transfer and the ports' MTU.
Everything else in the filer file (aggregates, snapshot policies, sizes) is left to the real
filer and listed as not proven.
"""

from __future__ import annotations

import ipaddress
import re
import shlex
from dataclasses import dataclass, field

# ONTAP 9's NFS server answers with at most 64 KiB per TCP transfer unless
# `vserver nfs modify -tcp-max-xfer-size` raises it (7-mode: `options nfs.tcp.xfersize`); the
# lab server starts from the same value.
ONTAP_DEFAULT_XFER = 65536
STANDARD_MTU = 1500
_PLACEHOLDER = re.compile(r"^<([a-z0-9-]+)>$")


@dataclass(frozen=True)
class ExportRule:
    client: str
    read_write: bool
    root: bool


@dataclass
class FilerSetup:
    """What the lab's NFS server does, and how each part was read from the bundle."""

    exports: dict[str, list[ExportRule]] = field(default_factory=dict)
    max_xfer: int = ONTAP_DEFAULT_XFER
    mtu: int = STANDARD_MTU
    filled: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def exports_text(self) -> str:
        lines = []
        for path, rules in sorted(self.exports.items()):
            clients = " ".join(
                f"{r.client}({'rw' if r.read_write else 'ro'},sync,no_subtree_check,"
                f"{'no_root_squash' if r.root else 'root_squash'})"
                for r in rules
            )
            lines.append(f"{path} {clients}" if clients else f"# {path}: no client may mount it")
        return "\n".join(lines) + "\n"


def _options(tokens: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for i, token in enumerate(tokens[:-1]):
        if token.startswith("-"):
            found[token[1:]] = tokens[i + 1]
    return found


def _client(value: str, subnets: dict[str, str], setup: FilerSetup) -> str:
    """A client match as the lab's server reads it; placeholders get the lab's own answer."""
    placeholder = _PLACEHOLDER.match(value)
    if placeholder:
        name = placeholder.group(1)
        if name not in subnets:
            raise ValueError(f"the filer file asks for <{name}>, which the lab cannot answer")
        setup.filled.append(f"<{name}> = {subnets[name]}")
        return subnets[name]
    for part in value.split(","):
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.-]*", part):
                raise ValueError(
                    f"client match {value!r} is not an address, network or name"
                ) from None
    return value


def ontap9_setup(commands: str, subnets: dict[str, str]) -> FilerSetup:
    """Read clustered ONTAP CLI lines (filer/commands.txt)."""
    setup = FilerSetup()
    policies: dict[str, list[ExportRule]] = {}
    for raw in commands.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        tokens = shlex.split(line)
        opts = _options(tokens)
        if line.startswith("vserver export-policy rule create"):
            for client in _client(opts["clientmatch"], subnets, setup).split(","):
                policies.setdefault(opts["policyname"], []).append(
                    ExportRule(
                        client=client,
                        read_write=opts.get("rwrule", "never") != "never",
                        root=opts.get("superuser", "none") != "none",
                    )
                )
        elif line.startswith("volume create") and "junction-path" in opts:
            setup.exports[opts["junction-path"]] = policies.get(opts.get("policy", "default"), [])
        elif line.startswith("vserver nfs modify") and "tcp-max-xfer-size" in opts:
            setup.max_xfer = int(opts["tcp-max-xfer-size"])
        elif line.startswith("network port broadcast-domain modify") and "mtu" in opts:
            setup.mtu = int(opts["mtu"])
    if not setup.exports:
        raise ValueError("the filer file creates no volume with a junction path")
    return setup


def seven_mode_setup(commands: str, subnets: dict[str, str]) -> FilerSetup:
    """Read Data ONTAP 7-mode console lines (filer/commands.txt)."""
    setup = FilerSetup()
    for raw in commands.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        tokens = shlex.split(line)
        if tokens[:2] == ["exportfs", "-p"] and len(tokens) == 4:
            access = dict(part.split("=", 1) for part in tokens[2].split(",") if "=" in part)
            # 7-mode separates the hosts of one list with colons.
            writers = [_client(c, subnets, setup) for c in access.get("rw", "").split(":") if c]
            root = [_client(c, subnets, setup) for c in access.get("root", "").split(":") if c]
            setup.exports[tokens[3]] = [
                ExportRule(client, read_write=True, root=client in root) for client in writers
            ]
        elif tokens[:2] == ["options", "nfs.tcp.xfersize"] and len(tokens) == 3:
            setup.max_xfer = int(tokens[2])
        elif tokens[0] == "ifconfig" and "mtusize" in tokens:
            setup.mtu = int(tokens[tokens.index("mtusize") + 1])
    if not setup.exports:
        raise ValueError("the filer file exports no volume (exportfs -p)")
    return setup


def filer_setup(commands: str, subnets: dict[str, str]) -> FilerSetup:
    """The lab's server for a filer file it can stand in for (clustered ONTAP or 7-mode)."""
    lines = [line.strip() for line in commands.splitlines()]
    if any(line.startswith("volume create") for line in lines):
        return ontap9_setup(commands, subnets)
    if any(line.startswith("exportfs -p") for line in lines):
        return seven_mode_setup(commands, subnets)
    raise ValueError("the lab stands in for clustered ONTAP and 7-mode filer files only")

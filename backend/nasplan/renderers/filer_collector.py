"""The storage team's collector: the read-only filer commands whose output the audit reads.

A filer is not a host the app can hand a script to: its shell is the cluster's (clustered ONTAP,
FSx for ONTAP over SSH as fsxadmin) or the controller's (Data ONTAP 7-mode). So the collector is
a list: each entry names the file to save the output in, the audit kind it is, what it shows,
and the commands, which only show (``show``, ``options nfs`` without a value, ``vol options``
with a volume and no option). The storage administrator runs them in their own session and
pastes each file on the audit page.

The fields asked for are given by the caller, as for the host collector: every key the
knowledge base's rules set for the filer (``KnowledgeBase.setting_keys``) for the list the app
serves, the plan's own, with its SVM, volumes and port, for the one in a bundle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nasplan.renderers.collector import SettingKeys

FilerCollectorFamily = Literal["ontap_cluster", "ontap7"]
FILER_COLLECTOR_FAMILIES: tuple[FilerCollectorFamily, ...] = ("ontap_cluster", "ontap7")
# The setting mechanisms whose values the list shows.
COLLECTED_MECHANISMS = frozenset(
    {"ontap_nfs_server", "ontap_volume", "ontap_snapshot_policy", "ontap_port"}
    | {"ontap7_option", "ontap7_vol_option"}
)
_LABELS = {
    "ontap_cluster": "clustered ONTAP (and Amazon FSx for NetApp ONTAP)",
    "ontap7": "Data ONTAP 7-mode",
}


@dataclass(frozen=True)
class FilerCommands:
    file: str
    kind: str
    what: str
    commands: tuple[str, ...]


def _fields(keys: SettingKeys, *mechanisms: str) -> str:
    found = [k for m in mechanisms for k in keys.get(m, [])]
    return ",".join(dict.fromkeys(found))


def filer_commands(
    keys: SettingKeys,
    family: FilerCollectorFamily,
    svm: str = "<svm>",
    volumes: list[str] | None = None,
    port: str | None = None,
) -> list[FilerCommands]:
    """The read-only commands for ``family``, one entry per file to save."""
    if family == "ontap7":
        return _ontap7(keys, volumes)
    entries: list[FilerCommands] = []
    nfs = _fields(keys, "ontap_nfs_server")
    if nfs:
        entries.append(
            FilerCommands(
                "ontap_nfs_server.txt",
                "ontap_fields",
                "the SVM's NFS server settings the rules read (some are advanced-privilege "
                "fields: the first command may ask you to confirm; the last goes back to admin)",
                (
                    "set -privilege advanced",
                    f"vserver nfs show -vserver {svm} -fields {nfs}",
                    "set -privilege admin",
                ),
            )
        )
    volume_fields = _fields(keys, "ontap_volume", "ontap_snapshot_policy")
    if volume_fields:
        names = ",".join(volumes) if volumes else "*"
        entries.append(
            FilerCommands(
                "ontap_volumes.txt",
                "ontap_fields",
                "the database volumes' settings the rules read",
                (f"volume show -vserver {svm} -volume {names} -fields {volume_fields}",),
            )
        )
    port_fields = _fields(keys, "ontap_port")
    if port_fields:
        where = f" -port {port}" if port else ""
        entries.append(
            FilerCommands(
                "ontap_ports.txt",
                "ontap_fields",
                "the network ports' MTU",
                (f"network port show{where} -fields {port_fields}",),
            )
        )
    return entries


def _ontap7(keys: SettingKeys, volumes: list[str] | None) -> list[FilerCommands]:
    entries: list[FilerCommands] = []
    if keys.get("ontap7_option"):
        entries.append(
            FilerCommands(
                "options_nfs.txt",
                "options_nfs",
                "the NFS options (options with a prefix and no value only lists them)",
                ("options nfs",),
            )
        )
    if keys.get("ontap7_vol_option"):
        names = volumes or ["<volume>"]
        entries.append(
            FilerCommands(
                "vol_options.txt",
                "vol_options",
                "each database volume's options"
                + ("" if volumes else " (repeat the command for every database volume)"),
                tuple(f"vol options {name}" for name in names),
            )
        )
    return entries


def filer_collector_text(
    keys: SettingKeys,
    family: FilerCollectorFamily,
    kb_version: str,
    svm: str = "<svm>",
    volumes: list[str] | None = None,
    port: str | None = None,
    header: str | None = None,
) -> str:
    """The list as a text file for the storage administrator; ``header`` (comment lines, a
    bundle's) replaces the first line."""
    entries = filer_commands(keys, family, svm, volumes, port)
    first = f"# nasplan filer collector for {_LABELS[family]} (knowledge base {kb_version})."
    lines = [
        *(header.rstrip("\n").splitlines() if header else [first]),
        "# Read-only: every command below only shows settings; none changes the filer.",
        "# Run each group in your own CLI session, save its output (the command lines and the",
        "# prompt may stay in it) in the file named, and paste each file on nasplan's audit",
        "# page, or give it to `nasplan audit` as a file of the kind named.",
    ]
    if family == "ontap_cluster" and svm == "<svm>":
        lines.append("# Replace <svm> with the SVM that serves the database (FSx: the SVM's name).")
    for number, entry in enumerate(entries, start=1):
        lines += [
            "",
            f"# {number}. {entry.file} (audit kind {entry.kind}): {entry.what}",
            *entry.commands,
        ]
    return "\n".join(lines) + "\n"

"""Mount-table entries in each OS's own format (Solaris vfstab, Linux/HP-UX fstab, AIX stanzas)."""

from __future__ import annotations

from pydantic import BaseModel

from nasplan.domain.plan import Mount, Plan

TABLE_PATHS = {
    "solaris": "/etc/vfstab",
    "linux": "/etc/fstab",
    "hpux": "/etc/fstab",
    "aix": "/etc/filesystems",
}


class MountTableEntry(BaseModel):
    mount_point: str
    text: str


class MountTable(BaseModel):
    path: str
    entries: list[MountTableEntry]


def entry_text(os_name: str, mount: Mount) -> str:
    options = ",".join(mount.options)
    if os_name == "solaris":
        # device  device-to-fsck  mount-point  FS-type  fsck-pass  mount-at-boot  options
        return f"{mount.export}\t-\t{mount.mount_point}\tnfs\t-\tyes\t{options}"
    if os_name == "aix":
        node, _, path = mount.export.partition(":")
        return "\n".join(
            [
                f"{mount.mount_point}:",
                f"\tdev\t\t= {path}",
                "\tvfs\t\t= nfs",
                f"\tnodename\t= {node}",
                "\tmount\t\t= true",
                f"\toptions\t\t= {options}",
                "\taccount\t\t= false",
            ]
        )
    return f"{mount.export}\t{mount.mount_point}\tnfs\t{options}\t0\t0"


def render_mount_table(plan: Plan) -> MountTable:
    os_name = plan.platform.host.os
    return MountTable(
        path=TABLE_PATHS[os_name],
        entries=[
            MountTableEntry(mount_point=m.mount_point, text=entry_text(os_name, m))
            for m in plan.mounts
        ],
    )

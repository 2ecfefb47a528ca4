"""Kernel NFS over several storage paths: each volume mounted through one path's filer address.

A kernel NFS mount travels over one link, even in a link aggregate (NET-MULTIPATH-SCALING), so a
host uses its storage NICs only through mounts to different filer addresses. Where the hand-over
gives the filer's address on at least two paths, the data files get the first path to
themselves and the other volumes share the rest in turn; the mounts of one volume (redo and
control files) stay together. A DSS database, whose scans are what it waits for, has its
datafiles split over a volume per path (Closson's scans scaled with the paths), the other
volumes sharing the paths after the first. Without those addresses every mount goes to the
filer's name, as before, and the finding says what to give.
"""

from __future__ import annotations

from nasplan.domain.plan import Finding, Mount, Volume
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import ResolvedPlatform


def path_addresses(resolved: ResolvedPlatform) -> list[str]:
    """The filer's address on each storage path the host has, in order, as far as the
    hand-over gives them without a gap."""
    platform = resolved.platform
    addresses: list[str] = []
    given = platform.handover.paths if platform.handover is not None else []
    for path in given[: platform.network.nic_count]:
        if path.filer_address is None:
            break
        addresses.append(path.filer_address)
    return addresses


def spread_over_paths(
    kb: KnowledgeBase,
    resolved: ResolvedPlatform,
    volumes: list[Volume],
    mounts: list[Mount],
    rule_id: str,
) -> tuple[list[Volume], list[Mount], list[Finding]]:
    addresses = path_addresses(resolved)
    paths = resolved.platform.network.nic_count
    if len(addresses) < 2:
        ask = Finding(
            severity="info",
            rule=rule_id,
            message="With kernel NFS one mount travels over one link, even in a link "
            f"aggregate: the host's {paths} storage NICs all carry traffic only with mounts to "
            "different filer addresses (Closson saw 223 MB/s over two GbE paths and 329 MB/s "
            "over three). Give the filer's address on each storage path (hand-over) and the "
            "plan mounts the volumes through different paths, the data files on a path of "
            "their own; or use Direct NFS, which uses every path itself.",
        )
        return volumes, mounts, [ask]
    split = resolved.platform.oracle.workload == "dss"
    if split:
        volumes, mounts = _split_datafiles(kb, resolved, volumes, mounts, len(addresses), rule_id)
    data_volumes = [v.name for v in volumes if "data" in v.holds]
    others = [v.name for v in volumes if v.name not in data_volumes]
    path_of: dict[str, int] = {
        name: (index + 1 if split else 1) for index, name in enumerate(data_volumes)
    }
    rest = list(range(2, len(addresses) + 1))
    for index, volume in enumerate(others):
        path_of[volume] = rest[index % len(rest)]
    spread = [
        mount.model_copy(
            update={
                "export": f"{addresses[path_of[mount.volume] - 1]}:"
                f"{mount.export.partition(':')[2]}",
                "path": path_of[mount.volume],
                "rules": list(dict.fromkeys([*mount.rules, rule_id])),
            }
        )
        for mount in mounts
    ]
    where = "; ".join(
        f"path {n} ({addresses[n - 1]}): " + ", ".join(m.mount_point for m in spread if m.path == n)
        for n in range(1, len(addresses) + 1)
        if any(m.path == n for m in spread)
    )
    scan = (
        f"The datafiles are split over {len(data_volumes)} data volumes, one per path, so a "
        "large scan reads over every path at once (a DSS database); spread each tablespace's "
        "files evenly over them."
        if split
        else "A large scan of the data files still travels one path; the other paths carry "
        "the logs and the rest."
    )
    return (
        volumes,
        spread,
        [
            Finding(
                severity="info",
                rule=rule_id,
                message=f"Kernel NFS mounts spread over {len(addresses)} storage paths, each "
                f"volume through one path's filer address: {where}. {scan}",
            )
        ],
    )


def _split_datafiles(
    kb: KnowledgeBase,
    resolved: ResolvedPlatform,
    volumes: list[Volume],
    mounts: list[Mount],
    parts: int,
    rule_id: str,
) -> tuple[list[Volume], list[Mount]]:
    """The datafiles' volume becomes ``parts`` volumes, named by the layout's split
    convention; the first keeps whatever else the volume held (control files)."""
    convention = kb.layout.roles["data"].split
    data = next((v for v in volumes if "data" in v.holds), None)
    lead = next((m for m in mounts if data is not None and m.volume == data.name
                 and "data" in m.serves), None)  # fmt: skip
    if convention is None or data is None or lead is None:
        return volumes, mounts
    family = resolved.filer_family
    db = resolved.platform.layout.db_name
    filer, _, lead_path = lead.export.partition(":")
    subdir = lead_path[len(data.export) :]
    new_volumes: list[Volume] = []
    new_mounts: list[Mount] = []
    for n in range(1, parts + 1):
        name = f"{db.lower()}_{convention.volume_suffix.format(n=n)}"
        export = family.export_prefix + name.replace("_", family.export_separator)
        new_volumes.append(
            data.model_copy(
                update={
                    "name": name,
                    "export": export,
                    "holds": data.holds if n == 1 else ["data"],
                    "split_over": parts,
                    "rules": list(dict.fromkeys([*data.rules, rule_id])),
                }
            )
        )
        new_mounts.append(
            lead.model_copy(
                update={
                    "volume": name,
                    "serves": lead.serves if n == 1 else ["data"],
                    "mount_point": convention.mount_point.format(n=n, db=db),
                    # Only the first volume shares its files with others (a subdirectory each).
                    "export": f"{filer}:{export}{subdir if n == 1 else ''}",
                }
            )
        )
    at = volumes.index(data)
    first = new_volumes[0]
    laid_out: list[Mount] = []
    for mount in mounts:
        if mount is lead:
            laid_out += new_mounts
        elif mount.volume == data.name:
            server, _, path = mount.export.partition(":")
            laid_out.append(
                mount.model_copy(
                    update={
                        "volume": first.name,
                        "export": f"{server}:{first.export}{path[len(data.export) :]}",
                    }
                )
            )
        else:
            laid_out.append(mount)
    return [*volumes[:at], *new_volumes, *volumes[at + 1 :]], laid_out

"""Kernel NFS over several storage paths: each volume mounted through one path's filer address.

A kernel NFS mount travels over one link, even in a link aggregate (NET-MULTIPATH-SCALING), so a
host uses its storage NICs only through mounts to different filer addresses. Where the hand-over
gives the filer's address on at least two paths, the data files get the first path to
themselves and the other volumes share the rest in turn; the mounts of one volume (redo and
control files) stay together. Without those addresses every mount goes to the filer's name, as
before, and the finding says what to give.
"""

from __future__ import annotations

from nasplan.domain.plan import Finding, Mount
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
    resolved: ResolvedPlatform, mounts: list[Mount], rule_id: str
) -> tuple[list[Mount], list[Finding]]:
    addresses = path_addresses(resolved)
    paths = resolved.platform.network.nic_count
    if len(addresses) < 2:
        return mounts, [
            Finding(
                severity="info",
                rule=rule_id,
                message="With kernel NFS one mount travels over one link, even in a link "
                f"aggregate: the host's {paths} storage NICs all carry traffic only with "
                "mounts to different filer addresses (Closson saw 223 MB/s over two GbE paths "
                "and 329 MB/s over three). Give the filer's address on each storage path "
                "(hand-over) and the plan mounts the volumes through different paths, the data "
                "files on a path of their own; or use Direct NFS, which uses every path itself.",
            )
        ]
    volumes = list(dict.fromkeys(m.volume for m in mounts))
    data_volumes = [v for v in volumes if any("data" in m.serves for m in mounts if m.volume == v)]
    others = [v for v in volumes if v not in data_volumes]
    path_of: dict[str, int] = dict.fromkeys(data_volumes, 1)
    rest = list(range(2, len(addresses) + 1))
    for index, volume in enumerate(others):
        path_of[volume] = rest[index % len(rest)]
    spread = [
        mount.model_copy(
            update={
                "export": f"{addresses[path_of[mount.volume] - 1]}:"
                f"{mount.export.partition(':')[2]}",
                "path": path_of[mount.volume],
            }
        )
        for mount in mounts
    ]
    where = "; ".join(
        f"path {n} ({addresses[n - 1]}): " + ", ".join(m.mount_point for m in spread if m.path == n)
        for n in range(1, len(addresses) + 1)
        if any(m.path == n for m in spread)
    )
    return spread, [
        Finding(
            severity="info",
            rule=rule_id,
            message=f"Kernel NFS mounts spread over {len(addresses)} storage paths, each volume "
            f"through one path's filer address: {where}. A large scan of the data files still "
            "travels one path; the other paths carry the logs and the rest.",
        )
    ]

"""What the expectations model says in words: the bottleneck of a path and what would raise it.
The figures come from ``engine/expectations``; this module only words them."""

from __future__ import annotations

from nasplan.domain.figures import rate_words
from nasplan.domain.plan import LatencyPart
from nasplan.domain.platform import Network
from nasplan.engine.path_model import PathModel, figure_value, stack_us
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import ResolvedPlatform

# TR-3322 measured disk-based filers (2004): the era note says a flash filer answers sooner.
_FILER_LIMIT = (
    "In TR-3322's tests (2004, disk-based filers) the filer's disks were the limit; a "
    "flash-based filer may not be."
)


def bottleneck(
    budget: list[LatencyPart],
    single: float,
    ceiling: float,
    serial: bool,
    rtt: float,
    measured: bool,
    client: str,
    scan: float | None,
    service: float | None = None,
    provisioned_throughput: bool = False,
    connection: tuple[float, float, float] | None = None,
    paths: int = 1,
) -> str:
    """``connection``: what a kernel client's one TCP connection carries (the model's figure,
    and the lowest and highest measured), where it is what holds the planned scan back."""
    if service is not None and scan is not None and scan >= service - 0.05:
        if provisioned_throughput:
            return (
                f"Provisioned throughput: the file system's throughput capacity, {service:.0f} "
                "MBps, is less than the client and network could move; a higher throughput "
                "capacity raises it."
            )
        return (
            f"Service level: the provisioned capacity and service level allow about "
            f"{service:.0f} MB/s, less than the client and network could move; a higher level "
            "or more capacity raises it."
        )
    if connection is not None and scan is not None and paths > 1:
        mean, low, high = connection
        return (
            f"One TCP connection per path: the datafiles are mounted through {paths} filer "
            f"addresses, and each mount's requests go over one connection, which carried about "
            f"{rate_words(mean)} at most in the measurements ({low:.0f} to {high:.0f} MB/s), "
            f"below the {rate_words(ceiling)} of a link; together about {rate_words(scan)}. "
            "Direct NFS (connections per process and per path) or, on Linux, nconnect raise it."
        )
    if connection is not None and scan is not None:
        mean, low, high = connection
        return (
            f"One TCP connection: however many requests the kernel NFS client has in flight, they "
            f"all go to the filer over one connection, which carried about {rate_words(mean)} at "
            "most in the measurements "
            f"({low:.0f} to {high:.0f} MB/s), below the {rate_words(ceiling)} of the link; "
            "Direct NFS (connections per process and per path) or, on Linux, nconnect raise it."
        )
    if not serial:
        reach = rate_words(scan) if scan is not None else "the link"
        return (
            f"Link bandwidth: the planned client ({client}) keeps several requests in flight, "
            f"so a large scan can reach about {reach} ({rate_words(ceiling)} per link); more "
            f"links (Direct NFS paths) or faster NICs raise it. {_FILER_LIMIT}"
        )
    if single >= ceiling - 0.05:
        return (
            f"NIC bandwidth: one stream fills the {rate_words(ceiling)} payload ceiling of a "
            f"link; a faster NIC raises it. {_FILER_LIMIT}"
        )
    if measured:
        largest = "the measured round trip"
    else:
        top = max(budget, key=lambda part: part.us)
        largest = f"{top.part} ({top.us:.0f} of {rtt:.0f} µs)"
    if scan is not None and scan >= ceiling - 0.05:
        return (
            f"NIC bandwidth: parallel streams fill the {rate_words(ceiling)} payload ceiling of a "
            f"link, though one stream alone gets {single:.1f} MB/s: a serial client waits out "
            f"every round trip, and the largest part of it is {largest}. A faster NIC raises "
            f"the first, a shorter round trip the second. {_FILER_LIMIT}"
        )
    parallel = f"; many parallel streams reach about {rate_words(scan)}" if scan is not None else ""
    return (
        f"Round-trip latency: a serial client waits out every round trip, so one stream gets "
        f"{single:.1f} of {ceiling:.0f} MB/s{parallel}; the largest part of the round trip is "
        f"{largest}."
    )


def improvements(
    kb: KnowledgeBase,
    resolved: ResolvedPlatform,
    path: PathModel,
    transfer: int,
    single: float,
    serial: bool,
) -> list[str]:
    net = resolved.platform.network
    oracle = resolved.platform.oracle
    ideas: list[str] = []
    if not resolved.filer_family.managed_network:
        ideas += _network_improvements(kb, path, transfer, net)
    if serial and resolved.oracle_version.major >= 11:
        ideas.append(
            "Direct NFS: each Oracle process keeps its own connection and requests overlap, so "
            "one scan is no longer bound to one round trip per request."
        )
    if serial and oracle.workload in ("dss", "mixed"):
        ideas.append(
            "Parallel Query for full scans: TR-3496 cut scan time by up to 94% at degree 32."
        )
    if single < path.ceiling_mb_s() * 0.5 and transfer <= 32768 and not serial:
        ideas.append("Larger rsize (where the filer allows): more bytes per round trip.")
    return ideas


def _network_improvements(
    kb: KnowledgeBase, path: PathModel, transfer: int, net: Network
) -> list[str]:
    """Ideas for a network the operator builds: none apply to a managed cloud service's path."""
    inputs = kb.expectations
    ideas: list[str] = []
    if not net.jumbo_frames:
        jumbo = PathModel(inputs, net.nic_gbps, int(figure_value(inputs.frame.jumbo_mtu.value)))
        reply = transfer + figure_value(inputs.frame.nfs_read_reply_8k_bytes.value) - 8192
        saving = (path.wire_us(reply) - jumbo.wire_us(reply)) + (
            stack_us(inputs, False) - stack_us(inputs, True)
        )
        ideas.append(
            f"Jumbo frames (MTU 9000 end to end): about {saving:.0f} µs off each round trip; "
            "TR-3496 measured 25% more OLTP throughput with them."
        )
    if net.router_hops:
        ideas.append(
            f"Keep NFS on one layer-2 network: each router adds 300-500 µs "
            f"({net.router_hops} on this path)."
        )
    if net.switch == "hub":
        ideas.append("Replace the hub with a switch: a hub shares the medium and collides.")
    elif net.switch == "store_and_forward" and net.nic_gbps >= 10 and net.switch_hops:
        ideas.append("Cut-through switches: 0.3-0.5 µs per hop instead of 5-35 µs at 10GbE.")
    if net.switch_hops > 1:
        ideas.append(f"Fewer switches between host and filer ({net.switch_hops} now).")
    if net.nic_gbps == 1:
        ideas.append("10GbE: wire time per 8 KB drops from about 80 µs to about 8 µs.")
    return ideas

"""What to expect from the network path: the model and its formulas.

All figures come from ``knowledge/model/expectations.yaml``, each with its source.

Notation: ``G`` NIC speed in Gb/s, ``M`` MTU in bytes, ``H = 52`` IPv4+TCP header bytes with
timestamps, ``E = 38`` Ethernet bytes per frame outside the IP packet (preamble, header, FCS,
inter-frame gap), ``R = 132`` RPC/NFS header bytes of a read reply.

* Wire time of ``n`` bytes of TCP data:
  ``segments = ceil(n / (M - H))``; ``wire_us(n) = (n + segments * (H + E)) * 8 / (G * 1000)``.
  8 KB on 1GbE, MTU 1500: 6 segments, 70.9 us (the slides say ~80 us; 10GbE: ~8 us).
* NIC payload ceiling (MB/s, 10^6 bytes): ``G * 1e9 / 8 * (M - H) / (M + E) / 1e6``;
  1GbE at MTU 1500 gives 117.7 MB/s (Closson: 114-118 MB/s).
* NFS stack share of one 8 KB read (client + server, without wire), derived from the slides:
  ``stack_us = overhead_8k - reference_wire_8k``: 200 - 80 = 120 us with jumbo frames,
  350 - 80 = 270 us without (the slides do the same: 200 us on 1GbE is 128 us on 10GbE).
* Round trip of one read of ``t`` bytes (``t`` = rsize after caps, or the client's request
  size limit on old Solaris):
  ``rtt = wire_us(t + R) + switch_hops * switch_us(kind, G) + router_hops * router_us + stack_us``;
  ``network.rtt_us`` replaces it when given.
* Single stream, one request in flight (contract): ``min(t / rtt_us, ceiling)`` MB/s;
  Closson's checkpoints: 32 KB at 600 us -> ~53 MB/s, 2 ms -> ~16, 5 ms -> ~6.
* 8 KB overhead vs local disk: ``wire_us(8324) + stack + hops``, against 7 ms.
* TCP window needed (bandwidth-delay product): ``G * 1e9 / 8 * rtt_s`` bytes; the slides'
  "2 x latency x throughput" is the same with one-way latency.
* Several paths: ``nic_count * ceiling * 0.97`` (223 -> 329 MB/s over 2 -> 3 GbE paths).
* The planned client's large parallel scan (``planned_scan_mb_s``):
  Direct NFS fills its paths, ``paths * ceiling * (0.97 if paths > 1)``; a kernel client that
  keeps requests in flight (Linux) fills the one link its mount uses, ``ceiling``; a serial kernel
  client on Solaris reaches ``max(single, 0.393 * ceiling)`` with many parallel streams (Fawcett:
  16.18 s vs 6.36 s for the same scan); AIX and HP-UX serial clients were not measured (None).
  Fawcett's lab (Solaris 10 u8, one 10GbE link, MTU 1500): model 1176.9 MB/s with Direct NFS
  against 1140 measured (+3%), 462.5 with kernel NFS against 448 (+3%).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from packaging.version import Version

from nasplan.domain.figures import rate_words
from nasplan.domain.plan import Expectations, LatencyPart, LatencyPartName
from nasplan.domain.platform import Network
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import ExpectationInputs
from nasplan.knowledge.resolve import ResolvedPlatform

# TR-3322 measured disk-based filers (2004): the era note says a flash filer answers sooner.
_FILER_LIMIT = (
    "In TR-3322's tests (2004, disk-based filers) the filer's disks were the limit; a "
    "flash-based filer may not be."
)

SERIAL_CLIENT_OS = frozenset({"solaris", "aix", "hpux"})
MIB = 1_048_576


@dataclass(frozen=True)
class PathModel:
    inputs: ExpectationInputs
    gbps: int
    mtu: int

    @property
    def header(self) -> float:
        return self.inputs.frame.ip_tcp_header_bytes.value or 0

    @property
    def framing(self) -> float:
        return self.header + (self.inputs.frame.ethernet_overhead_bytes.value or 0)

    def wire_us(self, nbytes: float) -> float:
        segments = math.ceil(nbytes / (self.mtu - self.header))
        return (nbytes + segments * self.framing) * 8 / (self.gbps * 1000)

    def ceiling_mb_s(self) -> float:
        ethernet = self.inputs.frame.ethernet_overhead_bytes.value or 0
        return self.gbps * 1e9 / 8 * (self.mtu - self.header) / (self.mtu + ethernet) / 1e6


def _value(fig_value: float | None) -> float:
    assert fig_value is not None
    return fig_value


def stack_us(inputs: ExpectationInputs, jumbo: bool) -> float:
    overhead = inputs.nfs_overhead_8k_us
    total = _value(overhead.jumbo.value if jumbo else overhead.standard.value)
    return total - _value(overhead.reference_wire_8k_1gbe.value)


def switch_hop_us(inputs: ExpectationInputs, kind: str, gbps: int) -> tuple[float, str | None]:
    if kind == "hub":
        return 0.0, "Hub latency is not modelled: a hub shares the medium, so collisions dominate."
    table = (
        inputs.switch_hop_us.store_and_forward
        if kind == "store_and_forward"
        else (inputs.switch_hop_us.cut_through)
    )
    speed = 1 if gbps == 1 else 10
    note = None
    if gbps > 10:
        note = (
            f"The sources give switch latencies for 1GbE and 10GbE only; the 10GbE figure is "
            f"used for {gbps}GbE (an upper bound: faster links serialise frames sooner)."
        )
    return _value(table[speed].value), note


def transfer_size(
    resolved: ResolvedPlatform, rsize: int, direct_io: bool
) -> tuple[int, str | None]:
    """Bytes one synchronous read puts on the wire, given the client release."""
    if resolved.platform.host.os != "solaris":
        return rsize, None
    key = resolved.os_key
    if key.major < 9:
        return min(rsize, 8192), (
            "Solaris before 9 splits large synchronous I/O into 8 KB page-size requests "
            "whatever the mount options (TR-3322, Enhancement in Solaris 9)."
        )
    if key < Version("9.5"):
        if not direct_io:
            return min(rsize, 8192), (
                "Solaris 9 before MU5 splits cached I/O into 8 KB requests; only forcedirectio "
                "sends larger ones (TR-3322)."
            )
        return min(rsize, 32768), (
            "Solaris 9 before MU5 sends direct I/O up to 32 KB per request (TR-3322)."
        )
    return rsize, None


def compute(
    kb: KnowledgeBase,
    resolved: ResolvedPlatform,
    rsize: int,
    direct_io: bool,
    rules: list[str],
    dnfs_paths: int = 1,
) -> Expectations:
    inputs = kb.expectations
    net = resolved.platform.network
    oracle = resolved.platform.oracle
    jumbo_mtu = int(_value(inputs.frame.jumbo_mtu.value))
    std_mtu = int(_value(inputs.frame.standard_mtu.value))
    path = PathModel(inputs, net.nic_gbps, jumbo_mtu if net.jumbo_frames else std_mtu)
    assumptions: list[str] = [
        "The read request's own wire time is left out (it is a few hundred bytes).",
        "Switch latency is counted once per switch per round trip.",
        " ".join(inputs.era_note.split()),
    ]

    transfer, transfer_note = transfer_size(resolved, rsize, direct_io)
    if transfer_note:
        assumptions.append(transfer_note)
    reply_overhead = _value(inputs.frame.nfs_read_reply_8k_bytes.value) - 8192
    wire = path.wire_us(transfer + reply_overhead)
    per_switch, switch_note = switch_hop_us(inputs, net.switch, net.nic_gbps)
    if switch_note:
        assumptions.append(switch_note)
    switches = net.switch_hops * per_switch
    routers = net.router_hops * _value(inputs.router_hop_us.value)
    server = stack_us(inputs, net.jumbo_frames)
    modelled_rtt = wire + switches + routers + server
    rtt = net.rtt_us if net.rtt_us is not None else modelled_rtt

    ceiling = path.ceiling_mb_s()
    single = min(transfer / rtt, ceiling)
    serial = not oracle.dnfs and resolved.platform.host.os in SERIAL_CLIENT_OS
    nic_count = net.nic_count
    linearity = _value(inputs.multipath_linearity.value) if nic_count > 1 else 1.0
    aggregate = ceiling * nic_count * linearity
    overhead_8k = (
        path.wire_us(_value(inputs.frame.nfs_read_reply_8k_bytes.value))
        + server
        + switches
        + routers
    )
    disk = _value(inputs.disk_read_8k_us.value)
    window = int(net.nic_gbps * 1e9 / 8 * rtt / 1e6)
    client, scan = _planned_client(inputs, resolved, ceiling, serial, dnfs_paths, linearity)
    if scan is not None:
        scan = max(scan, single)  # parallel streams never do worse than one stream
    service = _service_ceiling(resolved)
    if service is not None:
        filer = resolved.platform.filer
        assumptions.append(
            f"The file system's provisioned throughput capacity is {service:.0f} MBps per HA "
            "pair; AWS derives the file server's network and disk throughput from it, and "
            "nasplan takes it as the ceiling for all clients together."
            if filer.throughput_mb_s is not None
            else f"The {filer.service_level} service level allows about {service:.0f} MB/s for "
            f"{filer.capacity_tib:g} TiB of provisioned capacity; no client gets more from the "
            "service."
        )
        if scan is not None:
            scan = min(scan, service)
    if serial and scan is not None:
        assumptions.append(
            "Parallel scans on this serial kernel client: the share of a link Solaris 10 u8 "
            "reached in Fawcett's lab (16.18 s against 6.36 s with Direct NFS)."
        )

    parts: list[tuple[LatencyPartName, float, str]] = [
        ("wire", wire, f"{transfer} B at {net.nic_gbps} Gb/s, MTU {path.mtu}"),
        (
            "switches",
            switches,
            f"{net.switch_hops} x {per_switch:g} µs ({net.switch.replace('_', '-')})",
        ),
        ("routers", routers, f"{net.router_hops} x {_value(inputs.router_hop_us.value):g} µs"),
        ("server", server, "NFS client and server processing, from the slides' 8 KB overhead"),
    ]
    budget = [LatencyPart(part=name, us=round(us, 1), note=note) for name, us, note in parts]
    return Expectations(
        single_stream_mb_s=round(single, 1),
        rtt_us=round(rtt, 1),
        rtt_measured=net.rtt_us is not None,
        transfer_bytes=transfer,
        latency_budget_us=budget,
        nic_payload_ceiling_mb_s=round(ceiling, 1),
        aggregate_ceiling_mb_s=round(aggregate, 1),
        pipelined_stream_mb_s=None if serial else round(ceiling, 1),
        serial_client=serial,
        planned_client=client,
        planned_scan_mb_s=None if scan is None else round(scan, 1),
        service_ceiling_mb_s=None if service is None else round(service, 1),
        nfs_overhead_8k_us=round(overhead_8k, 1),
        overhead_vs_disk_pct=round(overhead_8k / disk * 100, 2),
        tcp_window_bytes=window,
        bottleneck=_bottleneck(
            budget,
            single,
            ceiling,
            serial,
            rtt,
            net.rtt_us is not None,
            client,
            scan,
            service,
            resolved.platform.filer.throughput_mb_s is not None,
        ),
        improvements=_improvements(kb, resolved, path, transfer, single, serial),
        assumptions=assumptions,
        rules=rules,
    )


def _service_ceiling(resolved: ResolvedPlatform) -> float | None:
    """Cloud NAS: throughput per TiB of the service level times the provisioned TiB, in MB/s;
    on Amazon FSx for NetApp ONTAP the provisioned throughput capacity itself."""
    filer = resolved.platform.filer
    family = resolved.filer_family
    if filer.throughput_mb_s is not None:
        return float(filer.throughput_mb_s)
    if filer.service_level is None or filer.capacity_tib is None:
        return None
    level = family.service_levels.get(filer.service_level)
    if level is None or level.value is None:
        return None
    return level.value * filer.capacity_tib * MIB / 1e6


def _planned_client(
    inputs: ExpectationInputs,
    resolved: ResolvedPlatform,
    ceiling: float,
    serial: bool,
    dnfs_paths: int,
    linearity: float,
) -> tuple[str, float | None]:
    if resolved.platform.oracle.dnfs:
        paths = max(1, dnfs_paths)
        scale = linearity if paths > 1 else 1.0
        label = "Direct NFS over one path" if paths == 1 else f"Direct NFS over {paths} paths"
        return label, paths * ceiling * scale
    if not serial:
        return "kernel NFS, requests pipelined on one connection per mount", ceiling
    if resolved.platform.host.os == "solaris":
        share = _value(inputs.serial_knfs_scan_share.value)
        return "kernel NFS, one request in flight per stream", share * ceiling
    return "kernel NFS, one request in flight per stream", None


def _bottleneck(
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
) -> str:
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
    parallel = (
        f"; many parallel streams reach about {scan:.0f} MB/s (Fawcett's Solaris measurement)"
        if scan is not None
        else ""
    )
    return (
        f"Round-trip latency: a serial client waits out every round trip, so one stream gets "
        f"{single:.1f} of {ceiling:.0f} MB/s{parallel}; the largest part of the round trip is "
        f"{largest}."
    )


def _improvements(
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
        jumbo = PathModel(inputs, net.nic_gbps, int(_value(inputs.frame.jumbo_mtu.value)))
        reply = transfer + _value(inputs.frame.nfs_read_reply_8k_bytes.value) - 8192
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

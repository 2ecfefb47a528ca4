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
  Direct NFS opens connections per process and per path and fills its paths,
  ``paths * ceiling * (0.97 if paths > 1)``; a kernel client reaches the filer over one TCP
  connection, which carries at most ``C`` = the mean of the two measurements of one
  (Fawcett, Solaris 10 u8: 448 MB/s; Microsoft, RHEL 7.8: 1073.7 / 2.8 = 383.5 MB/s), so a
  pipelining kernel client (Linux) reaches ``min(ceiling, C)`` and a serial one on Solaris
  ``min(ceiling, C, 32 * single)`` (one request in flight per stream, 32 streams as in the
  measured scans); AIX and HP-UX serial clients were not measured (None).
  ``engine/calibration`` sets every published measurement beside the model (the README table).
"""

from __future__ import annotations

from packaging.version import Version

from nasplan.domain.figures import rate_words
from nasplan.domain.plan import Expectations, LatencyPart, LatencyPartName
from nasplan.engine.expectation_advice import bottleneck, improvements
from nasplan.engine.path_model import (
    PathModel,
    figure_value,
    stack_us,
    switch_hop_us,
    transfer_size,
)
from nasplan.engine.random_reads import client_cpu_note, random_reads
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import ExpectationInputs
from nasplan.knowledge.resolve import ResolvedPlatform

# TR-3322 measured disk-based filers (2004): the era note says a flash filer answers sooner.

SERIAL_CLIENT_OS = frozenset({"solaris", "aix", "hpux"})
MIB = 1_048_576


def compute(
    kb: KnowledgeBase,
    resolved: ResolvedPlatform,
    rsize: int,
    direct_io: bool,
    rules: list[str],
    dnfs_paths: int = 1,
    knfs_paths: int = 1,
    data_paths: int = 1,
) -> Expectations:
    inputs = kb.expectations
    net = resolved.platform.network
    oracle = resolved.platform.oracle
    jumbo_mtu = int(figure_value(inputs.frame.jumbo_mtu.value))
    std_mtu = int(figure_value(inputs.frame.standard_mtu.value))
    path = PathModel(inputs, net.nic_gbps, jumbo_mtu if net.jumbo_frames else std_mtu)
    assumptions: list[str] = [
        "The read request's own wire time is left out (it is a few hundred bytes).",
        "Switch latency is counted once per switch per round trip.",
        " ".join(inputs.era_note.split()),
    ]

    transfer, transfer_note = transfer_size(resolved, rsize, direct_io)
    if transfer_note:
        assumptions.append(transfer_note)
    reply_overhead = figure_value(inputs.frame.nfs_read_reply_8k_bytes.value) - 8192
    wire = path.wire_us(transfer + reply_overhead)
    per_switch, switch_note = switch_hop_us(inputs, net.switch, net.nic_gbps)
    if switch_note:
        assumptions.append(switch_note)
    switches = net.switch_hops * per_switch
    routers = net.router_hops * figure_value(inputs.router_hop_us.value)
    server = stack_us(inputs, net.jumbo_frames)
    modelled_rtt = wire + switches + routers + server
    rtt = net.rtt_us if net.rtt_us is not None else modelled_rtt

    ceiling = path.ceiling_mb_s()
    if net.nic_gbps > 10:
        assumptions.append(_payload_note(inputs, path, ceiling))
    single = min(transfer / rtt, ceiling)
    serial = not oracle.dnfs and resolved.platform.host.os in SERIAL_CLIENT_OS
    nic_count = net.nic_count
    linearity = figure_value(inputs.multipath_linearity.value) if nic_count > 1 else 1.0
    aggregate = ceiling * nic_count * linearity
    overhead_8k = (
        path.wire_us(figure_value(inputs.frame.nfs_read_reply_8k_bytes.value))
        + server
        + switches
        + routers
    )
    disk = figure_value(inputs.disk_read_8k_us.value)
    window = int(net.nic_gbps * 1e9 / 8 * rtt / 1e6)
    # One stream with requests in flight fills the link, unless it is a kernel client's one
    # TCP connection that carries less.
    pipelined = ceiling if oracle.dnfs else min(ceiling, inputs.knfs_connection_mb_s.mb_s)
    # Datafiles split over several paths (engine/path_spread): one connection per path.
    spread = data_paths * linearity if data_paths > 1 and not oracle.dnfs else 1.0
    client, scan = _planned_client(
        inputs, resolved, ceiling, serial, dnfs_paths, linearity, single, data_paths, spread
    )
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
    if not oracle.dnfs and scan is not None:
        connection = inputs.knfs_connection_mb_s
        low, high = connection.measured_range
        assumptions.append(
            f"Kernel NFS reaches the filer over one TCP connection, which carries about "
            f"{rate_words(connection.mb_s)} at most (measured {low:.0f} to {high:.0f} MB/s: "
            "Fawcett's Solaris 10 scan, Microsoft's Linux test on Azure NetApp Files); nconnect "
            "(Linux), where used, opens more. The single-stream figure is the round-trip bound "
            "alone, so on a fast path it can be above what the connection carried."
        )
    if not oracle.dnfs and data_paths > 1:
        assumptions.append(
            f"The datafiles are split over {data_paths} volumes, each mounted through its own "
            "storage path, and a large scan reads them all at once; each path carries what one "
            f"link and one TCP connection carry, and the paths add up at {linearity:.0%} (as "
            "Closson's scans did)."
        )
    elif not oracle.dnfs and knfs_paths > 1:
        assumptions.append(
            f"The kernel NFS mounts are spread over {knfs_paths} storage paths, one volume per "
            "path: the data files travel one of them, so a large scan is modelled on one path, "
            "while the logs use the others at the same time."
        )
    if serial and scan is not None:
        streams = figure_value(inputs.parallel_scan_streams.value)
        earlier = resolved.os_key < Version("10.8")
        assumptions.append(
            f"Parallel scans on this serial kernel client: {streams:.0f} streams (the degree of "
            "the measured scans), one request in flight each"
            + (
                "; measured on Solaris 10 u8 only, and assumed to hold for this earlier release."
                if earlier
                else "."
            )
        )

    # A client no source measured (AIX, HP-UX kernel NFS) gets no ceiling, as for the scan.
    # Direct NFS reads at its scan rate (its paths, already held to a cloud service's ceiling).
    read_rate = scan if oracle.dnfs and scan is not None else pipelined * spread
    if service is not None:
        read_rate = min(read_rate, service)
    reads = random_reads(inputs, overhead_8k, read_rate)
    measured_client = scan is not None
    bound = _connection_bound(inputs, oracle.dnfs, scan, ceiling, service, spread)
    parts: list[tuple[LatencyPartName, float, str]] = [
        ("wire", wire, f"{transfer} B at {net.nic_gbps} Gb/s, MTU {path.mtu}"),
        (
            "switches",
            switches,
            f"{net.switch_hops} x {per_switch:g} µs ({net.switch.replace('_', '-')})",
        ),
        (
            "routers",
            routers,
            f"{net.router_hops} x {figure_value(inputs.router_hop_us.value):g} µs",
        ),
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
        pipelined_stream_mb_s=None if serial else round(pipelined, 1),
        serial_client=serial,
        planned_client=client,
        planned_scan_mb_s=None if scan is None else round(scan, 1),
        planned_scan_low_mb_s=None if bound is None else round(bound[1] * spread, 1),
        planned_scan_high_mb_s=None if bound is None else round(bound[2] * spread, 1),
        service_ceiling_mb_s=None if service is None else round(service, 1),
        random_8k_reads_ceiling=round(reads.ceiling, -2) if measured_client else None,
        random_8k_reads_per_read_in_flight=round(reads.per_read_in_flight, -1),
        random_8k_reads_in_flight_to_fill=(
            reads.reads_in_flight_to_fill if measured_client else None
        ),
        client_cpu_note=client_cpu_note(resolved.platform.host.os, oracle.dnfs),
        nfs_overhead_8k_us=round(overhead_8k, 1),
        overhead_vs_disk_pct=round(overhead_8k / disk * 100, 2),
        tcp_window_bytes=window,
        bottleneck=bottleneck(
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
            bound,
            data_paths if spread > 1 else 1,
        ),
        improvements=improvements(kb, resolved, path, transfer, single, serial),
        assumptions=assumptions,
        rules=rules,
    )


def _payload_note(inputs: ExpectationInputs, path: PathModel, ceiling: float) -> str:
    """The link's payload ceiling is the framing bound; what the sources measured of it is on
    GbE (Closson) and 10GbE at MTU 1500 (Fawcett's Direct NFS scan)."""
    low, high = inputs.gbe_payload_ceiling_mb_s.range or (0.0, 0.0)
    standard = int(figure_value(inputs.frame.standard_mtu.value))
    gbe = PathModel(inputs, 1, standard).ceiling_mb_s()
    ten = PathModel(inputs, 10, standard).ceiling_mb_s()
    scan = next(p.measured for p in inputs.calibration if p.id == "fawcett-dnfs-scan")
    return (
        f"A link's payload ceiling ({rate_words(ceiling)} here, MTU {path.mtu}) is what its "
        f"framing leaves. Measured: {low:.0f} to {high:.0f} MB/s on GbE against the "
        f"{gbe:.1f} MB/s it leaves (Closson), {scan:,.0f} MB/s on 10GbE against "
        f"{ten:,.0f} MB/s (Fawcett's Direct NFS scan, {scan / ten:.0%}); no source measured "
        "a faster link."
    )


def _connection_bound(
    inputs: ExpectationInputs,
    dnfs: bool,
    scan: float | None,
    ceiling: float,
    service: float | None,
    spread: float = 1.0,
) -> tuple[float, float, float] | None:
    """What a kernel client's one TCP connection carries (the model's figure, the lowest and
    the highest measured), where that is what holds its scan below the link and below a cloud
    service's own ceiling. ``spread``: the scan's paths times their linearity, one connection
    each."""
    figure = inputs.knfs_connection_mb_s
    connection = figure.mb_s
    if dnfs or scan is None:
        return None
    per_path = scan / spread
    if per_path >= ceiling - 0.05 or abs(per_path - connection) > 0.05:
        return None
    if service is not None and service <= connection:
        return None
    return connection, *figure.measured_range


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
    single: float,
    data_paths: int = 1,
    spread: float = 1.0,
) -> tuple[str, float | None]:
    """Who moves a large parallel scan, and how fast. Direct NFS opens connections per process
    and per path, so it fills its paths; a kernel client talks to the filer over one TCP
    connection, which carries at most ``knfs_connection_mb_s``; a serial kernel client also has
    only one request in flight per stream. ``spread``: the datafiles' paths times their
    linearity where they are split over a volume per path (one connection each), else 1."""
    if resolved.platform.oracle.dnfs:
        paths = max(1, dnfs_paths)
        scale = linearity if paths > 1 else 1.0
        label = "Direct NFS over one path" if paths == 1 else f"Direct NFS over {paths} paths"
        return label, paths * ceiling * scale
    connection = inputs.knfs_connection_mb_s.mb_s
    over = f", over {data_paths} paths" if data_paths > 1 else ""
    if not serial:
        label = "kernel NFS, requests pipelined on one TCP connection " + (
            f"per filer address{over}" if data_paths > 1 else "to the filer"
        )
        return label, min(ceiling, connection) * spread
    if resolved.platform.host.os == "solaris":
        streams = figure_value(inputs.parallel_scan_streams.value)
        label = f"kernel NFS, one request in flight per stream, one TCP connection{over}"
        return label, min(ceiling, connection, streams * single) * spread
    return "kernel NFS, one request in flight per stream", None

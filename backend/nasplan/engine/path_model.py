"""One network path of the expectations model: wire time, payload ceiling and the NFS stack's
share of a round trip (formulas in ``engine/expectations``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from packaging.version import Version

from nasplan.knowledge.catalog import ExpectationInputs
from nasplan.knowledge.resolve import ResolvedPlatform


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


def figure_value(fig_value: float | None) -> float:
    assert fig_value is not None
    return fig_value


def stack_us(inputs: ExpectationInputs, jumbo: bool) -> float:
    overhead = inputs.nfs_overhead_8k_us
    total = figure_value(overhead.jumbo.value if jumbo else overhead.standard.value)
    return total - figure_value(overhead.reference_wire_8k_1gbe.value)


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
    return figure_value(table[speed].value), note


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

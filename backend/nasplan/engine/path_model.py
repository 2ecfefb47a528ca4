"""One network path of the expectations model: wire time, payload ceiling and the NFS stack's
share of a round trip (formulas in ``engine/expectations``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from nasplan.knowledge.catalog import ExpectationInputs


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

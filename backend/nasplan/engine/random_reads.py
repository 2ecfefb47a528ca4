"""Random 8 KB reads and the host's CPU: two parts of the expectations model.

Random reads have two bounds, both from figures the model already has
(``knowledge/model/expectations.yaml``):

* One read in flight at a time gets ``1e6 / nfs_overhead_8k_us`` reads a second from the
  network and the NFS stack; the filer's own service time (cache or disk) comes on top, so this
  is an upper bound per read in flight (Little's law: reads a second = reads in flight / time
  per read).
* The planned client's paths carry at most ``rate / reply`` reads a second, ``reply`` being the
  8324 bytes of TCP data of one 8 KB read reply: Direct NFS fills every path, a kernel client
  its one TCP connection to the filer (``knfs_connection_mb_s``), a cloud service its
  throughput ceiling.

Neither is a forecast: Fawcett's Direct NFS run reached about 90K 8 KB reads a second, with
bandwidth left (fawcett-dnfs), so something other than the network held it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from nasplan.engine.path_model import figure_value
from nasplan.knowledge.catalog import ExpectationInputs


@dataclass(frozen=True)
class RandomReads:
    per_read_in_flight: float
    ceiling: float
    reads_in_flight_to_fill: int


def random_reads(
    inputs: ExpectationInputs,
    overhead_8k_us: float,
    client_rate_mb_s: float,
) -> RandomReads:
    """``client_rate_mb_s``: what the planned client's paths carry for reads (MB/s)."""
    reply = figure_value(inputs.frame.nfs_read_reply_8k_bytes.value)
    per_read = 1e6 / overhead_8k_us
    ceiling = client_rate_mb_s * 1e6 / reply
    return RandomReads(per_read, ceiling, max(1, math.ceil(ceiling / per_read)))


def client_cpu_note(os_name: str, dnfs: bool) -> str:
    """What the sources measured of the host CPU an NFS client spends (TR-3322's 20% over UFS
    is the finding OPS-CPU-HEADROOM, so it is not repeated here)."""
    fawcett = (
        "In Fawcett's OLTP test (Solaris 10, 2009) Direct NFS let the load grow until the "
        "database server's CPU was used up, while kernel NFS stopped scaling after 32 users."
    )
    if dnfs:
        return "Direct NFS spends less host CPU per I/O than the kernel client. " + fawcett
    parts = ["Kernel NFS spends host CPU on every request."]
    if os_name == "linux":
        parts.append(
            "During Closson's kernel NFS scans (2007) about 22% of the CPU was spent in kernel "
            "mode, not all of it on NFS."
        )
    parts.append(fawcett + " Direct NFS is the way to spend less.")
    return " ".join(parts)

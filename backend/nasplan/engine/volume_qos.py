"""Azure NetApp Files: a volume's throughput limit on an automatic QoS pool is its own quota
times the service level's rate, not the whole pool's (ANF-VOLUME-QOS)."""

from __future__ import annotations

from nasplan.domain.plan import Finding, Volume
from nasplan.knowledge.resolve import ResolvedPlatform

GIB_PER_TIB = 1024


def volume_qos_findings(
    resolved: ResolvedPlatform, volumes: list[Volume], rule_id: str
) -> list[Finding]:
    filer = resolved.platform.filer
    family = resolved.filer_family
    if filer.service_level is None or filer.capacity_tib is None:
        return []
    level = family.service_levels.get(filer.service_level)
    if level is None or level.value is None:
        return []
    rate = level.value  # MiB/s per TiB of quota
    pool = rate * filer.capacity_tib
    cap = family.volume_max_mib_s.value if family.volume_max_mib_s else None
    pool_text = f"{pool:,.0f} MiB/s" + (
        f" (at most {cap:,.0f} MiB/s for one volume)" if cap is not None and cap < pool else ""
    )
    data = next((v for v in volumes if "data" in v.holds), None)
    if data is None or data.size_gb is None:
        return [
            Finding(
                severity="warning",
                rule=rule_id,
                message=f"The expectations take the service's whole {filer.service_level} "
                f"throughput for {filer.capacity_tib:g} TiB, {pool_text}, as the ceiling. The "
                f"datafile volume gets it only on a manual QoS capacity pool with that throughput "
                f"assigned to it; on an automatic QoS pool each volume is limited by its own quota "
                f"({rate:g} MiB/s per TiB). Create the pool with manual QoS, or give sizing inputs "
                f"so the plan can work out the data volume's limit.",
            )
        ]
    quota_tib = data.size_gb / GIB_PER_TIB
    limit = rate * quota_tib
    if limit >= min(pool, cap or pool):
        return []
    return [
        Finding(
            severity="warning",
            rule=rule_id,
            message=f"On an automatic QoS pool the datafile volume {data.name} ({data.size_gb:,} "
            f"GiB quota) is limited to about {limit:,.0f} MiB/s ({quota_tib:.2f} TiB x {rate:g} "
            f"MiB/s), not the {pool_text} of the {filer.capacity_tib:g} TiB. Create the pool "
            f"with manual QoS and assign the throughput to {data.name}, or raise its quota.",
        )
    ]

"""The names, addresses and ids a bundle needs, from the platform's hand-over answers.

Where an answer is missing the files carry a placeholder written <like-this>; ``ANSWERS`` says
which question fills each one, so the runbook can list what is still to fill in and where.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from nasplan.domain.plan import dnfs_path_count, kernel_nfs_path_count
from nasplan.domain.platform import StoragePath
from nasplan.renderers.common import Facts

# Filer rollback commands take the values recorded in phase 1: they are known only on the day
# of the change, so they are marked apart from placeholders (which the wizard can answer).
RECORDED_VALUE = "RECORDED_VALUE"
CLOUD_TEAM = "from the cloud team; no platform field"


@dataclass(frozen=True)
class Answer:
    question: str
    field: str


_ANSWERS: list[tuple[re.Pattern[str], Answer]] = [
    (re.compile(r"<svm>"), Answer("SVM (vserver) name", "handover.svm")),
    (re.compile(r"<aggregate>"), Answer("aggregate for the volumes", "handover.aggregate")),
    (re.compile(r"<capacity-pool>"), Answer("capacity pool", "handover.capacity_pool")),
    (
        re.compile(r"<broadcast-domain>"),
        Answer("broadcast domain of the NFS data ports", "handover.broadcast_domain"),
    ),
    (re.compile(r"<db-host>"), Answer("database host name", "host.hostname")),
    (
        re.compile(r"<storage-subnet-(\d+)>"),
        Answer(
            "the hosts' storage network on path {n} (a host address with its prefix length)",
            "handover.paths[{i}].host_address",
        ),
    ),
    (re.compile(r"<rac-node-\d+>"), Answer("RAC node host names", "handover.cluster_nodes")),
    (
        re.compile(r"<filer-interface>"),
        Answer("filer interface serving NFS", "handover.paths[0].filer_interface"),
    ),
    (
        re.compile(r"<filer-interface-(\d+)>"),
        Answer("filer interface on storage path {n}", "handover.paths[{i}].filer_interface"),
    ),
    (
        re.compile(r"<host-ip-(\d+)>"),
        Answer("host interface or address on storage path {n}", "handover.paths[{i}]"),
    ),
    (
        re.compile(r"<filer-ip-(\d+)>"),
        Answer("filer address on storage path {n}", "handover.paths[{i}].filer_address"),
    ),
    (re.compile(r"<size(?:-[a-z0-9-]+)?>"), Answer("volume sizes", "platform.sizing")),
    (re.compile(r"<nfsv4-id-domain>"), Answer("NFSv4 ID domain", "handover.nfs4_id_domain")),
    (
        re.compile(r"<fsx-svm-id>"),
        Answer(
            "the FSx storage virtual machine's id, svm-... (aws fsx "
            "describe-storage-virtual-machines lists it)",
            "handover.fsx_svm_id",
        ),
    ),
    # Cloud names nasplan does not ask for: the cloud team's, the same in every design.
    *(
        (re.compile(f"<{name}>"), Answer(question, CLOUD_TEAM))
        for name, question in (
            ("azure-resource-group", "the NetApp account's resource group"),
            ("azure-region", "the NetApp account's Azure region"),
            ("netapp-account", "the NetApp account"),
            (
                "delegated-subnet-id",
                "the resource id of the subnet delegated to Azure NetApp Files",
            ),
            ("gcp-region", "the Google Cloud region of the pool"),
            ("vpc-network", "the VPC network peered with the service"),
            ("azure-zone", "the availability zone of the database VM (1, 2 or 3)"),
            ("capacity-pool-id", "the resource id of the manual QoS capacity pool"),
            ("subscription-id", "the Azure subscription id"),
        )
    ),
    (
        re.compile(r"<throughput-[a-z0-9-]+>"),
        Answer(
            "each volume's share of a manual QoS pool's throughput, MiB/s (ANF-VOLUME-QOS)",
            CLOUD_TEAM,
        ),
    ),
]


def answer_for(placeholder: str) -> Answer | None:
    """The question (and platform field) that removes a placeholder from the files."""
    for pattern, answer in _ANSWERS:
        if match := pattern.fullmatch(placeholder):
            if match.groups():
                n = int(match.group(1))
                return Answer(answer.question.format(n=n), answer.field.format(n=n, i=n - 1))
            return answer
    return None


def _path(f: Facts, index: int) -> StoragePath:
    paths = f.handover.paths
    return paths[index] if index < len(paths) else StoragePath()


def setting_value(f: Facts, value: str) -> str:
    """A planned value, with the hand-over answer in place of a placeholder the rules use."""
    if value == "<nfsv4-id-domain>":
        return f.handover.nfs4_id_domain or value
    return value


def svm(f: Facts) -> str:
    return f.handover.svm or "<svm>"


def aggregate(f: Facts) -> str:
    return f.handover.aggregate or "<aggregate>"


def capacity_pool(f: Facts) -> str:
    return f.handover.capacity_pool or "<capacity-pool>"


def broadcast_domain(f: Facts) -> str:
    return f.handover.broadcast_domain or "<broadcast-domain>"


def filer_interface(f: Facts) -> str:
    return f.filer_if or "<filer-interface>"


def filer_interfaces(f: Facts) -> list[str]:
    """The filer interface on every storage path the hosts mount over: each path's where the
    hand-over names it (the first path also from the filer's answer), else a placeholder."""
    count = storage_path_count(f)
    if count <= 1:
        return [filer_interface(f)]
    named = [_path(f, n).filer_interface for n in range(count)]
    first = named[0] or f.filer_if
    return [first or "<filer-interface-1>"] + [
        name or f"<filer-interface-{n}>" for n, name in enumerate(named[1:], start=2)
    ]


def nodes(f: Facts) -> list[str]:
    """The database hosts: every RAC node by name where given, else placeholders."""
    given = f.handover.cluster_nodes
    if given:
        return list(given)
    first = f.host_name or "<db-host>"
    if not f.rac:
        return [first]
    count = f.plan.platform.oracle.rac_nodes or 2
    return [first, *(f"<rac-node-{n}>" for n in range(2, count + 1))]


def storage_path_count(f: Facts) -> int:
    """How many storage paths the hosts mount over: every Direct NFS path oranfstab lists;
    kernel NFS the paths its mounts are spread over (engine/path_spread), else one."""
    if not f.dnfs:
        return kernel_nfs_path_count(f.plan.mounts)
    return dnfs_path_count(f.plan.platform.network.nic_count, f.settings("dnfs"))


def export_clients(f: Facts) -> list[str]:
    """Who the exports name: the hosts' storage network on every path they mount over, never a
    host name (it resolves to the public address, not the storage one, so the filer would
    refuse the mount). A path's network comes from its host address; ``client_subnet`` stands
    for every path network it contains (and for the first path when that has no address); a
    path with neither is the placeholder <storage-subnet-N>."""
    given = f.handover.client_subnet
    wide = ipaddress.IPv4Network(given) if given else None
    clients: list[str] = []
    for number in range(1, storage_path_count(f) + 1):
        address = _path(f, number - 1).host_address
        if address is not None:
            network = ipaddress.IPv4Interface(address).network
            client = str(wide) if wide and network.subnet_of(wide) else str(network)
        elif wide is not None and number == 1:
            client = str(wide)
        else:
            client = f"<storage-subnet-{number}>"
        if client not in clients:
            clients.append(client)
    return clients


def dnfs_local(f: Facts, number: int) -> str:
    """oranfstab ``local:`` for path ``number`` (1-based): the interface name where given (the
    same file then serves every RAC node), else this host's address, else a placeholder."""
    path = _path(f, number - 1)
    if path.host_interface:
        return path.host_interface
    if path.host_address and not f.rac:
        return str(ipaddress.IPv4Interface(path.host_address).ip)
    return f"<host-ip-{number}>"


def dnfs_server_path(f: Facts, number: int) -> str:
    return _path(f, number - 1).filer_address or f"<filer-ip-{number}>"


def filer_targets(f: Facts, placeholders: bool = True) -> list[str]:
    """What a check aimed at the filer must reach: each storage path's filer address where
    there are several paths, else the filer. Without ``placeholders`` (scripts, which never
    carry one), unknown addresses fall back to the filer's name."""
    count = storage_path_count(f)
    if count <= 1:
        return [f.filer_host]
    targets = [dnfs_server_path(f, n) for n in range(1, count + 1)]
    if not placeholders and any(t.startswith("<") for t in targets):
        return [f.filer_host]
    return targets


def oracle_owner_ids(f: Facts) -> tuple[int, int] | None:
    h = f.handover
    if h.oracle_uid is None or h.oracle_gid is None:
        return None
    return h.oracle_uid, h.oracle_gid

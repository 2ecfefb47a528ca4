"""One platform through the lab: bundle, filer, host, apply, reboot, verify, roll back."""

from __future__ import annotations

import copy
import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nasplan_lab import ansible
from nasplan_lab.as_built import audit_collection, record_reports
from nasplan_lab.filer import FilerSetup, filer_setup
from nasplan_lab.judge import Verdict, judge, merge
from nasplan_lab.qemu import Image, Nic, job_tar, read_output, start

GUEST = Path(__file__).resolve().parent.parent / "guest"
MAX_PATHS = 4
ORACLE_UID = 54321  # the Oracle preinstall package's default owner and group ids
HOST_TIMEOUT_S = 900


@dataclass(frozen=True)
class LabPath:
    index: int

    @property
    def interface(self) -> str:
        return f"eth{self.index}"

    @property
    def subnet(self) -> str:
        return f"192.168.{50 + self.index}.0/24"

    def host_address(self, node: int = 0) -> str:
        return f"192.168.{50 + self.index}.{11 + node}"

    @property
    def filer_address(self) -> str:
        return f"192.168.{50 + self.index}.10"


@dataclass
class Timings:
    bundle_s: float = 0.0
    journey_s: float = 0.0


MAX_NODES = 2  # RAC platforms run on two database hosts, whatever their node count

# What the lab's host has set itself before nasplan comes (/etc/sysctl.d/50-site.conf): a
# default socket send buffer above Oracle's minimum (262144), as hosts tuned for other work
# have. A bundle that gives the key as a minimum must keep it (judge.py).
SITE_SYSCTLS = {"net.core.wmem_default": "524288"}


@dataclass
class Run:
    name: str
    platform: dict[str, Any]
    paths: list[LabPath]
    nodes: list[str]
    adapted: list[str] = field(default_factory=list)


def adapt(name: str, platform: dict[str, Any]) -> Run:
    """The platform with the lab's interface names and addresses in place of the user's."""
    lab = copy.deepcopy(platform)
    nic_count = int(lab.get("network", {}).get("nic_count", 1))
    paths = [LabPath(i) for i in range(min(nic_count, MAX_PATHS))]
    host = lab["host"]
    oracle = lab.get("oracle", {})
    handover = lab.get("handover") or {}
    nodes = [host["hostname"]]
    if oracle.get("rac"):
        named = handover.get("cluster_nodes") or []
        nodes = (named or [host["hostname"], f"{host['hostname']}-b"])[:MAX_NODES]
    run = Run(name, lab, paths, nodes)
    if host.get("nic_interface") != paths[0].interface:
        run.adapted.append(
            f"host.nic_interface {host.get('nic_interface')} -> {paths[0].interface}"
        )
        host["nic_interface"] = paths[0].interface
    layout = lab["layout"]
    run.adapted.append(f"layout.filer_host {layout['filer_host']} -> {paths[0].filer_address}")
    layout["filer_host"] = paths[0].filer_address
    handover = lab.get("handover")
    if handover:
        for i, path in enumerate(handover.get("paths", [])):
            if path.get("host_interface"):
                path["host_interface"] = paths[i].interface
            if path.get("host_address"):
                path["host_address"] = f"{paths[i].host_address()}/24"
            if path.get("filer_address"):
                path["filer_address"] = paths[i].filer_address
        if handover.get("client_subnet"):
            handover["client_subnet"] = paths[0].subnet
        run.adapted.append("handover addresses -> the lab's subnets")
    return run


def make_bundle(run: Run, workdir: Path) -> Path:
    platform_file = workdir / "platform.json"
    platform_file.write_text(json.dumps(run.platform))
    zip_path = workdir / "bundle.zip"
    subprocess.run(
        [sys.executable, "-m", "nasplan.cli", "bundle", str(platform_file), "-o", str(zip_path)],
        check=True,
        capture_output=True,
    )
    out = workdir / "bundle"
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(out)
    (root,) = list(out.iterdir())
    return root


def runbook_script_order(runbook: str) -> list[str]:
    """The host scripts in the order the runbook has the Unix team run them."""
    order: list[str] = []
    for script in re.findall(r"\b(host/[a-z_]+\.sh) --apply", runbook):
        if script not in order:
            order.append(script)
    return order


def _oracle_ids(run: Run) -> tuple[int, int]:
    """The Oracle owner's uid and gid: the hand-over's, else the preinstall package's."""
    handover = run.platform.get("handover") or {}
    return (
        int(handover.get("oracle_uid") or ORACLE_UID),
        int(handover.get("oracle_gid") or ORACLE_UID),
    )


def _filer_job(run: Run, bundle: Path) -> tuple[dict[str, bytes], FilerSetup]:
    subnets = {f"storage-subnet-{p.index + 1}": p.subnet for p in run.paths}
    setup = filer_setup((bundle / "filer" / "commands.txt").read_text(), subnets)
    uid, gid = _oracle_ids(run)
    files = {
        "boot.sh": (GUEST / "filer.sh").read_bytes(),
        "filer/paths": "".join(
            f"{p.interface} {p.filer_address}/24 {setup.mtu}\n" for p in run.paths
        ).encode(),
        "filer/exports": setup.exports_text().encode(),
        "filer/dirs": "".join(f"{path} {uid} {gid}\n" for path in sorted(setup.exports)).encode(),
        # The host's name resolves to its public address, as in most data centres: an export
        # to the name does not match the storage path.
        "filer/hosts": "".join(
            f"10.99.0.{11 + n} {node}\n" for n, node in enumerate(run.nodes)
        ).encode(),
        "filer/nfsd": f"max_block_size {setup.max_xfer}\n".encode(),
    }
    return files, setup


def _host_job(
    run: Run, bundle: Path, plan: dict[str, Any], mode: str, public_key: bytes, node: int
) -> dict[str, bytes]:
    uid, gid = _oracle_ids(run)
    setup = [
        f"hostname {run.nodes[node]}",
        f"oracle_uid {uid}",
        f"oracle_gid {gid}",
        f"filer {run.paths[0].filer_address}",
        *(f"path {p.interface} {p.host_address(node)}/24" for p in run.paths),
        f"mode {mode}",
        # The management NIC comes after the storage NICs (QEMU adds it last).
        f"mgmt eth{len(run.paths)}",
        *(f"site {key} {value}" for key, value in SITE_SYSCTLS.items()),
    ]
    keys = sorted(
        {s["key"] for s in plan["settings"] if s["target"] == "host" and s["mechanism"] == "sysctl"}
        | set(SITE_SYSCTLS)
    )
    files = {
        "boot.sh": (GUEST / "host.sh").read_bytes(),
        "host/setup": ("\n".join(setup) + "\n").encode(),
        "host/scripts": (
            "\n".join(runbook_script_order((bundle / "RUNBOOK.md").read_text())) + "\n"
        ).encode(),
        "host/rollback": b"rollback/host_rollback.sh\n",
        "host/verify": b"verify/verify_host.sh\n",
        "host/mounts": "".join(m["mount_point"] + "\n" for m in plan["mounts"]).encode(),
        "host/keys": "".join(k + "\n" for k in keys).encode(),
        "host/authorized_keys": public_key,
    }
    for path in bundle.rglob("*"):
        if path.is_file():
            files[f"host/bundle/{path.relative_to(bundle)}"] = path.read_bytes()
    return files


def not_proven(bundle: Path, mode: str) -> list[str]:
    """The bundle's files, or parts of them, that this journey did not run."""
    files = {str(p.relative_to(bundle)) for p in bundle.rglob("*") if p.is_file()}
    found = []
    oracle = sorted(f for f in files if f.startswith(("oracle/", "rollback/oracle_")))
    if oracle or "verify/verify_oracle.sql" in files:
        found.append(", ".join([*oracle, "verify/verify_oracle.sql"]) + " (no Oracle database)")
    found.append(
        "filer/commands.txt beyond export rules, transfer size and MTU; "
        "filer/checks and rollback (no real filer)"
    )
    if "host/network.sh" in files:
        found.append(
            "host/network.sh's ifcfg branch (the lab's NICs have NetworkManager profiles) and "
            "the switch step"
        )
    if mode == "scripts" and "ansible/site.yml" in files:
        found.append("ansible/site.yml (its own journey, on the platforms that name it)")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def journey(
    name: str,
    platform: dict[str, Any],
    image: Image,
    keep: Path | None = None,
    mode: str = "scripts",
) -> Verdict:
    """`mode` scripts: the host scripts, a reboot, the rollback and a reboot, on every node;
    ansible: the playbook twice over SSH, then a reboot (single instance)."""
    run = adapt(name if mode == "scripts" else f"{name}-{mode}", platform)
    if mode == "ansible" and len(run.nodes) > 1:
        raise ValueError("the Ansible journey runs on single-instance platforms")
    workdir = Path(tempfile.mkdtemp(prefix=f"nasplan-lab-{run.name}-"))
    # None: the scripts journey; a list (filled once the guest is ready): the Ansible one.
    playbook_runs: list[ansible.PlaybookRun] | None = None if mode == "scripts" else []
    timings = Timings()
    try:
        began = time.monotonic()
        bundle = make_bundle(run, workdir)
        plan = json.loads((bundle / "plan.json").read_text())["plan"]
        timings.bundle_s = time.monotonic() - began
        filer_files, filer_setup = _filer_job(run, bundle)
        job_tar(filer_files, workdir / "filer.tar")
        key, public_key = ansible.keypair(workdir)
        hosts = [f"host{n}" for n in range(len(run.nodes))]
        for n, host in enumerate(hosts):
            job_tar(_host_job(run, bundle, plan, mode, public_key, n), workdir / f"{host}.tar")
        ssh_port = _free_port() if mode == "ansible" else 0
        speed = int(run.platform["network"]["nic_gbps"]) * 1000
        segments = [_free_port() for _ in run.paths]

        def nics(guest: int) -> list[Nic]:
            return [
                Nic(seg, f"52:54:00:10:{i:02x}:{guest:02x}", speed)
                for i, seg in enumerate(segments)
            ]

        began = time.monotonic()
        filer = start(image, workdir, "filer", workdir / "filer.tar", nics(0xF0))
        machines = [
            start(image, workdir, host, workdir / f"{host}.tar", nics(n), ssh_port)
            for n, host in enumerate(hosts)
        ]
        if mode == "ansible" and ansible.wait_for_console(
            workdir / "host0.console", ansible.READY, HOST_TIMEOUT_S
        ):
            playbook_runs = [ansible.run_playbook(bundle, key, ssh_port) for _ in range(2)]
            ansible.tell_guest_to_go_on(key, ssh_port)
        deadline = time.monotonic() + HOST_TIMEOUT_S
        try:
            for machine in machines:
                try:
                    machine.wait(timeout=max(1.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    machine.kill()
        finally:
            for machine in [*machines, filer]:
                machine.kill()
                machine.wait()
        timings.journey_s = time.monotonic() - began
        verdicts = []
        for n, host in enumerate(hosts):
            results = workdir / f"results-{host}"
            try:
                read_output(workdir, host, results)
            except Exception as error:
                # An empty output disk: the guest never got that far.
                results.mkdir(exist_ok=True)
                (results / "read-error.txt").write_text(str(error))
            out = results / "out"
            if out.is_dir():
                record_reports(
                    f"lab {run.name} {run.nodes[n]}",
                    run.platform,
                    {when: out / f"verify-{when}.txt" for when in ("applied", "rebooted")},
                )
                audit_collection(run.platform, out / "collect-applied")
            node = run.nodes[n] if len(hosts) > 1 else ""
            verdicts.append(
                judge(
                    node,
                    plan,
                    run.platform,
                    results / "out",
                    filer_setup,
                    run.adapted,
                    playbook_runs,
                    SITE_SYSCTLS,
                )
            )
        verdict = merge(run.name, verdicts)
        verdict.notes += [f"not proven here: {what}" for what in not_proven(bundle, mode)]
        verdict.timings = {"bundle_s": timings.bundle_s, "journey_s": timings.journey_s}
        return verdict
    finally:
        if keep is not None:
            shutil.copytree(workdir, keep / run.name, dirs_exist_ok=True)
        shutil.rmtree(workdir, ignore_errors=True)

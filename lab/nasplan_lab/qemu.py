"""Start the lab's virtual machines with QEMU (software emulation unless told otherwise)."""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

# KVM inside this kind of sandbox stops with "KVM internal error. Suberror: 1" during boot, so
# the lab emulates (TCG) unless NASPLAN_LAB_ACCEL says otherwise.
ACCEL = os.environ.get("NASPLAN_LAB_ACCEL", "tcg")
OUTPUT_DISK_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Image:
    directory: Path

    @property
    def kernel(self) -> Path:
        return self.directory / "vmlinuz"

    @property
    def initrd(self) -> Path:
        return self.directory / "initrd.img"

    @property
    def root(self) -> Path:
        return self.directory / "root.img"


@dataclass(frozen=True)
class Nic:
    """A NIC on a storage path: every guest on the same UDP multicast port shares one
    Ethernet segment (the filer and each database host)."""

    segment: int
    mac: str
    speed_mbps: int


def job_tar(files: dict[str, bytes], path: Path) -> None:
    """The job handed to a guest: a tar stream it unpacks from its second disk."""
    with tarfile.open(path, "w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o755 if name.endswith(".sh") else 0o644
            tar.addfile(info, io.BytesIO(data))


def start(
    image: Image, workdir: Path, name: str, job: Path, nics: list[Nic], ssh_port: int = 0
) -> subprocess.Popen[bytes]:
    """Boot one guest on a copy-on-write overlay of the cached image. With `ssh_port`, a last
    NIC on QEMU's user network forwards that local port to the guest's SSH server."""
    disk = workdir / f"{name}.qcow2"
    subprocess.run(
        ["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(image.root), "-F", "raw", str(disk)],
        check=True,
    )
    out = workdir / f"{name}.out"
    with out.open("wb") as handle:
        handle.truncate(OUTPUT_DISK_BYTES)
    args = [
        "qemu-system-x86_64",
        "-accel", ACCEL,
        "-m", "768",
        "-smp", "1",
        "-nographic", "-no-user-config", "-nodefaults",
        "-serial", f"file:{workdir / (name + '.console')}",
        "-kernel", str(image.kernel),
        "-initrd", str(image.initrd),
        "-append", "root=/dev/vda rw console=ttyS0 net.ifnames=0 quiet",
        "-drive", f"file={disk},if=virtio,format=qcow2",
        "-drive", f"file={job},if=virtio,format=raw,readonly=on",
        "-drive", f"file={out},if=virtio,format=raw",
    ]  # fmt: skip
    for i, nic in enumerate(nics):
        args += [
            "-netdev", f"socket,id=n{i},mcast=230.0.0.1:{nic.segment},localaddr=127.0.0.1",
            "-device",
            f"virtio-net-pci,netdev=n{i},mac={nic.mac},speed={nic.speed_mbps},duplex=full",
        ]  # fmt: skip
    if ssh_port:
        args += [
            "-netdev", f"user,id=mgmt,hostfwd=tcp:127.0.0.1:{ssh_port}-:22",
            "-device", "virtio-net-pci,netdev=mgmt",
        ]  # fmt: skip
    return subprocess.Popen(
        args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def read_output(workdir: Path, name: str, into: Path) -> None:
    """Unpack what the guest wrote to its third disk (a tar stream, zero-padded)."""
    with tarfile.open(workdir / f"{name}.out", "r:") as tar:
        tar.extractall(into, filter="data")

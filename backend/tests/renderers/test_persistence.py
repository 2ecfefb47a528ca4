"""Every host setting the plan lists is written where it survives a reboot (issue 20).

Linux: sysctl files are applied at boot before the sunrpc module is loaded, so its keys
(the RPC slot tables) are kept as module options in /etc/modprobe.d instead.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from nasplan.domain.platform import Platform
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.bundle import render_bundle_files
from tests.renderers.matrix import AS_OF
from tests.renderers.test_golden import PRESETS

LINUX_PRESETS = ["current-linux-ontap", "current-rac", "example-linux-knfs-7mode"]


def _bundle(kb: KnowledgeBase, preset: str) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    data = kb.presets[preset].platform
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    settings = [(str(s.mechanism), s.key, s.value) for s in plan.settings if s.target == "host"]
    return settings, render_bundle_files(plan)


@pytest.mark.parametrize("preset", [p for p in PRESETS if p in LINUX_PRESETS])
def test_every_linux_sysctl_has_a_file_read_at_boot_or_module_load(
    kb: KnowledgeBase, preset: str
) -> None:
    settings, files = _bundle(kb, preset)
    sysctl_files = [
        text
        for path, text in files.items()
        if path.startswith("host/90-nasplan-") or path == "host/sysctl.conf.add"
    ]
    modprobe = files.get("host/modprobe-options.conf", "")
    sysctls = [(key, value) for mechanism, key, value in settings if mechanism == "sysctl"]
    assert sysctls
    for key, value in sysctls:
        if key.startswith("sunrpc."):
            line = f"options sunrpc {key.removeprefix('sunrpc.')}={value}"
            assert line in modprobe.splitlines(), (preset, key)
            assert all(f"{key} = " not in text for text in sysctl_files), (preset, key)
        else:
            assert any(f"{key} = {value}" in text.splitlines() for text in sysctl_files), (
                preset,
                key,
            )
    tuning = files["host/tuning.sh"]
    if any(key.startswith("sunrpc.") for key, _ in sysctls):
        assert "/etc/modprobe.d/90-nasplan-" in tuning
        rollback = files["rollback/host_rollback.sh"]
        assert "/etc/modprobe.d/90-nasplan-" in rollback
        assert "/etc/modprobe.d/90-nasplan-" in files["verify/verify_host.sh"]


def _network_script(kb: KnowledgeBase, tmp_path: Path) -> Path:
    _, files = _bundle(kb, "current-linux-ontap")
    script = tmp_path / "network.sh"
    script.write_text(files["host/network.sh"])
    return script


def _fake(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


def _dry_run(script: Path, bin_dir: Path) -> str:
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "LC_ALL": "C"}
    done = subprocess.run(
        ["/bin/sh", str(script)], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_linux_mtu_is_kept_in_the_network_manager_profile(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake(
        bin_dir,
        "nmcli",
        'case "$*" in\n'
        '  *"device show"*) echo "GENERAL.CONNECTION:System ens1f0" ;;\n'
        '  *"connection show"*) echo "802-3-ethernet.mtu:auto" ;;\n'
        "esac\n",
    )
    _fake(bin_dir, "ip", "exit 0\n")
    out = _dry_run(_network_script(kb, tmp_path), bin_dir)
    assert "would run: ip link set dev ens1f0 mtu 9000" in out
    assert "would run: nmcli connection modify System ens1f0 802-3-ethernet.mtu 9000" in out


def test_linux_mtu_without_a_profile_or_ifcfg_file_is_a_manual_step(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake(bin_dir, "nmcli", "echo 'Error: NetworkManager is not running.' >&2; exit 8\n")
    _fake(bin_dir, "ip", "exit 0\n")
    out = _dry_run(_network_script(kb, tmp_path), bin_dir)
    assert "nmcli connection modify" not in out
    assert "MANUAL: no NetworkManager profile and no ifcfg file configures ens1f0" in out


def test_a_refused_mtu_is_a_manual_step_not_the_end_of_the_script(kb: KnowledgeBase) -> None:
    _, files = _bundle(kb, "tr3496-lab")  # Solaris 10, e1000g0
    network = files["host/network.sh"]
    assert 'if ! do_run ifconfig "$IF" mtu "$MTU"; then' in network
    assert "MaxFrameSize=3 for this instance in /kernel/drv/e1000g.conf" in network


@pytest.mark.parametrize("preset", PRESETS)
def test_every_host_setting_has_a_write_that_survives_a_reboot(
    kb: KnowledgeBase, preset: str
) -> None:
    data = kb.presets[preset].platform
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    files = render_bundle_files(plan)
    os_name, release = data["host"]["os"], data["host"]["os_version"]
    network = files["host/network.sh"]
    for s in (s for s in plan.settings if s.target == "host"):
        if s.mechanism == "sysctl":
            continue  # test_every_linux_sysctl_has_a_file_read_at_boot_or_module_load
        if s.mechanism == "etc_system":
            assert f"set {s.key}={s.value}" in files["host/system.add"].splitlines()
        elif s.mechanism == "ndd":
            (rc,) = [t for p, t in files.items() if p.startswith("host/nasplan_ndd_")]
            assert f"/usr/sbin/ndd -set {s.scope} {s.key} {s.value}" in rc
            assert "/etc/rc2.d/S70nasplan_ndd_" in files["host/tuning.sh"]
        elif s.mechanism == "driver_conf":
            assert s.scope
            added = files[f"host/{s.scope.rsplit('/', 1)[-1]}.add"]
            assert f"{s.key}={s.value};" in added.splitlines()
        elif s.mechanism in ("no", "nfso"):
            # -p sets the value now and in /etc/tunables/nextboot, which AIX applies at boot.
            assert f"do_run {s.mechanism} -p -o {s.key}={s.value}" in files["host/tuning.sh"]
        elif s.mechanism == "aix_adapter":
            # chdev -P writes the device database, which the restart applies.
            assert 'do_run chdev -l "$ADAPTER" -a "$KEY=$VALUE" -P' in network
        elif s.mechanism == "driver_conf_entry":
            # The entry is set by hand in the file the driver reads at boot; the script checks it.
            assert s.scope and s.scope in network
            assert f"set entry 1 of the {s.key} list" in network
        elif s.mechanism == "idmapd_conf":
            assert "IDMAPD=/etc/idmapd.conf" in files["host/tuning.sh"]
        elif s.mechanism == "interface" and os_name == "linux":
            assert 'nmcli connection modify "$CONN" 802-3-ethernet.mtu "$MTU"' in network
            assert 'printf "MTU=\'%s\'\\n" "$MTU"' in network
        elif s.mechanism == "interface" and os_name == "solaris" and release != "11":
            assert f"HOSTNAME_FILE=/etc/hostname.{s.scope}" in network
        elif s.mechanism == "interface" and os_name == "aix":
            assert 'chdev -l "$IF" -a mtu="$MTU"' in network  # the ODM keeps it
        elif s.mechanism == "interface":
            # No cited persistent command (HP-UX; Solaris 11 needs the link's IP interfaces
            # removed): a manual step that says how.
            assert "MANUAL" in network or "manual " in network
            assert "persistent" in network or "dladm set-linkprop" in network
        else:
            pytest.fail(f"{preset}: no persistence check for {s.mechanism} {s.key}")


def test_the_nfs4_id_domain_is_written_to_idmapd_conf_and_read_back(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    data = {
        **kb.presets["current-linux-ontap"].platform,
        "oracle": {**kb.presets["current-linux-ontap"].platform["oracle"], "nfs_version": "4.1"},
        "handover": {"nfs4_id_domain": "example.com"},
        "as_of": AS_OF.isoformat(),
    }
    plan = make_plan(kb, Platform.model_validate(data))
    assert [(s.key, s.mechanism) for s in plan.settings if s.rules == ["LNX-NFS4-IDMAPD-DOMAIN"]]
    files = render_bundle_files(plan)
    assert "DOMAIN=example.com" in files["host/tuning.sh"]
    assert "Domain = example.com" in files["verify/verify_host.sh"]
    assert 'cat "$saved" > /etc/idmapd.conf' in files["rollback/host_rollback.sh"]
    script = tmp_path / "tuning.sh"
    script.write_text(files["host/tuning.sh"])
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("sysctl", "nfsidmap"):
        _fake(bin_dir, name, "exit 0\n")
    out = _dry_run(script, bin_dir)
    assert "would set Domain = example.com in /etc/idmapd.conf" in out or (
        "ok: /etc/idmapd.conf has Domain = example.com" in out
    )
    unanswered = make_plan(kb, Platform.model_validate({**data, "handover": {}}))
    tuning = render_bundle_files(unanswered)["host/tuning.sh"]
    assert "DOMAIN='<nfsv4-id-domain>'" in tuning


def test_module_keys_absent_before_the_first_mount_are_left_to_modprobe_d(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    # Found by the lab (lab/README.md): on a host that has not used NFS since boot the sunrpc
    # keys do not exist, and `sysctl -w` of them stopped host/tuning.sh --apply (set -e); the
    # rollback then had no value to restore. The module is loaded first (its values recorded).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake(bin_dir, "sysctl", 'case "$*" in *sunrpc*) exit 255 ;; *) echo 1 ;; esac\n')
    _, files = _bundle(kb, "current-linux-ontap")
    script = tmp_path / "tuning.sh"
    script.write_text(files["host/tuning.sh"])
    out = _dry_run(script, bin_dir)
    loads = "the sunrpc module is not loaded yet (no NFS mount since boot)\n"
    loads += "would run: modprobe sunrpc"
    assert loads in out
    assert "would run: sysctl -w sunrpc" not in out
    assert (
        "sunrpc.tcp_max_slot_table_entries: the sunrpc module is not loaded yet; "
        "/etc/modprobe.d/90-nasplan-prod.conf sets it to 128 when the module loads" in out
    )
    assert "would run: sysctl -w net.core.rmem_max=" in out  # other keys are still set live


def test_verify_reads_sysctl_files_as_the_kernel_does(kb: KnowledgeBase, tmp_path: Path) -> None:
    # Found by the lab: Ansible's sysctl module writes `key=value`, and verify_host.sh, which
    # wanted the line `key = value` exactly, failed a host the playbook had set right.
    _, files = _bundle(kb, "current-linux-ontap")
    verify = files["verify/verify_host.sh"]
    function = verify[
        verify.index("file_sets() {") : verify.index("\n}\n", verify.index("file_sets() {")) + 3
    ]
    conf = tmp_path / "90.conf"
    cases = {
        "net.core.rmem_max=8388608\n": 0,
        "  net.core.rmem_max   =  8388608  \n": 0,
        "net.core.rmem_max = 4194304\nnet.core.rmem_max = 8388608\n": 0,
        "net.core.rmem_max = 8388608\nnet.core.rmem_max = 4194304\n": 1,
        "# net.core.rmem_max = 8388608\n": 1,
        "net.core.rmem_max_x = 8388608\n": 1,
    }
    for text, expected in cases.items():
        conf.write_text(text)
        done = subprocess.run(
            ["/bin/sh", "-c", function + f'file_sets net.core.rmem_max 8388608 "{conf}"'],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == expected, (text, done.stderr)
    spaced = subprocess.run(
        ["/bin/sh", "-c", function + "printf 'net.ipv4.tcp_rmem = 4096\\t87380  8388608\\n' > "
         f'"{conf}"; file_sets net.ipv4.tcp_rmem "4096 87380 8388608" "{conf}"'],
        check=False,
    )  # fmt: skip
    assert spaced.returncode == 0


def test_aix_sets_jumbo_frames_on_the_adapter_for_the_next_restart_first(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    # Issue 29: "AIX jumbo prerequisites only printed by a script".
    _, files = _bundle(kb, "example-aix")  # AIX 6.1, en1, jumbo frames
    script = tmp_path / "network.sh"
    script.write_text(files["host/network.sh"])
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake(bin_dir, "lsattr", 'case "$*" in *jumbo_frames*) echo no ;; *) echo 1500 ;; esac\n')
    _fake(bin_dir, "chdev", "exit 0\n")
    out = _dry_run(script, bin_dir)
    assert "would run: chdev -l ent1 -a jumbo_frames=yes -P" in out
    assert out.index("jumbo_frames=yes -P") < out.index("MTU now 1500; reboot first")
    _fake(bin_dir, "lsattr", 'case "$*" in *jumbo_frames*) echo yes ;; *) echo 1500 ;; esac\n')
    again = _dry_run(script, bin_dir)
    assert "ok: ent1 has jumbo_frames=yes" in again and "chdev -l ent1" not in again
    assert "would run: chdev -l en1 -a mtu=9000" in again
    assert 'do_run chdev -l "$adapter" -a "$key=$value" -P' in files["rollback/host_rollback.sh"]


def test_solaris_10_e1000g_reads_this_instance_s_max_frame_size_entry(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    # Issue 29: `ifconfig e1000g0 mtu 9000` "needs nothing", though it fails until the driver's
    # MaxFrameSize entry for the instance is 3 and the host has rebooted.
    _, files = _bundle(kb, "tr3496-lab")  # Solaris 10, e1000g0
    network = files["host/network.sh"]
    (line,) = [x for x in network.splitlines() if x.startswith("now=$(nawk -F= -v key=MaxFrame")]
    conf = tmp_path / "e1000g.conf"
    read = line.replace("nawk", "awk").replace("/kernel/drv/e1000g.conf", str(conf))
    for listed, entry in (("0,0,0,0", "0"), ("3, 0,0", "3"), ("", "")):
        conf.write_text(f"# MaxFrameSize\nMaxFrameSize={listed};\nFlowControl=3;\n")
        done = subprocess.run(
            ["/bin/sh", "-c", read + '\nprintf "%s" "$now"'], capture_output=True, text=True
        )
        assert done.stdout == entry, (listed, done.stdout)
    assert "set entry 1 of the MaxFrameSize list (instance 0, e1000g0) to 3" in network
    from nasplan.renderers.common import BundleMeta
    from nasplan.renderers.runbook import build_runbook

    data = kb.presets["tr3496-lab"].platform
    plan = make_plan(kb, Platform.model_validate({**data, "as_of": AS_OF.isoformat()}))
    view = build_runbook(plan, BundleMeta())
    nic = next(s for p in view.phases for s in p.steps if s.title.startswith("Host NIC"))
    assert nic.requires == "reboot of the host" and nic.reboot
    assert any("entry 1 (instance 0, e1000g0) of the MaxFrameSize list" in n for n in nic.notes)
    assert "the host reboots in step" in dict(view.change)["Database outage"]

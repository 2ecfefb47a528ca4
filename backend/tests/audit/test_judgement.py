"""What an expert would and would not say about real files (issue 26, kinds 3, 5, 6 and 9):
a right OS default left out is not an error, equal values spelled differently are equal, an
output is empty only when it says so, and a larger valid transfer size is not made smaller."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.platforms import linux_ontap, solaris_ontap7

_LINUX_DNFS = linux_ontap()


def _report(client: TestClient, files: dict[str, str]) -> dict[str, Any]:
    response = client.post("/api/v1/audits", json={"platform": _LINUX_DNFS, "files": files})
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


def _by_key(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for finding in report["findings"]:
        for key in finding["about"]:
            found.setdefault(key, []).append(finding)
    return found


def test_tcp_features_left_at_their_linux_default_are_at_most_an_info(
    client: TestClient,
) -> None:
    sysctl = "net.core.rmem_max = 16777216\nnet.core.wmem_max = 16777216\n"
    found = _by_key(_report(client, {"sysctl": sysctl}))
    for key in ("net.ipv4.tcp_sack", "net.ipv4.tcp_timestamps", "net.ipv4.tcp_window_scaling"):
        assert [f["severity"] for f in found[key]] == ["info"], key
        assert "defaults it to 1" in found[key][0]["message"]
        assert found[key][0]["fix"] is None
    # A setting whose default is not what the plan asks, and that the file does not show, may
    # be set in another file (/etc/sysctl.d/*.conf): it is listed as not checked, not unset.
    assert "sunrpc.tcp_max_slot_table_entries" not in found
    report = _report(client, {"sysctl": sysctl})
    assert any(n.startswith("sunrpc.tcp_max_slot_table_entries") for n in report["not_checked"])


def test_a_sysctl_key_with_its_words_out_of_order_sets_nothing(client: TestClient) -> None:
    """Microsoft's ANF Oracle article lists ``sunrpc.max_tcp_slot_table_entries: 128`` (corpus
    case ven-anf-oracle-multivol-sysctl-2023): a key with the words of the one a rule sets, in
    another order, is no kernel setting, and a colon is not how sysctl reads a line."""
    found = _by_key(_report(client, {"sysctl": "sunrpc.max_tcp_slot_table_entries = 128\n"}))
    [typo] = found["sunrpc.max_tcp_slot_table_entries"]
    assert (typo["severity"], typo["rule"]) == ("warning", "LNX-SUNRPC-SLOTS-128")
    assert "sunrpc.tcp_max_slot_table_entries has the same words" in typo["message"]
    assert typo["fix"] == "sunrpc.tcp_max_slot_table_entries = 128"
    colon = _by_key(_report(client, {"sysctl": "net.core.rmem_max: 16777216\n"}))
    [refused] = colon["net.core.rmem_max"]
    assert "only as name = value" in refused["message"]
    assert refused["fix"].startswith("net.core.rmem_max = ")  # the working form
    # A key of the knowledge base, or one with other words, is not called a misspelling.
    right = _by_key(_report(client, {"sysctl": "sunrpc.tcp_max_slot_table_entries = 128\n"}))
    assert not any("no setting" in f["message"] for fs in right.values() for f in fs)
    other = _report(client, {"sysctl": "vm.swappiness = 10\n"})
    assert not any("no setting" in f["message"] for f in other["findings"])


def test_a_socket_buffer_above_oracles_minimum_is_not_lowered(client: TestClient) -> None:
    """Oracle lists its socket buffer values as minimums and leaves a larger current value as it
    is (12.2 Grid Infrastructure guide for Linux, Minimum Parameter Settings for Installation):
    a sysctl file with net.core.rmem_max above 4194304 is not told to lower it, one below is."""
    above = _by_key(_report(client, {"sysctl": "net.core.rmem_max = 16777216\n"}))
    [kept] = above["net.core.rmem_max"]
    assert kept["severity"] == "info" and kept["fix"] is None
    assert "minimum" in kept["message"]
    below = _by_key(_report(client, {"sysctl": "net.core.rmem_max = 262144\n"}))
    [low] = below["net.core.rmem_max"]
    assert low["fix"] == "net.core.rmem_max = 4194304"
    assert "minimum" not in low["message"]


def test_a_default_turned_off_is_still_wrong(client: TestClient) -> None:
    found = _by_key(_report(client, {"sysctl": "net.ipv4.tcp_sack = 0\n"}))
    assert [f["severity"] for f in found["net.ipv4.tcp_sack"]] == ["warning"]


def test_switches_and_sizes_are_compared_as_what_they_mean(client: TestClient) -> None:
    sysctl = "net.ipv4.tcp_sack = on\nnet.ipv4.tcp_timestamps = 1\n"
    found = _by_key(_report(client, {"sysctl": sysctl}))
    assert "net.ipv4.tcp_sack" not in found


def test_nfsv3_0_as_v_dnfs_servers_prints_it_is_nfsv3(client: TestClient) -> None:
    output = (
        "SVRNAME    DIRNAME       NFSVERSION\n"
        "---------- ------------- ----------\n"
        "svm1       /prod_data    NFSv3.0\n"
        "\n"
        "1 row selected.\n"
    )
    report = _report(client, {"dnfs_servers": output})
    assert report["checked"] == {"dnfs_servers": 1}
    assert "nfs_version" not in _by_key(report)


def test_no_rows_is_said_only_when_the_output_says_it(client: TestClient) -> None:
    said = _by_key(
        _report(
            client, {"dnfs_servers": "SQL> select * from v$dnfs_servers;\n\nno rows selected\n"}
        )
    )
    assert [f["severity"] for f in said["rows"]] == ["warning"]
    # A table nasplan could not read is reported as lines not understood, not as "no rows".
    unread = _report(client, {"dnfs_servers": "SVRNAME DIRNAME\n=======\nsvm1 /x y z\n"})
    assert "rows" not in _by_key(unread)
    assert unread["ignored_count"]["dnfs_servers"] >= 1


def test_a_larger_valid_transfer_size_is_not_made_smaller(client: TestClient) -> None:
    platform = dict(_LINUX_DNFS, oracle={"version": "19.21", "dnfs": False})
    fstab = (
        "svm1:/prod_data /u02/oradata nfs "
        "rw,bg,hard,vers=3,proto=tcp,rsize=1048576,wsize=1048576,timeo=600,actimeo=0 0 0\n"
    )
    response = client.post("/api/v1/audits", json={"platform": platform, "files": {"fstab": fstab}})
    found = _by_key(response.json())
    for key in ("rsize", "wsize"):
        assert {f["severity"] for f in found.get(key, [])} <= {"info"}, found.get(key)
    too_big = fstab.replace("rsize=1048576", "rsize=2097152")
    response = client.post(
        "/api/v1/audits", json={"platform": platform, "files": {"fstab": too_big}}
    )
    # Above Linux's 1 MiB maximum the client takes the largest size both ends support
    # (nfs(5)): worth saying, not an error.
    above = _by_key(response.json())["rsize"]
    assert [(f["severity"], f["rule"]) for f in above] == [("info", "MNT-TRANSFER-SIZE-CAPS")]
    assert "nfs(5)" in above[0]["message"] or "MOUNT OPTIONS" in above[0]["message"]
    # Where nfs(5)'s negotiation is not on record (RHEL 5), the rule's own reason stands: a
    # size above the client's maximum is negotiated down (MNT-TRANSFER-SIZE-CAPS), so it is
    # an info that names the size actually used, not an error (issue 26, corpus case
    # lnx-robsteele-datadomain-rman-mount-2010).
    old_linux = dict(platform, host={"os": "linux", "os_version": "rhel5", "arch": "x86_64"})
    old_linux["oracle"] = {"version": "11.2.0.4", "dnfs": False}
    response = client.post(
        "/api/v1/audits", json={"platform": old_linux, "files": {"fstab": too_big}}
    )
    old = _by_key(response.json())["rsize"]
    assert [(f["severity"], f["rule"]) for f in old] == [("info", "MNT-TRANSFER-SIZE-CAPS")]
    assert "rsize=1048576 says plainly what is used" in old[0]["message"]


def test_runtime_output_is_not_told_a_default_is_missing(client: TestClient) -> None:
    platform = dict(_LINUX_DNFS, oracle={"version": "19.21", "dnfs": False})
    proc_mounts = (
        "svm1:/prod_data /u02/oradata nfs rw,relatime,vers=3,rsize=262144,wsize=262144,"
        "namlen=255,proto=tcp,port=0,timeo=600,retrans=2,sec=sys,mountaddr=10.0.0.5,"
        "mountvers=3,mountport=635,mountproto=tcp,local_lock=none,addr=10.0.0.5 0 0\n"
    )
    response = client.post(
        "/api/v1/audits", json={"platform": platform, "files": {"mount": proc_mounts}}
    )
    assert "hardness" not in _by_key(response.json())


def test_a_linux_default_holds_only_for_the_releases_that_have_it(client: TestClient) -> None:
    """Linux negotiates the largest rsize when it is left out from 2.6.25-era kernels on (RHEL
    6 and later); on RHEL 5 a missing rsize is still a finding."""
    fstab = "svm1:/prod_data /u02/oradata nfs rw,bg,hard,vers=3,proto=tcp,timeo=600,actimeo=0 0 0\n"

    def rsize_severities(release: str) -> set[str]:
        platform = dict(
            _LINUX_DNFS,
            host={"os": "linux", "os_version": release, "arch": "x86_64"},
            oracle={"version": "11.2.0.4", "dnfs": False},
        )
        body = {"platform": platform, "files": {"fstab": fstab}}
        response = client.post("/api/v1/audits", json=body)
        assert response.status_code == 200, response.text
        return {f["severity"] for f in _by_key(response.json()).get("rsize", [])}

    assert rsize_severities("rhel6") == {"info"}
    assert "warning" in rsize_severities("rhel5")


def test_a_smaller_size_above_oracles_floor_is_a_choice_below_it_a_warning(
    client: TestClient,
) -> None:
    """NetApp's own Azure NetApp Files TR mounts with 64 KB where nasplan plans 256 KB: that is
    a tuning choice (info); 8 KB is below the 32 KB Oracle asks for (a warning)."""
    platform = dict(
        _LINUX_DNFS,
        oracle={"version": "19.21", "dnfs": False},
        filer={"vendor": "azure_anf", "service_level": "premium", "capacity_tib": 8},
        network={"nic_gbps": 25, "nic_count": 1, "jumbo_frames": False},
    )

    def severities(size: int) -> set[str]:
        fstab = (
            "10.0.0.4:/ora01 /u02 nfs rw,bg,hard,vers=3,proto=tcp,timeo=600,"
            f"rsize={size},wsize={size},actimeo=0 0 0\n"
        )
        body = {"platform": platform, "files": {"fstab": fstab}, "roles": {"/u02": ["data"]}}
        response = client.post("/api/v1/audits", json=body)
        assert response.status_code == 200, response.text
        return {f["severity"] for f in _by_key(response.json()).get("rsize", [])}

    assert severities(65536) == {"info"}
    assert "warning" in severities(8192)


def test_noac_on_a_backup_mount_is_raised_and_its_role_is_named(client: TestClient) -> None:
    """Issue 26 (kind 8): noac makes every write of an RMAN backup or a Data Pump dump wait
    for the filer; Oracle's note says to leave it off those mounts."""
    fstab = (
        "nas01:/rman_backup /backup/rman nfs rw,bg,hard,vers=3,proto=tcp,timeo=600,noac 0 0\n"
        "nas01:/tools /opt/tools nfs rw,bg,hard,vers=3,proto=tcp,timeo=600,noac 0 0\n"
    )
    report = _report(client, {"fstab": fstab})
    roles = {a["mount_point"]: a["role"] for a in report["assignments"]}
    assert roles == {"/backup/rman": "backup", "/opt/tools": None}
    noac = [f for f in _by_key(report).get("noac", []) if f["severity"] != "info"]
    assert [(f["line"], f["rule"], f["severity"]) for f in noac] == [
        (1, "MNT-BACKUP-NO-NOAC", "warning")
    ]


def test_an_ndd_set_with_name_equals_value_is_a_command_that_fails(client: TestClient) -> None:
    """TR-3496 prints ``ndd -set /dev/tcp tcp_recv_hiwat=65535``: ndd takes the value as its own
    argument, so the line fails and sets nothing; the fix is the planned form."""
    platform = solaris_ontap7("9", "9.2.0.4", "2006-09-01")
    ndd = "ndd -set /dev/tcp tcp_recv_hiwat=65535\nndd -set /dev/tcp tcp_xmit_hiwat=65535\n"
    response = client.post("/api/v1/audits", json={"platform": platform, "files": {"ndd": ndd}})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["checked"] == {"ndd": 2}
    failing = [f for f in report["findings"] if "not a form the command accepts" in f["message"]]
    assert [(f["line"], f["about"]) for f in failing] == [
        (1, ["tcp_recv_hiwat"]),
        (2, ["tcp_xmit_hiwat"]),
    ]
    assert all(f["fix"].startswith("ndd -set /dev/tcp tcp_") for f in failing)
    assert all(f["severity"] != "info" for f in failing)
    # Where the plan sets neither (Solaris 10 at 1 GbE), each line still fails: a warning that
    # names the rule that knows the setting, with the value the line meant in the working form
    # (issue 26, corpus case unx-sol-tr3496-ndd-2006).
    platform["host"] = {"os": "solaris", "os_version": "10", "arch": "sparc"}
    platform["oracle"] = {"version": "10.2.0.1", "dnfs": False}
    response = client.post("/api/v1/audits", json={"platform": platform, "files": {"ndd": ndd}})
    failing = [f for f in response.json()["findings"] if "not a form the command" in f["message"]]
    assert [(f["line"], f["severity"], f["rule"], f["fix"]) for f in failing] == [
        (1, "warning", "SOL-TCP-HIWAT-64K", "ndd -set /dev/tcp tcp_recv_hiwat 65535"),
        (2, "warning", "SOL-TCP-HIWAT-64K", "ndd -set /dev/tcp tcp_xmit_hiwat 65535"),
    ]
    assert all("does not set it on this platform" in f["message"] for f in failing)
    # A name no rule knows is listed as not checked: nothing to cite.
    odd = "ndd -set /dev/tcp tcp_odd_knob=3\n"
    response = client.post("/api/v1/audits", json={"platform": platform, "files": {"ndd": odd}})
    notes = [n for n in response.json()["not_checked"] if "not a form the command" in n]
    assert [n.split(":")[0] for n in notes] == ["ndd line 1"]


def test_one_count_per_line_and_no_warned_line_passed_over_in_the_corrected_file(
    client: TestClient,
) -> None:
    """Issue 24: four options wrong on one line are one line to act on; a line warned about but
    with no planned line to write instead stays as it was under a comment saying why."""
    platform = dict(_LINUX_DNFS, oracle={"version": "19.21", "dnfs": False})
    fstab = (
        "svm1:/prod_data /u02/oradata nfs rw,bg,soft,vers=3,proto=udp,rsize=8192,wsize=8192 0 0\n"
        "svm1:/misc /mnt/misc nfs "
        "rw,bg,hard,nointr,rsize=262144,wsize=262144,vers=3,proto=tcp,timeo=600,noac 0 0\n"
    )
    response = client.post("/api/v1/audits", json={"platform": platform, "files": {"fstab": fstab}})
    report = response.json()
    assert len([f for f in report["findings"] if f["line"] == 1]) > 2
    # Line 2 holds files nasplan cannot name: noac is wrong whatever Oracle files it holds on a
    # single instance (a warning), and there is no planned line for it to write instead.
    assert report["line_counts"] == {"error": 1, "warning": 1}
    corrected = report["corrected"]["fstab"].splitlines()
    assert corrected[0].startswith("svm1:/prod_data\t/u02/oradata\tnfs\trw,bg,hard,")
    assert corrected[1].startswith("# nasplan: left as it was, to change by hand: /mnt/misc: ")
    assert corrected[2] == fstab.splitlines()[1]


def test_actimeo_as_a_running_linux_system_shows_it(client: TestClient) -> None:
    """/proc/mounts shows actimeo=0 as its four timers; a RAC datafile mount made with
    actimeo=0 is not told it lacks it (the lab's judge reads /proc/mounts the same way)."""
    platform = linux_ontap(
        dnfs=False, oracle={"version": "19.21", "dnfs": False, "rac": True, "rac_nodes": 2}
    )
    proc_mounts = (
        "svm1:/prod_data /u02/oradata/PROD nfs rw,sync,relatime,vers=3,rsize=262144,"
        "wsize=262144,namlen=255,acregmin=0,acregmax=0,acdirmin=0,acdirmax=0,hard,proto=tcp,"
        "timeo=600,retrans=2,sec=sys,mountaddr=10.0.0.5,mountvers=3,mountproto=tcp,"
        "local_lock=none,addr=10.0.0.5 0 0\n"
    )
    body = {
        "platform": platform,
        "files": {"mount": proc_mounts},
        "roles": {"/u02/oradata/PROD": ["data"]},
    }
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    assert "actimeo" not in _by_key(response.json())
    unequal = proc_mounts.replace("acregmax=0", "acregmax=60")
    body["files"] = {"mount": unequal}
    response = client.post("/api/v1/audits", json=body)
    assert "actimeo" in _by_key(response.json())


def test_a_line_mounted_by_hand_is_not_told_to_mount_in_the_background(
    client: TestClient,
) -> None:
    """bg and fg decide how a boot-time mount retries; a noauto line is mounted by hand, where fg
    is what is wanted (corpus case prb-unibet-imagecopy-zfssa-soft-fstab-2016, line 3)."""
    platform = dict(_LINUX_DNFS, oracle={"version": "19.21", "dnfs": False})
    line = (
        "svm1:/prod_data /u02/oradata nfs "
        "rw,fg,hard,nointr,rsize=262144,wsize=262144,vers=3,proto=tcp,timeo=600,noauto,user 0 0\n"
    )
    body = {"platform": platform, "files": {"fstab": line}, "roles": {"/u02/oradata": ["data"]}}
    response = client.post("/api/v1/audits", json=body)
    retry = _by_key(response.json())["retry"]
    assert [(f["severity"], f["rule"]) for f in retry] == [("info", "MNT-RW-BG-HARD")]
    assert "noauto" in retry[0]["message"]
    # At boot, bg is missing: information, since it decides whether a boot waits for the
    # filer, not whether a write is safe (tests/audit/test_boot_options.py).
    body["files"] = {"fstab": line.replace(",noauto,user", "")}
    response = client.post("/api/v1/audits", json=body)
    retry = _by_key(response.json())["retry"]
    assert [(f["severity"], f["rule"]) for f in retry] == [("info", "MNT-RW-BG-HARD")]
    assert "bg is missing" in retry[0]["message"], retry


def test_a_mount_command_typed_at_a_shell_is_not_told_to_mount_in_the_background(
    client: TestClient,
) -> None:
    """A mount command is mounted by hand, not at boot, so bg (how a boot-time mount retries)
    is an info there, as on a noauto line (corpus case unx-sol-posulliv-rac10g-mount-cmd-2008);
    the same options in a vfstab line are still told bg is missing."""
    platform = solaris_ontap7("10", "10.2.0.4", "2008-11-29")
    options = "rw,hard,nointr,rsize=32768,wsize=32768,noac,proto=tcp,forcedirectio,vers=3"
    roles = {"/u03": ["data"]}
    command = f"# mount -F nfs -o {options} filer01:/export/oradata /u03\n"
    body = {"platform": platform, "pastes": [{"name": "c", "text": command}], "roles": roles}
    retry = _by_key(client.post("/api/v1/audits", json=body).json())["retry"]
    assert [(f["severity"], f["rule"]) for f in retry] == [("info", "MNT-RW-BG-HARD")]
    assert "command typed at a shell" in retry[0]["message"]
    vfstab = f"filer01:/export/oradata - /u03 nfs - yes {options}\n"
    body = {"platform": platform, "files": {"vfstab": vfstab}, "roles": roles}
    retry = _by_key(client.post("/api/v1/audits", json=body).json())["retry"]
    assert [(f["severity"], f["rule"]) for f in retry] == [("info", "MNT-RW-BG-HARD")]
    assert "bg is missing" in retry[0]["message"], retry


def test_linux_speaks_tcp_when_no_transport_is_written(client: TestClient) -> None:
    """nfs(5), TRANSPORT METHODS: with no transport option the Linux client reaches the NFS
    service over TCP. A line without proto is then told so in an info, and the mount output of
    an older mount(8), which lists the options as given (corpus case
    lnx-ntap-migration-host1-mount-2015), is not told proto=tcp is missing."""
    platform = dict(_LINUX_DNFS, oracle={"version": "12.1.0.2", "dnfs": False})
    roles = {"/oradata": ["data"]}
    line = "svm1:/oradata /oradata nfs rw,bg,hard,vers=3,rsize=65536,wsize=65536,timeo=600 0 0\n"
    body = {"platform": platform, "files": {"fstab": line}, "roles": roles}
    proto = _by_key(client.post("/api/v1/audits", json=body).json())["proto"]
    assert [f["severity"] for f in proto] == ["info"], proto
    assert "proto=tcp is not written" in proto[0]["message"]
    given = (
        "svm1:/oradata on /oradata type nfs (rw,bg,vers=3,rsize=65536,wsize=65536,addr=10.0.0.5)\n"
    )
    body = {"platform": platform, "files": {"mount": given}, "roles": roles}
    found = _by_key(client.post("/api/v1/audits", json=body).json())
    assert "proto" not in found or {f["severity"] for f in found["proto"]} == {"info"}
    udp = line.replace("vers=3", "vers=3,proto=udp")
    body = {"platform": platform, "files": {"fstab": udp}, "roles": roles}
    proto = _by_key(client.post("/api/v1/audits", json=body).json())["proto"]
    assert {f["severity"] for f in proto} & {"warning", "error"}, proto


def test_a_solaris_line_without_rw_or_hard_has_them_by_default(client: TestClient) -> None:
    """Solaris mounts NFS read/write, hard and interruptible unless told otherwise (Solaris
    System Administration Guide, General Mount Options): leaving them out is an info, and soft
    is still an error."""
    platform = solaris_ontap7("10", "10.2.0.4", "2010-06-01")
    line = "filer01:/vol/prod_data - /u02/oradata/PROD nfs - yes bg,vers=3,proto=tcp{extra}\n"

    def found(extra: str) -> dict[str, list[dict[str, Any]]]:
        body = {"platform": platform, "files": {"vfstab": line.format(extra=extra)}}
        response = client.post("/api/v1/audits", json=body)
        assert response.status_code == 200, response.text
        return _by_key(response.json())

    defaults = found("")
    # As of 2010 the plan still asks for intr on Solaris (TR-3322's 2004 advice), which is
    # Solaris's default too.
    for key in ("access", "hardness", "intr"):
        assert {f["severity"] for f in defaults.get(key, [])} == {"info"}, key
        assert all("Solaris does when it is left out" in f["message"] for f in defaults[key])
    assert {f["severity"] for f in found(",soft")["hardness"]} == {"error"}


def test_every_mount_point_the_audit_reports_can_be_given_its_role(client: TestClient) -> None:
    """Issue 26: the page offers a role for each mount the audit read, and the answer is sent
    back keyed by that mount point. Real files carry mount points beyond letters and digits (a
    Kubernetes volume path with '~', a quoted directory, an unexpanded shell variable), so each
    must be accepted and applied, not refused with 422."""
    points = [
        "/var/lib/kubelet/pods/f4/volumes/kubernetes.io~nfs/pvc-b8",
        '/ZFS/BACKUP/DATA_"DB_DIR"_01',
        "${mount}$j",
    ]
    fstab = "".join(
        f"nas01:/vol{n} {point} nfs rw,bg,hard,vers=3,proto=tcp,timeo=600 0 0\n"
        for n, point in enumerate(points)
    )
    first = _report(client, {"fstab": fstab})
    assert [a["mount_point"] for a in first["assignments"]] == points
    body = {
        "platform": _LINUX_DNFS,
        "files": {"fstab": fstab},
        "roles": {point: ["backup"] for point in points},
    }
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    declared = {a["mount_point"]: (a["role"], a["basis"]) for a in response.json()["assignments"]}
    assert declared == dict.fromkeys(points, ("backup", "yours"))


def test_a_declared_role_for_a_mount_point_no_file_can_carry_is_refused(
    client: TestClient,
) -> None:
    """A mount point is one token of a line: whitespace or a control character cannot be one,
    so such a key is refused with 422 naming the field."""
    for point, says in [
        ("/u02 data", "space U+0020 at position 4"),
        ("/u02\tx", "control character U+0009 at position 4"),
        ("/u02\x01", "control character U+0001 at position 4"),
        ("", "needs a character"),
        ("/" + "d" * 255, "at most 255 characters"),
    ]:
        body = {
            "platform": _LINUX_DNFS,
            "files": {"fstab": "nas01:/d /u02 nfs rw,hard 0 0\n"},
            "roles": {point: ["data"]},
        }
        response = client.post("/api/v1/audits", json=body)
        assert response.status_code == 422, (point, response.text)
        errors = response.json()["detail"]
        assert [e["loc"][:2] for e in errors] == [["body", "roles"]], errors
        assert says in errors[0]["msg"], errors

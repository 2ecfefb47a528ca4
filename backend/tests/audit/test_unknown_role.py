"""A mount line whose files nothing names (issue 26, kind 7): the audit says what holds whatever
Oracle files it carries, and nothing that only one role needs or forbids.

- what every planned Oracle mount has, from a rule that asks it for every Oracle file: another
  value is what the rule gives where the rule guards the data (soft for hard: an error), else
  an info; a missing one a warning where it weighs high or more, else an info;
- an option forbidden for every role the line could hold, backups included (noac on a single
  instance): a warning at the least severity those rules give;
- a line whose mount point names something that is not Oracle's (tools) is left alone.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.platforms import linux_ontap

_SI = linux_ontap(dnfs=False)


def _audit(
    client: TestClient, fstab: str, platform: dict[str, Any] | None = None
) -> dict[str, Any]:
    body = {"platform": platform or _SI, "files": {"fstab": fstab}}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


def _raised(report: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        key: (f["severity"], f["rule"])
        for f in report["findings"]
        if f["severity"] != "info"
        for key in f["about"]
    }


def test_what_every_oracle_mount_needs_is_said_whatever_the_line_holds(
    client: TestClient,
) -> None:
    report = _audit(client, "nas1:/vol9 /u05 nfs rw,bg,soft,intr,noac 0 0\n")
    assert [(a["role"], a["basis"]) for a in report["assignments"]] == [(None, "unknown")]
    raised = _raised(report)
    assert raised["hardness"] == ("error", "MNT-RW-BG-HARD")
    assert raised["vers"] == ("warning", "NFS-V3-TCP")
    assert raised["noac"] == ("warning", "MNT-NO-ACTIMEO-SI")
    # intr is a medium rule's matter and timeo is Linux's default over TCP: not raised.
    assert "intr" not in raised and "timeo" not in raised
    hard = next(f for f in report["findings"] if f["about"] == ["hardness"])
    assert "what it holds is not known" in hard["message"]
    # The line to write instead passes the audit itself (nothing at warning or above).
    fixed = hard["fix"]
    assert fixed and "hard" in fixed.split()[3].split(",")
    again = _audit(client, fixed + "\n")
    assert _raised(again) == {}, again["findings"]


def test_an_option_one_role_needs_is_not_called_wrong_on_an_unknown_line(
    client: TestClient,
) -> None:
    """On RAC, noac is what the Clusterware files need (LNX-RAC-CRS-NOAC): a line of unknown
    files that carries it is not told to drop it."""
    rac = linux_ontap(dnfs=False, oracle={"version": "19.21", "rac": True, "rac_nodes": 2})
    line = "nas1:/vol9 /u05 nfs rw,bg,hard,nointr,vers=3,proto=tcp,timeo=600,noac,actimeo=0 0 0\n"
    raised = _raised(_audit(client, line, rac))
    assert "noac" not in raised and "actimeo" not in raised


def test_a_line_named_for_tools_is_not_checked_as_oracle_files(client: TestClient) -> None:
    report = _audit(client, "nas1:/tools /opt/tools nfs rw,soft,noac 0 0\n")
    assignment = report["assignments"][0]
    assert assignment["role"] is None and "not Oracle files" in assignment["reason"]
    assert [f for f in report["findings"] if f["line"] == 1] == []


def test_the_only_nfs_line_of_a_rac_node_holds_the_clusterware_files(client: TestClient) -> None:
    """A cluster keeps its registry and voting files on shared storage: where the plan puts them
    on NFS and the paste shows one NFS mount, that mount carries them (corpus case
    lnx-oracledbaru-rac121-fstab-2015). A second line takes the guess away."""
    rac = linux_ontap(dnfs=False, oracle={"version": "19.21", "rac": True, "rac_nodes": 2})
    line = "storage:/raid /u02 nfs rw,bg,hard,nointr,tcp,vers=3,timeo=600,actimeo=0 0 0\n"
    report = _audit(client, line, rac)
    assert [(a["role"], a["basis"]) for a in report["assignments"]] == [("crs", "inferred")]
    assert "only NFS mount of a RAC node" in report["assignments"][0]["reason"]
    assert _raised(report)["noac"] == ("error", "LNX-RAC-CRS-NOAC")
    two = _audit(client, line + "storage:/arch /u03 nfs rw,bg,hard 0 0\n", rac)
    assert [(a["role"], a["basis"]) for a in two["assignments"]] == [
        (None, "unknown"),
        ("archive", "named"),
    ]


def test_noac_brings_actimeo_0_with_it_on_linux(client: TestClient) -> None:
    """nfs(5): noac turns the attribute cache off, which is what actimeo=0 asks; a Clusterware
    line with noac alone is not told actimeo=0 is missing (corpus case
    lnx-deleglise-rac11202-votedisk-fstab-2010)."""
    rac = linux_ontap(dnfs=False, oracle={"version": "19.21", "rac": True, "rac_nodes": 2})
    line = (
        "nfs:/votedisk /votedisk nfs "
        "rw,bg,hard,nointr,rsize=32768,wsize=32768,tcp,noac,vers=3,timeo=600 0 0\n"
    )
    report = _audit(client, line, rac)
    assert [a["role"] for a in report["assignments"]] == ["crs"]
    assert "actimeo" not in _raised(report)
    without = _audit(client, line.replace(",noac", ""), rac)
    assert set(_raised(without)) >= {"noac", "actimeo"}


def test_bare_u01_u02_u03_together_are_read_as_binaries_data_and_logs(
    client: TestClient,
) -> None:
    """NetApp's Oracle reports lay out /u01 (binaries), /u02 (data files) and /u03 (logs); the
    three together say so, with the inference shown as such so the user can correct it."""
    fstab = "".join(
        f"nas1:/ora_01_u0{n} /u0{n} nfs rw,bg,hard,vers=3,proto=tcp,timeo=600 0 0\n"
        for n in (1, 2, 3)
    )
    report = _audit(client, fstab)
    assert [(a["mount_point"], a["role"], a["basis"]) for a in report["assignments"]] == [
        ("/u01", "oracle_home", "inferred"),
        ("/u02", "data", "inferred"),
        ("/u03", "redo", "inferred"),
    ]
    assert "say so if yours differ" in report["assignments"][0]["reason"]


def test_one_bare_ofa_point_alone_is_not_guessed(client: TestClient) -> None:
    fstab = (
        "nas1:/vol1 /u01 nfs rw,bg,hard,vers=3,proto=tcp,timeo=600 0 0\n"
        "nas1:/vol2 /u02 nfs rw,bg,hard,vers=3,proto=tcp,timeo=600 0 0\n"
    )
    report = _audit(client, fstab)
    assert [(a["role"], a["basis"]) for a in report["assignments"]] == [
        (None, "unknown"),
        (None, "unknown"),
    ]


def test_an_export_named_for_binaries_holds_the_oracle_home(client: TestClient) -> None:
    """TR-4974 names its binaries volume ora_01_biny."""
    report = _audit(client, "nas1:/ora_01_biny /u01 nfs rw,bg,hard,vers=3,proto=tcp 0 0\n")
    assert [(a["role"], a["basis"]) for a in report["assignments"]] == [("oracle_home", "named")]
    # "bin" inside another word names nothing.
    report = _audit(client, "nas1:/cabinet /mnt/x nfs rw,bg,hard,vers=3,proto=tcp 0 0\n")
    assert [a["role"] for a in report["assignments"]] == [None]


def test_a_grid_home_holds_programs_and_shared_config_holds_the_clusterware_files(
    client: TestClient,
) -> None:
    """Issue 26, kind 7: in a RAC fstab the OCR and voting files' mount (``/u01/shared_config``,
    where the oracle-base RAC-on-NFS builds put them) was missed, while the shared Grid
    Infrastructure home (``/u01/app/<release>/grid``: Oracle's Optimal Flexible Architecture
    home, programs) was told it lacked noac as if it held the voting files (corpus case
    lnx-sfdan-rac11204-nfs-fstab-2019)."""
    rac = linux_ontap(dnfs=False, oracle={"version": "11.2.0.4", "rac": True, "rac_nodes": 2})
    options = "rw,bg,hard,nointr,tcp,vers=3,timeo=600,rsize=32768,wsize=32768,actimeo=0"
    fstab = (
        f"nas1:/share/shared_config /u01/shared_config nfs {options} 0 0\n"
        f"nas1:/share/shared_grid /u01/app/11.2.0/grid nfs {options} 0 0\n"
        f"nas1:/share/grid_base /u01/app/grid nfs {options} 0 0\n"
    )
    report = _audit(client, fstab, rac)
    assert [(a["role"], a["basis"]) for a in report["assignments"]] == [
        ("crs", "named"),
        ("oracle_home", "named"),
        ("oracle_home", "named"),
    ]
    assert "Grid Infrastructure" in report["assignments"][1]["reason"]
    raised = {
        (f["line"], key): f["rule"]
        for f in report["findings"]
        if f["severity"] != "info"
        for key in f["about"]
    }
    assert raised.get((1, "noac")) == "LNX-RAC-CRS-NOAC"
    assert (2, "noac") not in raised and (3, "noac") not in raised
    # A mount named for the cluster files keeps its role.
    alone = _audit(client, f"nas1:/vol/crs /u02/grid_ocr nfs {options} 0 0\n", rac)
    assert [a["role"] for a in alone["assignments"]] == ["crs"]


def test_data_inside_another_word_names_no_data_files(client: TestClient) -> None:
    """A Data Guard staging share (``/OINSTALL/_dataguard_setup``, corpus case
    aut-budac-dataguard-share-mount-cmd-2026) was read as a data-file mount because "data"
    begins "dataguard", and its NFSv4 was reported as an error against the data files' NFSv4.1.
    "data" in a word of its own (data1, oradata, DATA_VOL) still names data files."""
    options = "rw,bg,hard,vers=3,proto=tcp,timeo=600"
    for device, point in (
        ("nas1:/OINSTALL/_dataguard_setup", "/OINSTALL/_dataguard_setup"),
        ("nas1:/vol/metadata", "/mnt/metadata"),
    ):
        report = _audit(client, f"{device} {point} nfs {options} 0 0\n")
        assert [a["role"] for a in report["assignments"]] == [None], point
    for device, point in (
        ("nas1:/vol/oradata", "/u02/oradata"),
        ("nas1:/vol/DATA_VOL", "/nfs/SID/data1"),
        ("nas1:/vol/v1", "/data01"),
        ("nas1:/vol/v1", "/u02/datafiles"),
    ):
        report = _audit(client, f"{device} {point} nfs {options} 0 0\n")
        assert [a["role"] for a in report["assignments"]] == ["data"], point

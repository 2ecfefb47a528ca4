"""Audits of configuration as it exists on real systems: mount points that are not nasplan's,
options copied from old notes, several pastes recognised by their content."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase

# An /etc/fstab of the kind the issue describes: the database runs, its options do not.
REAL_FSTAB = (
    "# /etc/fstab\n"
    "UUID=4f1c-root  /          xfs   defaults        0 0\n"
    "filer01:/vol/ora_data   /u02/oradata   nfs  "
    "rw,bg,soft,intr,rsize=8192,wsize=8192,vers=3,proto=udp,timeo=600,actimeo=0  0 0\n"
    "filer01:/vol/ora_redo   /u03/oraredo   nfs  "
    "rw,bg,hard,nointr,rsize=32768,wsize=32768,vers=3,tcp,timeo=600  0 0\n"
    "filer01:/vol/backup     /backup        nfs  rw,bg,soft,rsize=65536,wsize=65536  0 0\n"
)


def _platform(kb: KnowledgeBase) -> dict[str, Any]:
    return kb.presets["example-linux-knfs-7mode"].platform


def _post(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_a_real_fstab_is_matched_by_role_and_its_options_checked(
    client: TestClient, kb: KnowledgeBase
) -> None:
    report = _post(client, {"platform": _platform(kb), "files": {"fstab": REAL_FSTAB}})
    assignments = {(a["line"], a["mount_point"]): a["role"] for a in report["assignments"]}
    assert assignments == {
        (3, "/u02/oradata"): "data",
        (4, "/u03/oraredo"): "redo",
        (5, "/backup"): "backup",
    }
    line3 = {(f["rule"], f["severity"]) for f in report["findings"] if f["line"] == 3}
    assert line3 == {
        ("MNT-RW-BG-HARD", "error"),  # soft
        ("NFS-V3-TCP", "error"),  # proto=udp
        ("MNT-NOINTR", "info"),  # intr: Oracle Linux 6's client ignores intr and nointr
        ("MNT-RWSIZE-32K", "warning"),  # rsize=8192 and wsize=8192
        ("MNT-NO-ACTIMEO-SI", "warning"),  # actimeo=0 on a single instance
    }
    fix = next(f["fix"] for f in report["findings"] if f["line"] == 3)
    assert fix.startswith("filer01:/vol/ora_data\t/u02/oradata\tnfs\trw,bg,hard,nointr,")
    to_act_on = [f for f in report["findings"] if f["line"] == 3 and f["severity"] != "info"]
    assert to_act_on and all(f["applies_with"] == "remount" for f in to_act_on)
    # The redo line is right. The backup line holds files nothing names: soft is unsafe for any
    # Oracle file, so a warning (not an error that assumes a role), and leaving the NFS version
    # to negotiation is a warning whatever it holds (issue 26, kinds 7 and 8).
    assert not [f for f in report["findings"] if f["line"] == 4]
    backup = [f for f in report["findings"] if f["line"] == 5]
    assert sorted((f["rule"], f["severity"], f["about"]) for f in backup) == [
        ("MNT-RW-BG-HARD", "warning", ["hardness"]),
        ("NFS-V3-TCP", "warning", ["vers"]),
    ]
    assert any("archive" in line and "no pasted line" in line for line in report["not_checked"])


def test_the_user_corrects_a_role(client: TestClient, kb: KnowledgeBase) -> None:
    body = {
        "platform": _platform(kb),
        "files": {"fstab": REAL_FSTAB},
        "roles": {"/backup": ["archive"], "/u02/oradata": ["other"]},
    }
    report = _post(client, body)
    roles = {a["mount_point"]: (a["role"], a["reason"]) for a in report["assignments"]}
    assert roles["/backup"] == ("archive", "you said /backup holds archive")
    assert not [f for f in report["findings"] if f["line"] == 3]
    assert ("MNT-RW-BG-HARD", "error") in {
        (f["rule"], f["severity"]) for f in report["findings"] if f["line"] == 5
    }


def test_pastes_are_recognised_and_compared(client: TestClient, kb: KnowledgeBase) -> None:
    sysctl = "net.core.rmem_max = 262144\nnet.core.wmem_max = 8388608\nnet.ipv4.tcp_sack = 1\n"
    show_parameter = (
        "NAME                                 TYPE        VALUE\n"
        "------------------------------------ ----------- ------------------------------\n"
        "filesystemio_options                 string      none\n"
        "db_file_multiblock_read_count        integer     16\n"
    )
    body = {
        "platform": _platform(kb),
        "pastes": [
            {"name": "sysctl -a", "text": sysctl},
            {"name": "show parameter", "text": show_parameter},
        ],
    }
    report = _post(client, body)
    assert report["checked"]["sysctl"] == 3 and report["checked"]["show_parameter"] == 2
    by_message = {f["message"]: f for f in report["findings"]}
    rmem = by_message["net.core.rmem_max = 262144; the plan sets 8388608."]
    assert (rmem["file"], rmem["line"], rmem["fix"]) == (
        "sysctl",
        1,
        "net.core.rmem_max = 8388608",
    )
    assert any(
        f["file"] == "show_parameter" and f["message"].startswith("filesystemio_options = none")
        for f in report["findings"]
    )
    # Files not pasted are listed as not checked, not as failures.
    assert any("nosnap (Data ONTAP 7-mode volume option)" in line for line in report["not_checked"])
    # A pasted sysctl file is one of several (/etc/sysctl.d): what it does not show is listed
    # as not shown, never as a sysctl file not pasted.
    sysctl_lines = [line for line in report["not_checked"] if "sysctl)" in line]
    assert sysctl_lines and all("does not show it" in line for line in sysctl_lines)
    # Words, not the engine's names for how a setting is applied.
    assert not any("_option)" in line for line in report["not_checked"])


def test_an_unrecognisable_paste_names_the_field(client: TestClient, kb: KnowledgeBase) -> None:
    body = {"platform": _platform(kb), "pastes": [{"name": "notes.txt", "text": "hello\n"}]}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"][0]
    assert detail["loc"] == ["body", "pastes", 0, "kind"]
    assert "notes.txt" in detail["msg"]


def test_nothing_to_audit_is_422(client: TestClient, kb: KnowledgeBase) -> None:
    response = client.post("/api/v1/audits", json={"platform": _platform(kb)})
    assert response.status_code == 422
    assert "files or pastes" in response.text


def test_a_20_mb_paste_is_refused_cleanly(client: TestClient, kb: KnowledgeBase) -> None:
    line = "filer01:/vol/d /u02/oradata nfs rw,bg,hard 0 0\n"
    body = {"platform": _platform(kb), "files": {"fstab": line * (20_000_000 // len(line))}}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 413


def test_ontap_fields_and_dnfs_servers(client: TestClient, kb: KnowledgeBase) -> None:
    platform = kb.presets["current-linux-ontap"].platform
    nfs_show = (
        "vserver  tcp-max-xfer-size\n"
        "-------- -----------------\n"
        "svm_prod 65536\n"
        "1 entries were displayed.\n"
    )
    servers = "\nno rows selected\n"
    report = _post(
        client,
        {"platform": platform, "files": {"ontap_fields": nfs_show, "dnfs_servers": servers}},
    )
    messages = [f["message"] for f in report["findings"]]
    assert "vserver svm_prod: tcp-max-xfer-size is 65536; the plan sets 262144." in messages
    assert any(m.startswith("v$dnfs_servers has no rows") for m in messages)


def test_score_and_the_corrected_file(client: TestClient, kb: KnowledgeBase) -> None:
    report = _post(client, {"platform": _platform(kb), "files": {"fstab": REAL_FSTAB}})
    # Three NFS lines checked; two have an error or a warning.
    assert report["checked"]["fstab"] == 3 and report["score"] == 33
    corrected = report["corrected"]["fstab"].splitlines()
    assert corrected[:2] == REAL_FSTAB.splitlines()[:2]
    assert corrected[2].startswith("filer01:/vol/ora_data\t/u02/oradata\tnfs\trw,bg,hard,nointr,")
    assert corrected[3] == REAL_FSTAB.splitlines()[3]  # the redo line was right
    # Re-auditing the corrected file finds nothing more on the data line.
    again = _post(
        client, {"platform": _platform(kb), "files": {"fstab": report["corrected"]["fstab"]}}
    )
    assert not [f for f in again["findings"] if f["line"] == 3]


def test_pastes_that_disagree_with_the_platform_say_so(
    client: TestClient, kb: KnowledgeBase
) -> None:
    vfstab = "filer01:/vol/d - /u02/oradata nfs - yes rw,bg,hard,intr,vers=3,proto=tcp\n"
    show = (
        "NAME                                 TYPE        VALUE\n"
        "------------------------------------ ----------- ------------------------------\n"
        "compatible                           string      10.2.0.5\n"
    )
    options = "nfs.tcp.xfersize             65536\nnfs.v3.enable                on\n"
    body = {
        "platform": kb.presets["current-linux-ontap"].platform,
        "pastes": [
            {"name": "vfstab", "text": vfstab, "kind": "vfstab"},
            {"name": "sqlplus", "text": show},
            {"name": "filer", "text": options},
        ],
    }
    report = _post(client, body)
    hints = " ".join(report["platform_hints"])
    assert (
        "The pasted vfstab comes from Oracle (Sun) Solaris, but the platform's host runs" in hints
    )
    assert "options_nfs comes from Data ONTAP 7-mode" in hints
    assert "compatible in the pasted parameters points to" in hints
    recognised = {r["name"]: r["kind"] for r in report["recognised"]}
    assert recognised == {"sqlplus": "show_parameter", "filer": "options_nfs"}
    suggested = {s["field"]: s["value"] for s in report["platform_suggestions"]}
    # Oracle 10g is not offered: the platform keeps Direct NFS, which 10g does not have, and
    # the suggestions must apply together without a platform the knowledge base refuses.
    assert suggested == {"host.os": "solaris", "filer.os_version": "8.2"}
    assert "is not offered to apply" in hints and "DNFS-REQUIRES-11G" in hints


def test_applying_the_suggestions_leaves_nothing_to_suggest(
    client: TestClient, kb: KnowledgeBase
) -> None:
    preset = kb.presets["example-linux-knfs-7mode"].platform
    # On OL 8, where 19c is certified (the preset's OL 6 is not, and 19c is then withheld).
    platform = {**preset, "host": {**preset["host"], "os_version": "ol8"}}
    show = "NAME        TYPE    VALUE\n----------- ------- --------\ncompatible  string  19.0.0\n"
    fields = "vserver volume atime-update\n------- ------ ------------\nsvm1 ora_data true\n"
    body: dict[str, Any] = {
        "platform": platform,
        "pastes": [{"name": "sqlplus", "text": show}, {"name": "cdot", "text": fields}],
    }
    first = _post(client, body)
    suggested = {s["field"]: s["value"] for s in first["platform_suggestions"]}
    assert suggested == {"filer.os_version": "9.17.1", "oracle.version": "19.0.0"}
    platform = {
        **platform,
        "oracle": {**platform["oracle"], "version": suggested["oracle.version"]},
        "filer": {**platform["filer"], "os_version": suggested["filer.os_version"]},
    }
    second = _post(client, {**body, "platform": platform})
    assert second["platform_suggestions"] == []
    assert second["platform_hints"] == []


def test_pastes_that_disagree_suggest_neither_answer(client: TestClient, kb: KnowledgeBase) -> None:
    aix = "/u02/oradata:\n\tdev = /vol/ora_data\n\tvfs = nfs\n\tnodename = filer01\n"
    body = {
        "platform": _platform(kb),
        "pastes": [
            {"name": "vfstab", "text": "filer01:/vol/d - /u02 nfs - yes hard", "kind": "vfstab"},
            {"name": "filesystems", "text": aix, "kind": "filesystems"},
        ],
    }
    report = _post(client, body)
    assert len(report["platform_hints"]) == 2
    assert report["platform_suggestions"] == []

"""A line wrapped with a backslash is one line: as a document prints a long fstab entry (Oracle's
HP-UX installation guides print their data-file example that way) and as a shell command is
continued. Issue 26: such a paste was refused as 'cannot tell what it is'."""

from __future__ import annotations

from fastapi.testclient import TestClient

from nasplan.audit.commands import parse_mount_commands
from nasplan.audit.detect import detect_kind
from nasplan.audit.mount_tables import parse_fstab
from tests.platforms import hpux_generic

ORACLE_HPUX_EXAMPLE = (
    "nfs_server:/vol/DATA/oradata /home/oracle/netapp nfs\\\n"
    "rw,bg,hard,nointr,rsize=32768,wsize=32768,tcp,actimeo=0,vers=3,timeo=600\n"
)
HPUX = hpux_generic("18.3", filer_host="nas-server")


def test_a_wrapped_fstab_entry_is_one_entry_at_its_first_line() -> None:
    parsed = parse_fstab(ORACLE_HPUX_EXAMPLE + "filer01:/vol/b /backup nfs rw,hard 0 0\n")
    assert [(e.line, e.device, e.mount_point, e.options[:3]) for e in parsed.items] == [
        (1, "nfs_server:/vol/DATA/oradata", "/home/oracle/netapp", ["rw", "bg", "hard"]),
        (3, "filer01:/vol/b", "/backup", ["rw", "hard"]),
    ]
    assert parsed.ignored == []
    detected = detect_kind(ORACLE_HPUX_EXAMPLE)
    assert detected is not None and detected.kind == "fstab"


def test_a_continued_mount_command_is_one_command() -> None:
    text = (
        "# mount -F nfs -o rw,bg,hard,nointr,proto=tcp,vers=3 \\\n"
        "    filer01:/vol/oradata \\\n"
        "    /u02/oradata\n"
        "mount -t nfs a:/b /c\n"
    )
    entries = parse_mount_commands(text).items
    assert [(e.line, e.device, e.mount_point) for e in entries] == [
        (1, "filer01:/vol/oradata", "/u02/oradata"),
        (4, "a:/b", "/c"),
    ]


def test_a_comment_ending_in_a_backslash_continues_nothing() -> None:
    text = "# old entry \\\nfiler01:/vol/d /u02 nfs rw,hard 0 0\n"
    assert [e.line for e in parse_fstab(text).items] == [2]


def test_the_corrected_file_replaces_every_line_of_a_wrapped_entry(client: TestClient) -> None:
    body = {"platform": HPUX, "files": {"fstab": ORACLE_HPUX_EXAMPLE}}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["checked"] == {"fstab": 1}
    fixes = {f["fix"] for f in report["findings"] if f["line"] == 1 and f["fix"]}
    assert len(fixes) == 1, fixes
    corrected = report["corrected"]["fstab"]
    assert corrected.splitlines() == [fixes.pop()]
    # The corrected line passes the audit itself.
    again = client.post("/api/v1/audits", json={"platform": HPUX, "files": {"fstab": corrected}})
    assert again.status_code == 200, again.text
    assert [f for f in again.json()["findings"] if f["severity"] != "info"] == []

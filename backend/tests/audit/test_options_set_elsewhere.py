"""Scripts pass mount options through variables (``mount -o ${OPTS} ...``, ``hard,${EXTRA}``,
``echo "... nfs $OPTS 0 0" >> /etc/fstab``): the shell puts their value in before mount reads
the line, so such a word is no option the client refuses, and an option the line does not write
may be in it. What the paste does not show is not judged: no error on the word, and an option
not written is an info that names the word, not a warning. What the line writes is still judged
(soft is still an error), and the line to write instead carries no variable."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.audit.by_key import findings_by_key
from tests.platforms import linux_ontap

OL8 = linux_ontap(
    dnfs=False,
    host={"os": "linux", "os_version": "ol8", "arch": "x86_64"},
    oracle={"version": "19.21", "dnfs": False},
    filer={"vendor": "generic"},
)
ROLES = {"/u02/oradata": ["data"]}


def _audit(client: TestClient, text: str) -> dict[str, list[dict[str, Any]]]:
    body = {"platform": OL8, "pastes": [{"name": "script", "kind": "auto", "text": text}]}
    return findings_by_key(client, body | {"roles": ROLES})


def _raised(found: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    every = {id(f): f for findings in found.values() for f in findings}
    return [f for f in every.values() if f["severity"] != "info"]


def test_a_variable_among_the_options_is_not_a_refused_option(client: TestClient) -> None:
    found = _audit(client, "mount -t nfs -o hard,${EXTRA},rsize=1048576 nas:/vol/d /u02/oradata\n")
    assert _raised(found) == [], _raised(found)
    vers = found["vers"]
    assert [f["severity"] for f in vers] == ["info"], vers
    assert "${EXTRA}" in vers[0]["message"] and "not in the paste" in vers[0]["message"], vers


def test_options_held_whole_in_a_variable_are_not_judged(client: TestClient) -> None:
    for text in (
        "sudo mount -o $OPTS nas:/vol/d /u02/oradata\n",
        'echo "nas:/vol/d /u02/oradata nfs ${NFS_OPTS} 0 0" >> /etc/fstab\n',
        "mount -t nfs -o $(cat /etc/ora_nfs_opts) nas:/vol/d /u02/oradata\n",
    ):
        found = _audit(client, text)
        assert _raised(found) == [], (text, _raised(found))
        assert found["vers"] and found["hardness"], (text, found)


def test_what_the_line_writes_is_still_judged(client: TestClient) -> None:
    found = _audit(client, "mount -t nfs -o soft,${EXTRA} nas:/vol/d /u02/oradata\n")
    hardness = found["hardness"]
    assert [f["severity"] for f in hardness] == ["error"], hardness
    assert "${EXTRA}" not in (hardness[0]["fix"] or ""), hardness
    assert "hard" in hardness[0]["fix"], hardness


def test_a_backup_line_with_its_options_in_a_variable_is_not_told_to_pin_a_version(
    client: TestClient,
) -> None:
    body = {
        "platform": OL8,
        "pastes": [{"name": "s", "kind": "auto", "text": "mount -o ${O} nas:/bk /backup\n"}],
    }
    found = findings_by_key(client, body)
    assert [f["severity"] for f in found["vers"]] == ["info"], found["vers"]

"""The line to write instead changes what is wrong and keeps the rest of the user's line:
a larger valid rsize/wsize (the audit says it can stay, issue 26 kind 9) and options the plan
does not set and no rule forbids. Found on 2026-11-29: a line whose only finding was a missing
bg got a fix, and a corrected fstab, with 256 KiB in place of the 1 MiB it had."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.platforms import linux_ontap

KNFS = linux_ontap(dnfs=False, oracle={"version": "19.21", "dnfs": False})
ROLES = {"/u02/oradata": ["data"]}


def _audit(client: TestClient, text: str, platform: dict[str, Any] = KNFS) -> dict[str, Any]:
    body = {"platform": platform, "pastes": [{"name": "p", "text": text}], "roles": ROLES}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


def _options(line: str) -> list[str]:
    return line.split("\t")[3].split(",")


def test_a_larger_size_and_the_users_own_options_stay_in_the_fix(client: TestClient) -> None:
    line = (
        "svm1:/prod_data /u02/oradata nfs rw,hard,nointr,rsize=1048576,wsize=1048576,vers=3,"
        "proto=tcp,timeo=600,nconnect=8,_netdev,defaults 0 0\n"
    )
    report = _audit(client, line)
    [bg] = [f for f in report["findings"] if f["about"] == ["retry"]]
    options = _options(bg["fix"])
    assert "bg" in options
    assert "rsize=1048576" in options and "wsize=1048576" in options, options
    assert "nconnect=8" in options and "_netdev" in options, options
    assert "defaults" not in options
    assert report["corrected"]["fstab"] == bg["fix"] + "\n"
    # The corrected line passes the audit: nothing at warning or above.
    again = _audit(client, bg["fix"] + "\n")
    assert [f for f in again["findings"] if f["severity"] != "info"] == []


def test_what_is_wrong_is_replaced_and_what_goes_with_it_is_dropped(client: TestClient) -> None:
    """soft, udp and an NFSv4.1 spelled vers=4,minorversion=1 on a plan of NFSv3: the fix has
    hard, proto=tcp and vers=3, and no minorversion left over from the version it replaced;
    a size above the Linux maximum is not kept."""
    line = (
        "svm1:/prod_data /u02/oradata nfs rw,bg,soft,nointr,rsize=2097152,wsize=32768,vers=4,"
        "minorversion=1,udp,timeo=600 0 0\n"
    )
    report = _audit(client, line)
    fixes = {f["fix"] for f in report["findings"] if f["fix"]}
    assert len(fixes) == 1, fixes
    options = _options(fixes.pop())
    assert {"hard", "proto=tcp", "vers=3"} <= set(options), options
    assert not {"soft", "udp", "proto=udp", "minorversion=1", "vers=4"} & set(options), options
    assert "rsize=2097152" not in options and "wsize=32768" not in options, options


def test_output_of_a_running_system_keeps_only_the_larger_size(client: TestClient) -> None:
    """`mount` output lists what the kernel chose (addr=, local_lock=, ...): none of it is
    written into the line to put in /etc/fstab."""
    output = (
        "svm1:/prod_data on /u02/oradata type nfs (rw,relatime,vers=3,rsize=1048576,"
        "wsize=1048576,namlen=255,soft,proto=tcp,timeo=600,retrans=2,sec=sys,"
        "mountaddr=10.0.0.5,addr=10.0.0.5,local_lock=none)\n"
    )
    report = _audit(client, output)
    [soft] = [f for f in report["findings"] if f["about"] == ["hardness"]]
    options = _options(soft["fix"])
    assert "hard" in options and "rsize=1048576" in options, options
    assert not [o for o in options if o.split("=")[0] in ("addr", "mountaddr", "local_lock")]


def test_an_option_a_rule_forbids_here_is_not_kept(client: TestClient) -> None:
    """actimeo=0 on a single-instance data mount is forbidden (the sources keep attribute
    caching on where one host writes): the fix drops it rather than carry it over."""
    line = "svm1:/prod_data /u02/oradata nfs rw,hard,actimeo=0,vers=3,proto=tcp 0 0\n"
    report = _audit(client, line)
    fixes = {f["fix"] for f in report["findings"] if f["fix"]}
    assert fixes, report["findings"]
    for fix in fixes:
        assert "actimeo=0" not in _options(fix), fix

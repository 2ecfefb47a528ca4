"""AIX mounts an NFS file system hard when nothing says soft (IBM AIX 7.1 Commands Reference,
mknfsmnt Command, Description: "The hard mount is the default mount"): leaving hard out of an
/etc/filesystems stanza is not wrong there (issue 26, kind 3), where soft written out still is."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase
from tests.audit.by_key import findings_by_key
from tests.conftest import preset_platform

ROLES = {"/u02/oradata": ["data"]}


def _by_key(client: TestClient, kb: KnowledgeBase, options: str) -> dict[str, list[dict[str, Any]]]:
    stanza = (
        "/u02/oradata:\n"
        '\tdev = "/vol/oradata"\n'
        "\tvfs = nfs\n"
        "\tnodename = filer01\n"
        "\tmount = true\n"
        f"\toptions = {options}\n"
        "\taccount = false\n"
    )
    platform = preset_platform(kb, "example-aix").model_dump(mode="json")
    body = {"platform": platform, "files": {"filesystems": stanza}, "roles": ROLES}
    return findings_by_key(client, body)


def test_hard_left_out_is_the_aix_default(client: TestClient, kb: KnowledgeBase) -> None:
    found = _by_key(client, kb, "cio,rw,bg,intr,rsize=32768,wsize=32768,vers=3,proto=tcp,timeo=600")
    assert [f["severity"] for f in found["hardness"]] == ["info"], found["hardness"]
    message = found["hardness"][0]["message"]
    assert "hard is not written" in message and "AIX" in message, message
    assert "mknfsmnt" in message, message


def test_soft_written_out_is_still_an_error(client: TestClient, kb: KnowledgeBase) -> None:
    found = _by_key(
        client, kb, "cio,rw,bg,soft,intr,rsize=32768,wsize=32768,vers=3,proto=tcp,timeo=600"
    )
    assert {f["severity"] for f in found["hardness"]} == {"error"}, found["hardness"]


def test_no_output_is_read_and_checked_against_the_plans_network_options(
    client: TestClient, kb: KnowledgeBase
) -> None:
    """The AIX collector saves ``no -a`` (network options); the audit reads it as kind ``no``
    and checks what the plan sets with ``no`` (rfc1323=1, AIX-NO-RFC1323, from the 19c guide)."""
    platform = preset_platform(kb, "example-aix", {"oracle": {"version": "19.21"}})
    body = {
        "platform": platform.model_dump(mode="json"),
        "pastes": [
            {"name": "no.txt", "text": "          rfc1323 = 0\n           sb_max = 1048576\n"}
        ],
    }
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    report = response.json()
    assert [p["kind"] for p in report["recognised"]] == ["no"]
    [finding] = [f for f in report["findings"] if "rfc1323" in f["about"]]
    assert (finding["severity"], finding["rule"]) == ("warning", "AIX-NO-RFC1323")
    assert finding["fix"] == "no -p -o rfc1323=1"


def test_an_option_only_the_losing_side_of_a_disagreement_asks_is_an_info(
    client: TestClient, kb: KnowledgeBase
) -> None:
    """AIX cio: the 2011 AIX option set has it, NetApp says not to mount with it, and the
    knowledge base rates that disagreement as information (conflicts.yaml, aix-cio). A line
    without cio is then told the sources disagree, not warned, even where NetApp's side does
    not apply (a filer of no named vendor; Oracle's own AIX examples have no cio either)."""
    platform = preset_platform(
        kb, "example-aix", {"filer": {"vendor": "generic", "model": None, "os_version": None}}
    ).model_dump(mode="json")
    stanza = (
        "/u02/oradata:\n\tdev = /vol/oradata\n\tvfs = nfs\n\tnodename = filer01\n"
        "\toptions = rw,bg,hard,intr,rsize=32768,wsize=32768,vers=3,proto=tcp,timeo=600\n"
    )
    body = {"platform": platform, "files": {"filesystems": stanza}, "roles": ROLES}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    [cio] = [f for f in response.json()["findings"] if f["about"] == ["cio"]]
    assert (cio["severity"], cio["rule"]) == ("info", "AIX-MNT-CIO")
    assert "disagree" in cio["message"] and "NetApp" in cio["message"], cio["message"]


def _no_findings(client: TestClient, kb: KnowledgeBase, text: str) -> list[dict[str, Any]]:
    platform = preset_platform(kb, "example-aix", {"oracle": {"version": "19.21"}})
    body = {"platform": platform.model_dump(mode="json"), "pastes": [{"name": "no", "text": text}]}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    return [f for f in response.json()["findings"] if "sb_max" in f["about"]]


def test_sb_max_below_oracles_minimum_is_raised_and_a_larger_one_is_kept(
    client: TestClient, kb: KnowledgeBase
) -> None:
    """AIX-NO-SB-MAX: Oracle's AIX guides ask for sb_max=4194304 or higher (12.2, Table 3-6).
    A smaller ceiling, as the 18c Direct NFS page's example sets, is a warning with the command
    that raises it; a larger one is left alone."""
    [low] = _no_findings(client, kb, "# /usr/sbin/no -p -o sb_max=524288\n")
    assert (low["severity"], low["rule"]) == ("warning", "AIX-NO-SB-MAX")
    assert low["fix"] == "no -p -o sb_max=4194304"
    high = _no_findings(client, kb, "sb_max = 8388608\n")
    assert [f["severity"] for f in high if f["severity"] != "info"] == [], high

"""A mount line whose files nothing names (issue 26, kind 7): the audit says what holds whatever
Oracle files it carries, and nothing that only one role needs or forbids.

- what every planned Oracle mount has, from a rule that asks it for every Oracle file: another
  value is what the rule gives where the rule guards the data (soft for hard: an error), else
  an info; a missing one a warning where the rule guards the data, else an info;
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
    assert [a["role"] for a in report["assignments"]] == [None]
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

import json
from pathlib import Path
from typing import Any

import pytest

from nasplan_lab.ansible import PlaybookRun
from nasplan_lab.filer import FilerSetup
from nasplan_lab.judge import Check, judge, merge, same_outcome, shown_form

PLAN: dict[str, Any] = {
    "mounts": [
        {
            "mount_point": "/u02/oradata/PROD",
            "export": "192.168.50.10:/prod_data",
            "options": ["rw", "bg", "hard", "nointr", "rsize=262144", "nfsvers=3", "timeo=600"],
        }
    ]
}
MOUNTED = (
    "192.168.50.10:/prod_data /u02/oradata/PROD nfs "
    "rw,relatime,vers=3,rsize=262144,wsize=262144,hard,proto=tcp,timeo=600 0 0\n"
)
BEFORE = "## files\n/etc/fstab aaaa\n## keys\nnet.core.rmem_max = 212992\n## mtu\neth0 live 1500 profile auto\n## nfs mounts\n"
APPLIED = (
    "## files\n/etc/fstab bbbb\n/etc/sysctl.d/90-nasplan-prod.conf cccc\n"
    "## keys\nnet.core.rmem_max = 8388608\n## mtu\neth0 live 9000 profile 9000\n"
    "## nfs mounts\n192.168.50.10:/prod_data /u02/oradata/PROD nfs\n"
)


AS_BUILT = '{"status": 201, "counts": {"verified": 30, "differs": 0, "not_checked": 4}}'
PLATFORM: dict[str, Any] = {"host": {"os": "linux"}, "network": {"jumbo_frames": True}}


def _collection_audit(
    answers: list[tuple[str, object]], findings: list[dict[str, object]] | None = None
) -> str:
    return json.dumps(
        {
            "collection_status": 200,
            "collection": {
                "answers": [{"field": f, "value": v, "evidence": "e"} for f, v in answers]
            },
            "audit_status": 200,
            "audit": {"checked": {"sysctl": 12, "mount": 1}, "findings": findings or []},
        }
    )


COLLECTED = _collection_audit([("host.os", "linux"), ("network.jumbo_frames", True)])


def _lab_output(tmp_path: Path, **changes: str) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    files = {
        "steps.txt": "apply-1-network 0\napply-2-mounts 0\nagain-1-network 0\nrollback-apply 0\n",
        "mounts-applied.txt": MOUNTED,
        "mounts-rebooted.txt": MOUNTED,
        "verify-applied.txt": "PASS a\nsummary: 1 PASS, 0 FAIL, 0 CHECK\n",
        "verify-rebooted.txt": "PASS a\nsummary: 1 PASS, 0 FAIL, 0 CHECK\n",
        "as-built-applied.json": AS_BUILT,
        "as-built-rebooted.json": AS_BUILT,
        "collect-applied/audit.json": COLLECTED,
        "io-applied.txt": "/u02/oradata/PROD ok\n",
        "io-rebooted.txt": "/u02/oradata/PROD ok\n",
        "state-before.txt": BEFORE,
        "state-before-dry-run.txt": BEFORE,
        "state-after-dry-run.txt": BEFORE,
        "state-applied.txt": APPLIED,
        "state-applied-again.txt": APPLIED,
        "state-rebooted.txt": APPLIED,
        "state-rolled-back.txt": BEFORE,
        "state-rolled-back-rebooted.txt": BEFORE,
    }
    for name, text in changes.items():
        if name == "collected":
            files["collect-applied/audit.json"] = text
            continue
        suffix = ".json" if name.startswith("as_built") else ".txt"
        files[name.replace("_", "-") + suffix] = text
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def _failed(tmp_path: Path, **changes: str) -> list[str]:
    verdict = judge("t", PLAN, PLATFORM, _lab_output(tmp_path, **changes), FilerSetup(), [])
    return [c.claim for c in verdict.checks if not c.ok]


def test_a_clean_journey_passes(tmp_path: Path) -> None:
    verdict = judge("t", PLAN, PLATFORM, _lab_output(tmp_path), FilerSetup(), [])
    assert verdict.ok, verdict.report()
    assert len(verdict.checks) == 19


@pytest.mark.parametrize(
    ("changes", "claim"),
    [
        (
            {"mounts_applied": MOUNTED.replace("timeo=600", "timeo=60")},
            "applied: /u02/oradata/PROD mounted",
        ),
        ({"mounts_rebooted": ""}, "rebooted: /u02/oradata/PROD is mounted"),
        ({"state_after_dry_run": APPLIED}, "dry runs change nothing"),
        ({"steps": "apply-1-network 1\n"}, "apply-1-network exits 0"),
        ({"verify_rebooted": "FAIL x\n"}, "rebooted: verify/verify_host.sh finds no FAIL"),
        ({"io_applied": "/u02/oradata/PROD failed\n"}, "applied: the Oracle owner writes"),
        (
            {"as_built_rebooted": AS_BUILT.replace('"differs": 0', '"differs": 2')},
            "rebooted: recorded as built",
        ),
        ({"as_built_applied": '{"status": 422}'}, "applied: recorded as built"),
        (
            {"state_applied_again": APPLIED.replace("cccc", "dddd")},
            "a second --apply changes nothing",
        ),
        (
            {"state_rebooted": APPLIED.replace("8388608", "212992")},
            "every setting survives the reboot",
        ),
        ({"state_rolled_back": APPLIED}, "the rollback restores"),
        (
            {"collected": _collection_audit([("network.jumbo_frames", False)])},
            "applied: verify/collect.sh's archive is read, and what it shows",
        ),
        (
            {
                "collected": _collection_audit(
                    [("host.os", "linux")],
                    [{"severity": "warning", "rule": "R", "file": "sysctl", "message": "m"}],
                )
            },
            "applied: the audit of the collected host finds no error and no warning",
        ),
        (
            {"state_rolled_back_rebooted": BEFORE.replace("auto", "9000")},
            "after the rollback and a reboot",
        ),
    ],
)
def test_each_kind_of_failure_is_named(tmp_path: Path, changes: dict[str, str], claim: str) -> None:
    failed = _failed(tmp_path, **changes)
    assert len(failed) == 1 and failed[0].startswith(claim), failed


def test_no_results_is_a_failure(tmp_path: Path) -> None:
    verdict = judge("t", PLAN, PLATFORM, tmp_path / "missing", FilerSetup(), [])
    assert not verdict.ok and verdict.checks[0].claim == "the host journey ran"


def test_options_the_kernel_does_not_show_are_not_claimed() -> None:
    assert [shown_form(o) for o in ["bg", "nointr", "nfsvers=3", "hard", "actimeo=0"]] == [
        [],
        [],
        ["vers=3"],
        ["hard"],
        ["acregmin=0", "acregmax=0", "acdirmin=0", "acdirmax=0"],
    ]


def test_several_nodes_are_named_in_one_verdict(tmp_path: Path) -> None:
    out = _lab_output(tmp_path)
    nodes = [judge(node, PLAN, PLATFORM, out, FilerSetup(), []) for node in ("rac01", "rac02")]
    merged = merge("rac", nodes)
    assert merged.ok and len(merged.checks) == 38
    assert merged.checks[0].claim == "rac01: dry runs change nothing"
    assert merged.checks[19].claim == "rac02: dry runs change nothing"
    nodes[1].checks[0] = Check("dry runs change nothing", False, "x")
    assert not merge("rac", nodes).ok


def _playbook(changed: int, failed: int = 0) -> PlaybookRun:
    return PlaybookRun(
        exit_code=2 if failed else 0, changed=changed, failed=failed, unreachable=0, log=""
    )


def test_the_ansible_journey_needs_a_clean_first_run_and_a_second_that_changes_nothing(
    tmp_path: Path,
) -> None:
    out = _lab_output(tmp_path)
    good = judge("t", PLAN, PLATFORM, out, FilerSetup(), [], [_playbook(12), _playbook(0)])
    assert good.ok, good.report()
    assert not any("rollback" in c.claim for c in good.checks)
    assert (out / "ansible-1.log").is_file()
    failed = [
        c.claim
        for c in judge(
            "t", PLAN, PLATFORM, out, FilerSetup(), [], [_playbook(12, failed=1), _playbook(2)]
        ).checks
        if not c.ok
    ]
    assert failed == [
        "ansible-playbook applies the playbook over SSH without a failure",
        "a second run changes nothing",
    ]
    never = judge("t", PLAN, PLATFORM, out, FilerSetup(), [], [])
    assert "the playbook ran twice" in [c.claim for c in never.checks if not c.ok]


def test_the_playbook_and_the_scripts_are_compared_on_values_not_file_form(
    tmp_path: Path,
) -> None:
    scripts = judge("s", PLAN, PLATFORM, _lab_output(tmp_path / "s", **{}), FilerSetup(), [])
    ansible_form = APPLIED.replace("cccc", "eeee")  # the same keys, another file text
    (tmp_path / "a").mkdir()
    playbook = judge(
        "a",
        PLAN,
        PLATFORM,
        _lab_output(tmp_path / "a", state_applied=ansible_form),
        FilerSetup(),
        [],
    )
    assert same_outcome(playbook, scripts).ok
    no_mtu = ansible_form.replace("eth0 live 9000 profile 9000", "eth0 live 1500 profile auto")
    playbook = judge(
        "a", PLAN, PLATFORM, _lab_output(tmp_path / "a", state_applied=no_mtu), FilerSetup(), []
    )
    check = same_outcome(playbook, scripts)
    assert not check.ok and "mtu" in check.detail


def test_a_larger_value_the_host_had_must_stay(tmp_path: Path) -> None:
    """The lab's host sets net.core.wmem_max above Oracle's minimum before nasplan comes; a
    bundle that lowers it to the minimum (as the scripts did before minimums were kept) fails."""
    plan = {
        **PLAN,
        "settings": [
            {
                "key": "net.core.wmem_max",
                "value": "1048576",
                "mechanism": "sysctl",
                "at_least": True,
            }
        ],
    }
    site = {"net.core.wmem_max": "8388608"}
    kept = APPLIED.replace("## keys\n", "## keys\nnet.core.wmem_max = 8388608\n")
    lowered = APPLIED.replace("## keys\n", "## keys\nnet.core.wmem_max = 1048576\n")
    out = _lab_output(
        tmp_path / "kept", state_applied=kept, state_applied_again=kept, state_rebooted=kept
    )
    verdict = judge("t", plan, PLATFORM, out, FilerSetup(), [], None, site)
    claims = [c for c in verdict.checks if "stays at the host's 8388608" in c.claim]
    assert len(claims) == 2 and all(c.ok for c in claims), verdict.report()
    out = _lab_output(
        tmp_path / "lowered",
        state_applied=lowered,
        state_applied_again=lowered,
        state_rebooted=lowered,
    )
    verdict = judge("t", plan, PLATFORM, out, FilerSetup(), [], None, site)
    failed = [c for c in verdict.checks if not c.ok]
    assert [c.claim.split(":")[0] for c in failed] == ["applied", "rebooted"], verdict.report()
    assert "found net.core.wmem_max = 1048576" in failed[0].detail

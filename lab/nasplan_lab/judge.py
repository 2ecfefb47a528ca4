"""What the lab saw, judged against the plan: one line per claim, passed or failed."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nasplan_lab.ansible import PlaybookRun
from nasplan_lab.filer import FilerSetup

# Mount options the Linux kernel does not show in /proc/mounts (it applies them at mount time
# or ignores them), so the lab cannot read them back.
NOT_SHOWN = frozenset({"bg", "fg", "intr", "nointr", "defaults", "_netdev", "auto", "noauto"})


@dataclass(frozen=True)
class Check:
    claim: str
    ok: bool
    detail: str = ""


@dataclass
class Verdict:
    name: str
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    # The host's state once applied (scripts or playbook), to compare the two ways.
    applied_state: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def add(self, claim: str, ok: bool, detail: str = "") -> None:
        self.checks.append(Check(claim, ok, detail))

    def report(self) -> str:
        lines = [f"== {self.name}: {'PASS' if self.ok else 'FAIL'}"]
        lines += [f"   note: {n}" for n in self.notes]
        for c in self.checks:
            lines.append(
                f"   {'ok  ' if c.ok else 'FAIL'} {c.claim}" + (f": {c.detail}" if c.detail else "")
            )
        if self.timings:
            lines.append(
                "   time: " + ", ".join(f"{k} {v:.1f}" for k, v in sorted(self.timings.items()))
            )
        return "\n".join(lines)


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.is_file() else ""


def _sections(state: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    current = ""
    for line in state.splitlines():
        if line.startswith("## "):
            current = line[3:]
            found[current] = []
        elif current:
            found[current].append(line)
    return found


def _diff(a: str, b: str, skip: frozenset[str] = frozenset()) -> str:
    """The state sections that differ between two captures ("" when none do)."""
    left, right = _sections(a), _sections(b)
    if not left or not right:
        return "a capture is missing"
    changed = []
    for name in sorted(set(left) | set(right)):
        if name in skip:
            continue
        gone = sorted(set(left.get(name, [])) - set(right.get(name, [])))
        new = sorted(set(right.get(name, [])) - set(left.get(name, [])))
        if gone or new:
            changed.append(f"{name}: was {gone or '-'} now {new or '-'}")
    return "; ".join(changed)


def shown_form(option: str) -> list[str]:
    """How /proc/mounts shows a planned option ([] if it does not show it)."""
    if option in NOT_SHOWN:
        return []
    name, _, value = option.partition("=")
    if name == "nfsvers":
        return [f"vers={value}"]
    if name == "actimeo":
        return [f"{timer}={value}" for timer in ("acregmin", "acregmax", "acdirmin", "acdirmax")]
    return [option]


def _mount_options(proc_mounts: str) -> dict[str, tuple[str, set[str]]]:
    table: dict[str, tuple[str, set[str]]] = {}
    for line in proc_mounts.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[2].startswith("nfs"):
            table[fields[1]] = (fields[0], set(fields[3].split(",")))
    return table


def _judge_mounts(verdict: Verdict, plan: dict[str, Any], proc_mounts: str, when: str) -> None:
    table = _mount_options(proc_mounts)
    for mount in plan["mounts"]:
        point = mount["mount_point"]
        if point not in table:
            verdict.add(f"{when}: {point} is mounted", False, "not in /proc/mounts")
            continue
        source, options = table[point]
        wanted = [shown for option in mount["options"] for shown in shown_form(option)]
        missing = [w for w in wanted if w not in options]
        verdict.add(
            f"{when}: {point} mounted from {mount['export']} with the planned options",
            source == mount["export"] and not missing,
            f"source {source}; missing {missing}" if missing or source != mount["export"] else "",
        )


def _judge_verify(verdict: Verdict, out: Path, when: str) -> None:
    report = _read(out / f"verify-{when}.txt")
    fails = [line for line in report.splitlines() if line.startswith("FAIL")]
    summary = next(
        (line for line in report.splitlines() if line.startswith("summary:")), "no summary"
    )
    verdict.add(
        f"{when}: verify/verify_host.sh finds no FAIL",
        bool(report) and not fails,
        "; ".join(fails) or summary,
    )


def _judge_as_built(verdict: Verdict, out: Path, when: str) -> None:
    """The report as nasplan's as-built API read it: nothing differs from the plan."""
    path = out / f"as-built-{when}.json"
    answer = json.loads(path.read_text()) if path.is_file() else {}
    counts = answer.get("counts", {})
    verdict.add(
        f"{when}: recorded as built through the API, nothing differs from the plan",
        answer.get("status") == 201
        and counts.get("differs") == 0
        and counts.get("verified", 0) > 0,
        json.dumps(counts) if counts else f"no answer ({answer.get('status', 'not recorded')})",
    )


# Answers a collection gives exactly (the filer's release, say, it can only suggest).
_EXACT_ANSWERS = ("host.os", "network.jumbo_frames", "network.nic_gbps", "filer.vendor")


def _judge_collection(verdict: Verdict, out: Path, platform: dict[str, Any]) -> None:
    """verify/collect.sh's archive, read and audited through nasplan's API (as_built.py)."""
    path = out / "collect-applied" / "audit.json"
    answer = json.loads(path.read_text()) if path.is_file() else {}
    answers = answer.get("collection", {}).get("answers", [])
    wrong = []
    for given in answers:
        if given["field"] in _EXACT_ANSWERS:
            section, key = given["field"].split(".")
            if platform.get(section, {}).get(key) != given["value"]:
                wrong.append(f"{given['field']}={given['value']} ({given['evidence']})")
    verdict.add(
        "applied: verify/collect.sh's archive is read, and what it shows of the platform "
        "agrees with the design",
        answer.get("collection_status") == 200 and bool(answers) and not wrong,
        "; ".join(wrong) or f"collection {answer.get('collection_status', 'not made')}",
    )
    report = answer.get("audit", {})
    flagged = [
        f"{f['severity']} {f['rule']} {f['file']}:{f.get('line')}: {f['message']}"
        for f in report.get("findings", [])
        if f["severity"] in ("error", "warning")
    ]
    verdict.add(
        "applied: the audit of the collected host finds no error and no warning",
        answer.get("audit_status") == 200
        and sum(report.get("checked", {}).values()) > 0
        and not flagged,
        " | ".join(flagged)[:2000]
        or f"audit {answer.get('audit_status', 'not run')}, checked {report.get('checked')}",
    )


def _judge_site_values(
    verdict: Verdict, plan: dict[str, Any], state: dict[str, str], site: dict[str, str]
) -> None:
    """A value the host had set itself above a minimum the plan gives (at_least) stays, once
    applied and after the reboot; nasplan does not lower it to the minimum."""
    minimums = {
        s["key"]: s["value"]
        for s in plan.get("settings", [])
        if s.get("at_least") and s["mechanism"] == "sysctl" and s["value"].isdigit()
    }
    for key, value in site.items():
        if key not in minimums or int(value) <= int(minimums[key]):
            continue
        for when in ("applied", "rebooted"):
            keys = _sections(state.get(when, "")).get("keys", [])
            seen = next((line for line in keys if line.startswith(f"{key} = ")), "(not captured)")
            verdict.add(
                f"{when}: {key} stays at the host's {value}, above the minimum {minimums[key]}",
                seen == f"{key} = {value}",
                "" if seen == f"{key} = {value}" else f"found {seen}",
            )


def _judge_io(verdict: Verdict, out: Path, when: str) -> None:
    lines = _read(out / f"io-{when}.txt").splitlines()
    failed = [line for line in lines if not line.endswith(" ok")]
    verdict.add(
        f"{when}: the Oracle owner writes and reads a file on every mount",
        bool(lines) and not failed,
        "; ".join(failed) + _read(out / f"io-{when}.err").strip(),
    )


def _judge_script_runs(verdict: Verdict, out: Path, state: dict[str, str]) -> None:
    steps = dict(
        line.rsplit(" ", 1) for line in _read(out / "steps.txt").splitlines() if " " in line
    )
    dry = _diff(state.get("before-dry-run", ""), state.get("after-dry-run", ""))
    verdict.add("dry runs change nothing", not dry, dry)
    for step, rc in sorted(steps.items()):
        if step.startswith(("apply-", "again-", "rollback-")):
            tail = _read(out / f"{step}.log").strip().splitlines()[-3:]
            verdict.add(
                f"{step} exits 0", rc == "0", "" if rc == "0" else f"exit {rc}: {' | '.join(tail)}"
            )


def _judge_playbook_runs(verdict: Verdict, out: Path, runs: list[PlaybookRun]) -> None:
    for i, run in enumerate(runs, start=1):
        (out / f"ansible-{i}.log").write_text(run.log)
    if len(runs) < 2:
        verdict.add("the playbook ran twice", False, "the host never became ready for Ansible")
        return
    first, second = runs
    verdict.add(
        "ansible-playbook applies the playbook over SSH without a failure",
        first.exit_code == 0 and first.failed == 0 and first.unreachable == 0,
        f"exit {first.exit_code}, failed={first.failed}, unreachable={first.unreachable}",
    )
    verdict.add(
        "a second run changes nothing",
        second.exit_code == 0 and second.changed == 0,
        f"exit {second.exit_code}, changed={second.changed}",
    )


def judge(
    name: str,
    plan: dict[str, Any],
    platform: dict[str, Any],
    out: Path,
    filer: FilerSetup,
    adapted: list[str],
    playbook_runs: list[PlaybookRun] | None = None,
    site: dict[str, str] | None = None,
) -> Verdict:
    """The scripts journey, or with `playbook_runs` the Ansible one."""
    verdict = Verdict(name)
    site = site or {}
    verdict.notes += [f"lab value: {a}" for a in adapted]
    verdict.notes += [f"filled in as the runbook asks: {f}" for f in dict.fromkeys(filer.filled)]
    verdict.notes.append(
        f"lab filer: MTU {filer.mtu}, largest transfer {filer.max_xfer} B, "
        f"{len(filer.exports)} export(s)"
    )
    if not out.is_dir():
        verdict.add("the host journey ran", False, "no results came back from the guest")
        return verdict
    state = {p.stem.removeprefix("state-"): _read(p) for p in out.glob("state-*.txt")}
    verdict.applied_state = state.get("applied", "")
    if playbook_runs is None:
        _judge_script_runs(verdict, out, state)
    else:
        _judge_playbook_runs(verdict, out, playbook_runs)
    _judge_mounts(verdict, plan, _read(out / "mounts-applied.txt"), "applied")
    _judge_verify(verdict, out, "applied")
    _judge_as_built(verdict, out, "applied")
    if playbook_runs is None:
        _judge_collection(verdict, out, platform)
    _judge_io(verdict, out, "applied")
    if playbook_runs is None:
        again = _diff(state.get("applied", ""), state.get("applied-again", ""))
        verdict.add("a second --apply changes nothing", not again, again)
    _judge_mounts(verdict, plan, _read(out / "mounts-rebooted.txt"), "rebooted")
    _judge_verify(verdict, out, "rebooted")
    _judge_as_built(verdict, out, "rebooted")
    _judge_io(verdict, out, "rebooted")
    kept = _diff(state.get("applied", ""), state.get("rebooted", ""))
    verdict.add("every setting survives the reboot", not kept, kept)
    _judge_site_values(verdict, plan, state, site)
    if playbook_runs is not None:
        return verdict  # the playbook has no rollback (the bundle's README says so)
    back = _diff(state.get("before", ""), state.get("rolled-back", ""))
    verdict.add("the rollback restores the files, kernel values, MTU and mounts", not back, back)
    after = _diff(state.get("before", ""), state.get("rolled-back-rebooted", ""))
    verdict.add("after the rollback and a reboot the host is as it was before", not after, after)
    return verdict


def same_outcome(playbook: Verdict, scripts: Verdict) -> Check:
    """The playbook and the host scripts leave the same kernel values, MTU and NFS mounts (the
    files differ in form: Ansible writes `key=value` and its own comments)."""
    differences = _diff(scripts.applied_state, playbook.applied_state, skip=frozenset({"files"}))
    return Check(
        "the playbook leaves the kernel values, MTU and mounts the host scripts leave",
        not differences,
        differences,
    )


def merge(name: str, verdicts: list[Verdict]) -> Verdict:
    """One verdict for a journey: each node's claims, named by the node when there are several."""
    merged = Verdict(name, applied_state=verdicts[0].applied_state if verdicts else "")
    for verdict in verdicts:
        merged.notes += [n for n in verdict.notes if n not in merged.notes]
        prefix = f"{verdict.name}: " if verdict.name else ""
        merged.checks += [Check(prefix + c.claim, c.ok, c.detail) for c in verdict.checks]
    return merged

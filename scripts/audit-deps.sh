#!/usr/bin/env bash
# Audit the locked dependencies for known vulnerabilities: pip-audit (PyPI's vulnerability service)
# on backend/requirements.lock, npm audit (production and dev dependencies) on frontend/ and e2e/.
# Fails (exit 1) on any finding whose id (GHSA-…, PYSEC-…, CVE-…) is not waived in
# scripts/audit-waivers.txt ("ID  reason" a line, # comments), and (exit 2) on a malformed waiver
# file. An ecosystem whose vulnerability service cannot be reached is reported as "skipped: <reason>"
# and does not fail the run, like an unreachable database.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

PIP_AUDIT_VERSION="2.10.1"
AUDIT_VENV="$VENV/audit"   # pip-audit and its own dependencies, kept out of the project's venv
WAIVERS="${NASPLAN_AUDIT_WAIVERS:-$ROOT/scripts/audit-waivers.txt}"
NPM_DIRS=(frontend e2e)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Python: pip-audit, pinned, in a venv of its own.
[ -x "$VENV/bin/uv" ] || python_env >&2
if [ "$("$AUDIT_VENV/bin/pip-audit" --version 2>/dev/null)" != "pip-audit $PIP_AUDIT_VERSION" ]; then
  if ! { "$VENV/bin/uv" venv -q --allow-existing --python "$VENV/bin/python" "$AUDIT_VENV" \
         && "$VENV/bin/uv" pip install -q --python "$AUDIT_VENV/bin/python" \
              "pip-audit==$PIP_AUDIT_VERSION"; } >"$work/pip-install.log" 2>&1; then
    echo "pip-audit $PIP_AUDIT_VERSION could not be installed: $(tail -n 1 "$work/pip-install.log")" \
      > "$work/pip.skip"
  fi
fi
if [ ! -f "$work/pip.skip" ]; then
  rc=0
  timeout 600 "$AUDIT_VENV/bin/pip-audit" -r "$ROOT/backend/requirements.lock" --no-deps \
    --disable-pip --vulnerability-service pypi --timeout 30 --progress-spinner off \
    --format json -o "$work/pip.json" 2>"$work/pip.err" || rc=$?
  echo "$rc" > "$work/pip.rc"
fi

# npm: the registry's bulk advisory endpoint, for every package in each lock file (dev included).
for dir in "${NPM_DIRS[@]}"; do
  rc=0
  (cd "$ROOT/$dir" && timeout 300 npm audit --json --include=dev) \
    >"$work/npm-$dir.json" 2>"$work/npm-$dir.err" || rc=$?
  echo "$rc" > "$work/npm-$dir.rc"
done

python3 - "$work" "$WAIVERS" "$ROOT" "${NPM_DIRS[@]}" <<'PY'
import json, re, sys
from pathlib import Path

work, waivers_path, root = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
npm_dirs = sys.argv[4:]
ID_RE = re.compile(r"^(GHSA(-[0-9a-z]{4}){3}|PYSEC-\d{4}-\d+|CVE-\d{4}-\d+)$", re.I)
NETWORK_RE = re.compile(
    r"ConnectionError|ProxyError|ConnectTimeout|ReadTimeout|Timeout|SSLError|ServiceError|"
    r"Max retries exceeded|Name or service not known|Temporary failure in name resolution"
)


def read(name: str) -> str:
    p = work / name
    return p.read_text(errors="replace") if p.exists() else ""


def last_line(text: str, limit: int = 200) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return (lines[-1] if lines else "no output")[:limit]


# Waivers: "ID  reason", one a line; '#' starts a comment line.
waivers: dict[str, str] = {}
spelled: dict[str, str] = {}
errors = []
if waivers_path.exists():
    for n, raw in enumerate(waivers_path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        ident, reason = (re.split(r"\s+", line, maxsplit=1) + [""])[:2]
        where = f"{waivers_path.name}:{n}"
        if not ID_RE.match(ident):
            errors.append(f"{where}: {ident!r} is not a GHSA-, PYSEC- or CVE- id")
        elif not reason:
            errors.append(f"{where}: waiver for {ident} has no reason")
        else:
            waivers[ident.upper()] = reason
            spelled[ident.upper()] = ident
if errors:
    print("audit: malformed waiver file:\n  " + "\n  ".join(errors), file=sys.stderr)
    sys.exit(2)
used: set[str] = set()

# Each ecosystem: (label, status, findings, note); a finding is (ids, package, version, fix).
results = []


def python_result():
    label = "python (backend/requirements.lock, pip-audit, PyPI service)"
    skip = read("pip.skip")
    if skip:
        return label, "skipped: " + skip.strip(), [], ""
    rc, err = int(read("pip.rc") or 1), read("pip.err")
    try:
        data = json.loads(read("pip.json"))
    except ValueError:
        if rc == 124:
            return label, "skipped: pip-audit timed out", [], ""
        if NETWORK_RE.search(err):
            return label, "skipped: PyPI's vulnerability service unreachable: " + last_line(err), [], ""
        return label, f"error: pip-audit exited {rc}: {last_line(err)}", None, ""
    deps = data.get("dependencies", [])
    skipped = [d for d in deps if d.get("skip_reason")]
    audited = [d for d in deps if not d.get("skip_reason")]
    if deps and not audited:
        reason = "; ".join(sorted({re.sub(r":.*", "", d["skip_reason"]) for d in skipped}))
        return label, (
            f"skipped: PyPI's vulnerability service gave no answer for any of the {len(deps)} pinned "
            f"packages ({reason}): its per-version JSON (/pypi/NAME/VERSION/json) is not served here"
        ), [], ""
    findings = []
    for d in audited:
        for v in d.get("vulns", []):
            ids = [v["id"], *v.get("aliases", [])]
            findings.append((ids, d["name"], d.get("version", "?"), ", ".join(v.get("fix_versions", []))))
    note = f"{len(audited)} packages audited"
    if skipped:
        note += "; NOT audited: " + ", ".join(f"{d['name']} ({d['skip_reason']})" for d in skipped)
    return label, "ok", findings, note


def npm_result(directory: str):
    label = f"npm ({directory}/package-lock.json, npm audit, prod+dev)"
    rc, text, err = int(read(f"npm-{directory}.rc") or 1), read(f"npm-{directory}.json"), read(f"npm-{directory}.err")
    try:
        data = json.loads(text)
    except ValueError:
        if rc == 124:
            return label, "skipped: npm audit timed out", [], ""
        return label, f"error: npm audit exited {rc} without JSON: {last_line(err)}", None, ""
    if "vulnerabilities" not in data:
        e = data.get("error") if isinstance(data.get("error"), dict) else {}
        if e.get("code") in ("ENOLOCK", "EJSONPARSE"):
            return label, f"error: npm audit: {e.get('code')}: {last_line(e.get('summary', ''))}", None, ""
        why = data.get("message") or e.get("summary") or e.get("code") or last_line(err)
        return label, f"skipped: the registry's audit endpoint did not answer: {why}", [], ""
    lock = json.loads((root / directory / "package-lock.json").read_text()).get("packages", {})
    findings = []
    for name, vuln in sorted(data["vulnerabilities"].items()):
        versions = sorted({lock.get(node, {}).get("version", "?") for node in vuln.get("nodes", [])}) or ["?"]
        fix = vuln.get("fixAvailable")
        fix_text = f"{fix.get('name')}@{fix.get('version')}" if isinstance(fix, dict) else ("yes" if fix else "")
        for via in vuln.get("via", []):
            if not isinstance(via, dict):
                continue  # vulnerable only through another package, which is reported itself
            ghsa = re.search(r"GHSA(-[0-9a-z]{4}){3}", via.get("url", ""), re.I)
            ident = ghsa.group(0) if ghsa else f"npm-{via.get('source')}"
            findings.append(([ident], via.get("name", name), ",".join(versions), fix_text))
    total = data.get("metadata", {}).get("dependencies", {}).get("total")
    return label, "ok", findings, f"{total} packages audited" if total is not None else ""


results.append(python_result())
results.extend(npm_result(d) for d in npm_dirs)

unwaived = failed = 0
print("dependency audit")
for label, status, findings, note in results:
    if findings is None:
        failed += 1
        print(f"  {label}: {status}")
        continue
    if status != "ok":
        print(f"  {label}: {status}")
        continue
    n_waived = 0
    lines = []
    for ids, package, version, fix in findings:
        hit = next((i.upper() for i in ids if i.upper() in waivers), None)
        shown = ids[0] + (f" ({', '.join(ids[1:])})" if ids[1:] else "")
        if hit:
            n_waived += 1
            used.add(hit)
            state = f"waived: {waivers[hit]}"
        else:
            unwaived += 1
            state = "NOT WAIVED" + (f" (fix: {fix})" if fix else "")
        lines.append(f"    {shown}  {package} {version}  {state}")
    print(f"  {label}: {len(findings)} finding(s), {n_waived} waived, {len(findings) - n_waived} not waived"
          + (f"; {note}" if note else ""))
    for line in lines:
        print(line)
all_ran = all(status == "ok" for _, status, _, _ in results)
for ident in sorted(set(waivers) - used) if all_ran else []:
    print(f"  note: waiver {spelled[ident]} matched no finding this run (remove it once it is no longer needed)")
if failed:
    print(f"audit: FAILED: {failed} audit(s) could not run", file=sys.stderr)
    sys.exit(1)
if unwaived:
    print(f"audit: FAILED: {unwaived} known vulnerabilit{'y' if unwaived == 1 else 'ies'} not waived "
          f"(upgrade, or waive in {waivers_path.name} with a reason)", file=sys.stderr)
    sys.exit(1)
ran = sum(status == "ok" for _, status, _, _ in results)
print(f"audit: passed ({ran} of {len(results)} audits ran, {len(results) - ran} skipped)")
PY

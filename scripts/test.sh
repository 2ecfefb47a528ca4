#!/usr/bin/env bash
# Install everything and run every test suite: lint, types, backend (SQLite and PostgreSQL),
# generated-file checks, front end, browser end-to-end. Exits non-zero on the first failure.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
# CI correctness: install and build from scratch every time, whatever the stamp files say.
export NASPLAN_FORCE=1

apt_install docker-compose docker-compose
apt_install shellcheck shellcheck
apt_install qemu-system-x86_64 qemu-system-x86 qemu-utils
apt_install debootstrap debootstrap
python_env

# The lab's virtual machines take minutes under emulation, so the matrix runs in the background
# (one platform at a time) while the other suites run; its result is read at the end.
LAB_LOG="$(mktemp)"
LAB_PID=""
trap '[ -z "$LAB_PID" ] || kill -- "-$LAB_PID" 2>/dev/null || true' EXIT
log "lab: the Linux bundles applied for real (in the background, see lab/README.md)"
if lab_reason="$("$ROOT/lab/run.sh" can-run 2>&1)"; then
  NASPLAN_LAB_JOBS=1 setsid "$ROOT/lab/run.sh" matrix > "$LAB_LOG" 2>&1 &
  LAB_PID=$!
else
  echo "lab: not run: $lab_reason"
fi

log "ruff"
(cd "$ROOT/backend" && ruff check . && ruff format --check .)
(cd "$ROOT/lab" && ruff check . && ruff format --check .)
log "mypy --strict"
(cd "$ROOT/backend" && mypy nasplan tests)
(cd "$ROOT/lab" && mypy nasplan_lab tests)
log "lint-imports (the backend's layers and no import cycles, backend/pyproject.toml)"
(cd "$ROOT/backend" && lint-imports --no-logo --no-cache)
log "ruff and mypy --strict (scripts, with the backend's settings)"
(cd "$ROOT/backend" && ruff check ../scripts && ruff format --check ../scripts && MYPYPATH=../lab mypy ../scripts)
log "module sizes (scripts/module_sizes.py: at most 400 lines, or a reason in its allow-list)"
python "$ROOT/scripts/module_sizes.py"
log "shellcheck (lab)"
shellcheck -S warning "$ROOT"/lab/*.sh "$ROOT"/lab/image/*.sh "$ROOT"/lab/guest/*.sh
log "lab unit tests (the filer translation and the judge)"
(cd "$ROOT/lab" && python -m pytest)
log "backend tests"
(cd "$ROOT/backend" && python -m pytest)
log "docker-compose.yml"
docker-compose -f "$ROOT/docker-compose.yml" config -q
log "dependency audit (pip-audit, npm audit)"
"$ROOT/scripts/audit-deps.sh"

frontend_install
log "front end: generated API client is up to date"
cp "$ROOT/frontend/openapi.json" "$ROOT/frontend/openapi.tmp.json"
cp "$ROOT/frontend/src/api/schema.d.ts" "$ROOT/frontend/schema.tmp.d.ts"
cp "$ROOT/frontend/src/api/condition-fields.json" "$ROOT/frontend/condition-fields.tmp.json"
cp "$ROOT/frontend/src/api/platform-fields.json" "$ROOT/frontend/platform-fields.tmp.json"
"$ROOT/scripts/gen-client.sh"
if ! cmp -s "$ROOT/frontend/openapi.json" "$ROOT/frontend/openapi.tmp.json" \
  || ! cmp -s "$ROOT/frontend/src/api/schema.d.ts" "$ROOT/frontend/schema.tmp.d.ts" \
  || ! cmp -s "$ROOT/frontend/src/api/condition-fields.json" "$ROOT/frontend/condition-fields.tmp.json" \
  || ! cmp -s "$ROOT/frontend/src/api/platform-fields.json" "$ROOT/frontend/platform-fields.tmp.json"; then
  rm -f "$ROOT"/frontend/*.tmp.json "$ROOT/frontend/schema.tmp.d.ts"
  echo "frontend/src/api is stale: run scripts/gen-client.sh and commit the result" >&2
  exit 1
fi
rm -f "$ROOT"/frontend/*.tmp.json "$ROOT/frontend/schema.tmp.d.ts"
log "front end: eslint, tsc --strict, vitest"
(cd "$ROOT/frontend" && npx eslint src && npx tsc --noEmit -p . && npx vitest run)
frontend_build_dist

apt_install /usr/bin/chromium chromium
log "browser end-to-end tests (Playwright, Debian Chromium, the real app on SQLite)"
(cd "$ROOT/e2e" && npm ci --no-audit --no-fund --loglevel=error && npx tsc --noEmit -p . && npx playwright test)
if [ -n "$LAB_PID" ]; then
  log "lab: the matrix"
  lab_status=0
  wait "$LAB_PID" || lab_status=$?
  cat "$LAB_LOG"
  rm -f "$LAB_LOG"
  LAB_PID=""
  [ "$lab_status" -eq 0 ] || { echo "lab: the matrix failed" >&2; exit 1; }
fi
log "all test suites passed"

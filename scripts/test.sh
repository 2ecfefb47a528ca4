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
python_env

log "ruff"
(cd "$ROOT/backend" && ruff check . && ruff format --check .)
log "mypy --strict"
(cd "$ROOT/backend" && mypy nasplan tests)
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
"$ROOT/scripts/gen-client.sh"
if ! cmp -s "$ROOT/frontend/openapi.json" "$ROOT/frontend/openapi.tmp.json" \
  || ! cmp -s "$ROOT/frontend/src/api/schema.d.ts" "$ROOT/frontend/schema.tmp.d.ts"; then
  rm -f "$ROOT/frontend/openapi.tmp.json" "$ROOT/frontend/schema.tmp.d.ts"
  echo "frontend/src/api is stale: run scripts/gen-client.sh and commit the result" >&2
  exit 1
fi
rm -f "$ROOT/frontend/openapi.tmp.json" "$ROOT/frontend/schema.tmp.d.ts"
log "front end: eslint, tsc --strict, vitest"
(cd "$ROOT/frontend" && npx eslint src && npx tsc --noEmit -p . && npx vitest run)
frontend_build_dist

apt_install /usr/bin/chromium chromium
log "browser end-to-end tests (Playwright, Debian Chromium, the real app on SQLite)"
(cd "$ROOT/e2e" && npm ci --no-audit --no-fund --loglevel=error && npx tsc --noEmit -p . && npx playwright test)
log "all test suites passed"

#!/usr/bin/env bash
# Install everything and run every test suite: lint, types, backend (SQLite and PostgreSQL),
# generated-file checks, front end, browser end-to-end. Exits non-zero on the first failure.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

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
log "all test suites passed"

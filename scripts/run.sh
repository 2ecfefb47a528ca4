#!/usr/bin/env bash
# Install everything and serve nasplan on http://127.0.0.1:8000 with an embedded SQLite database.
# PORT, HOST and DATABASE_URL override the defaults. A restart with nothing changed skips the
# installs and the front-end build (stamp files, see lib.sh); NASPLAN_FORCE=1 redoes them all.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

python_env
frontend_build
mkdir -p "$ROOT/data"
log "serving on http://${HOST:-127.0.0.1}:${PORT:-8000}"
exec "$VENV/bin/nasplan" serve

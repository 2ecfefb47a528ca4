# Shared set-up for scripts/run.sh and scripts/test.sh: install what is missing, idempotently.
# shellcheck shell=bash
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
export PATH="$VENV/bin:$PATH"

log() { printf '\n== %s\n' "$*"; }

apt_install() {
  # apt_install <command-or-path> <package>...: install Debian packages when the command is absent.
  local probe="$1"; shift
  if command -v "$probe" >/dev/null 2>&1 || [ -e "$probe" ]; then return 0; fi
  log "installing $* (Debian)"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

python_env() {
  if [ ! -x "$VENV/bin/python" ]; then
    log "creating $VENV"
    python3 -m venv "$VENV"
  fi
  if [ ! -x "$VENV/bin/uv" ]; then
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check uv
  fi
  log "installing Python dependencies (backend/requirements.lock)"
  "$VENV/bin/uv" pip install -q --python "$VENV/bin/python" -r "$ROOT/backend/requirements.lock"
  "$VENV/bin/uv" pip install -q --python "$VENV/bin/python" --no-deps -e "$ROOT/backend"
}

frontend_install() {
  log "installing front-end packages (npm ci)"
  (cd "$ROOT/frontend" && npm ci --no-audit --no-fund --loglevel=error)
}

frontend_build() {
  frontend_install
  log "building the front end"
  (cd "$ROOT/frontend" && npm run build)
}

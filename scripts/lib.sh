# Shared set-up for scripts/run.sh and scripts/test.sh: install what is missing, idempotently.
# Each install or build step is skipped when a stamp file shows its inputs are unchanged since the
# last successful run; NASPLAN_FORCE=1 runs every step unconditionally (scripts/test.sh sets it).
# shellcheck shell=bash
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
export PATH="$VENV/bin:$PATH"

PY_STAMP="$VENV/.nasplan-stamp"
NPM_STAMP="$ROOT/frontend/node_modules/.nasplan-stamp"
# Outside dist/, which the app serves; npm ci empties node_modules, so a reinstall rebuilds too.
DIST_STAMP="$ROOT/frontend/node_modules/.nasplan-dist-stamp"

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

forced() { [ "${NASPLAN_FORCE:-0}" = 1 ]; }

stamp_matches() {
  # stamp_matches <stamp-file> <digest>: true when the step may be skipped.
  ! forced && [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]
}

sha256_files() {
  # sha256_files <file>...: one sha256 over the files' contents, in the order given.
  cat "$@" | sha256sum | cut -d' ' -f1
}

frontend_sources_digest() {
  # sha256 of frontend/package-lock.json and every file the build reads (path and content), in
  # path order: the tracked and untracked-but-not-ignored files of a git checkout, else find.
  (cd "$ROOT/frontend" && python3 - <<'PY'
import hashlib, os, subprocess

SPECS = ["src", "public", "index.html", "vite.config.*", "tsconfig*.json", "package.json"]
try:
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *SPECS],
        check=True, capture_output=True,
    ).stdout.decode()
    paths = {p for p in out.split("\0") if p}
except (OSError, subprocess.CalledProcessError):
    import glob
    paths = set()
    for spec in SPECS:
        for hit in glob.glob(spec):
            if os.path.isdir(hit):
                for d, _, files in os.walk(hit):
                    paths.update(os.path.join(d, f) for f in files)
            else:
                paths.add(hit)
h = hashlib.sha256()
for path in ["package-lock.json", *sorted(paths)]:
    h.update(path.encode() + b"\0")
    try:
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    except FileNotFoundError:  # listed by git but deleted in the work tree
        h.update(b"missing")
print(h.hexdigest())
PY
  )
}

python_env() {
  if [ ! -x "$VENV/bin/python" ]; then
    log "creating $VENV"
    python3 -m venv "$VENV"
  fi
  if [ ! -x "$VENV/bin/uv" ]; then
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check uv
  fi
  local digest
  digest="$(sha256_files "$ROOT/backend/requirements.lock" "$ROOT/backend/pyproject.toml")"
  if stamp_matches "$PY_STAMP" "$digest"; then
    log "Python dependencies up to date (backend/requirements.lock unchanged)"
  else
    rm -f "$PY_STAMP"
    log "installing Python dependencies (backend/requirements.lock)"
    "$VENV/bin/uv" pip install -q --python "$VENV/bin/python" -r "$ROOT/backend/requirements.lock"
    "$VENV/bin/uv" pip install -q --python "$VENV/bin/python" --no-deps -e "$ROOT/backend"
    # PYTHONDONTWRITEBYTECODE=1 keeps Python from caching bytecode itself, and uv compiles none:
    # compile the installed packages once, explicitly, or every start recompiles them (~2 s).
    "$VENV/bin/python" -m compileall -q -j0 "$("$VENV/bin/python" -c \
      'import sysconfig; print(sysconfig.get_paths()["purelib"])')" >/dev/null \
      || echo "warning: some installed Python files did not compile to bytecode" >&2
    printf '%s\n' "$digest" > "$PY_STAMP"
  fi
  # The project's own bytecode, refreshed on every start: only changed modules are recompiled.
  "$VENV/bin/python" -m compileall -q "$ROOT/backend/nasplan" >/dev/null \
    || echo "warning: backend/nasplan did not compile to bytecode" >&2
}

frontend_install() {
  local digest
  digest="$(sha256_files "$ROOT/frontend/package-lock.json")"
  if [ -d "$ROOT/frontend/node_modules" ] && stamp_matches "$NPM_STAMP" "$digest"; then
    log "front-end packages up to date (frontend/package-lock.json unchanged)"
    return 0
  fi
  rm -f "$NPM_STAMP"
  log "installing front-end packages (npm ci)"
  (cd "$ROOT/frontend" && npm ci --no-audit --no-fund --loglevel=error)
  printf '%s\n' "$digest" > "$NPM_STAMP"
}

frontend_build_dist() {
  # Type-check and bundle the front end into frontend/dist (npm run build).
  local digest
  digest="$(frontend_sources_digest)"
  if [ -f "$ROOT/frontend/dist/index.html" ] && stamp_matches "$DIST_STAMP" "$digest"; then
    log "front end already built (sources unchanged)"
    return 0
  fi
  rm -f "$DIST_STAMP"
  log "building the front end"
  (cd "$ROOT/frontend" && npm run build)
  printf '%s\n' "$digest" > "$DIST_STAMP"
}

frontend_build() {
  frontend_install
  frontend_build_dist
}

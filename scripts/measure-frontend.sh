#!/usr/bin/env bash
# Front-end measurements, printed as a report (not asserted by the tests):
# initial JavaScript size (gzip), Lighthouse performance and accessibility on the wizard and on a
# design page, and the time from changing an answer to the new plan on screen.
# Run after ./scripts/run.sh or ./scripts/test.sh has installed and built everything.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT="${PORT:-8177}"
BASE="http://127.0.0.1:$PORT"
TMP="$(mktemp -d)"
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$TMP"' EXIT

echo "== initial JavaScript (what index.html loads), gzip -9"
total=0
for asset in $(grep -oE 'assets/[^"]+\.(js|css)' "$ROOT/frontend/dist/index.html"); do
  size=$(gzip -9 -c "$ROOT/frontend/dist/$asset" | wc -c)
  total=$((total + size))
  printf '  %-40s %8d bytes\n' "$asset" "$size"
done
printf '  total %42d bytes (budget 204800)\n' "$total"

PORT="$PORT" DATABASE_URL="sqlite:///$TMP/measure.db" "$ROOT/.venv/bin/nasplan" serve >"$TMP/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 50); do curl -fs "$BASE/api/v1/health" >/dev/null && break; sleep 0.2; done

PLATFORM=$(cd "$ROOT" && .venv/bin/python -c "import json; from nasplan.domain.platform import EXAMPLE_PLATFORM; print(json.dumps(EXAMPLE_PLATFORM))")
DESIGN=$(curl -fs -X POST "$BASE/api/v1/designs" -H 'Content-Type: application/json' \
  -d "{\"name\": \"measure\", \"platform\": $PLATFORM}" | "$ROOT/.venv/bin/python" -c "import json,sys; print(json.load(sys.stdin)['id'])")

echo "== Lighthouse 12.8.2 (Debian Chromium, desktop preset)"
for page in "/" "/d/$DESIGN" "/designs"; do
  CHROME_PATH=/usr/bin/chromium npx --yes lighthouse@12.8.2 "$BASE$page" --quiet --preset=desktop \
    --only-categories=performance,accessibility --output=json --output-path="$TMP/lh.json" \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync --disable-quic --no-first-run" >/dev/null 2>&1
  "$ROOT/.venv/bin/python" - "$TMP/lh.json" "$page" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
scores = {k: round(v["score"] * 100) for k, v in report["categories"].items()}
print(f"  {sys.argv[2]:32} performance {scores['performance']:3}  accessibility {scores['accessibility']:3}")
PY
done

echo "== live re-plan"
(cd "$ROOT/e2e" && node measure/replan.mjs "$BASE")

#!/usr/bin/env bash
# Regenerate the front end's typed API client from the backend's OpenAPI schema.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
"$ROOT/.venv/bin/python" - > "$ROOT/frontend/openapi.json" <<'PY'
import json
from nasplan.main import create_app
from nasplan.settings import Settings
print(json.dumps(create_app(Settings(DATABASE_URL="sqlite://")).openapi(), indent=1, sort_keys=True))
PY
(cd "$ROOT/frontend" && npx openapi-typescript openapi.json -o src/api/schema.d.ts --silent)

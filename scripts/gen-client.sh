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
# The condition fields as GET /api/v1/catalog serves them, for the front end's unit tests.
"$ROOT/.venv/bin/python" - > "$ROOT/frontend/src/api/condition-fields.json" <<'PY'
import json
from nasplan.api.routes.catalog import condition_field_choices
print(json.dumps([c.model_dump() for c in condition_field_choices()], indent=1, ensure_ascii=False))
PY
# Every platform answer as GET /api/v1/catalog serves it (limits, pattern, messages, words, step,
# widget, opening answer), for the wizard's fields, its checks and every page that names an answer.
"$ROOT/.venv/bin/python" - > "$ROOT/frontend/src/api/platform-fields.json" <<'PY'
import json
from nasplan.knowledge.loader import load_knowledge
print(json.dumps([r.model_dump(exclude_none=True) for r in load_knowledge().fields], indent=1, ensure_ascii=False))
PY
(cd "$ROOT/frontend" && npx openapi-typescript openapi.json -o src/api/schema.d.ts --silent)

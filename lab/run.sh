#!/bin/sh
# Run the lab (see lab/README.md): lab/run.sh matrix | lab/run.sh run PLATFORM.json [--keep DIR]
set -eu
LAB=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-$LAB/../.venv/bin/python}
PYTHONPATH="$LAB${PYTHONPATH:+:$PYTHONPATH}" exec "$PYTHON" -m nasplan_lab "$@"

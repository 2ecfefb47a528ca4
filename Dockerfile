# Two stages: build the front end with Node, then run the API (which serves it) on Python 3.11.
FROM node:20-bookworm-slim AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
WORKDIR /app
COPY backend/requirements.lock backend/requirements.lock
RUN pip install --no-cache-dir -r backend/requirements.lock
COPY backend/ backend/
COPY knowledge/ knowledge/
RUN pip install --no-cache-dir --no-deps -e backend
COPY --from=frontend /src/frontend/dist frontend/dist
# Run as an unprivileged user: the code is root's and read-only to it; data/ (the SQLite
# default) and its home (the parsed knowledge-base cache, filled here once) are its own.
RUN useradd --create-home --uid 10001 --user-group nasplan \
    && mkdir -p data && chown nasplan:nasplan data \
    && python -m compileall -q backend/nasplan
USER nasplan
RUN python -c "from nasplan.knowledge.loader import load_knowledge; load_knowledge()"
# NASPLAN_WORKERS: server processes per container; docker-compose.yml runs two containers
# behind a proxy and `nasplan migrate` once before them (NASPLAN_MIGRATE_ON_START=false).
ENV HOST=0.0.0.0 PORT=8000 NASPLAN_WORKERS=1
EXPOSE 8000
CMD ["nasplan", "serve"]

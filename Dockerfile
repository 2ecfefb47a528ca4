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
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
CMD ["nasplan", "serve"]

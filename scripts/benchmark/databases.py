"""The designs databases, SQLite and PostgreSQL: seed designs, bulk copies, sizes and samples."""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import subprocess
from pathlib import Path

from benchmark.common import CORPUS, PG, PYTHON
from benchmark.server import http


def create_design(base: str, name: str, platform: dict[str, object]) -> str:
    payload = {"name": name, "platform": platform, "acknowledge_errors": True}
    status, _, body = http(f"{base}/api/v1/designs", payload)
    if status != 201:
        raise RuntimeError(f"POST /designs: {status} {body[:200]!r}")
    return str(json.loads(body)["id"])


def corpus_platforms() -> list[dict[str, object]]:
    """The regression corpus's platforms (YAML, read with the venv's PyYAML)."""
    done = subprocess.run(
        [
            str(PYTHON),
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
            str(CORPUS),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return [entry["platform"] for entry in json.loads(done.stdout)["platforms"]]


def new_id() -> str:
    return secrets.token_urlsafe(16)


def copy_statements(
    design_cols: list[str], revision_cols: list[str], ids_table: str
) -> tuple[str, str]:
    """INSERT ... SELECT copying each template design and its revisions under a new id."""
    quoted = [f'"{c}"' for c in design_cols]
    picked = ["b.new_id" if c == "id" else f'd."{c}"' for c in design_cols]
    designs = (
        f"INSERT INTO designs ({', '.join(quoted)}) SELECT {', '.join(picked)} "
        f"FROM {ids_table} b JOIN designs d ON d.id = b.tmpl_id"
    )
    rev_cols = [c for c in revision_cols if c != "id"]
    quoted = [f'"{c}"' for c in rev_cols]
    picked = ["b.new_id" if c == "design_id" else f'r."{c}"' for c in rev_cols]
    revisions = (
        f"INSERT INTO revisions ({', '.join(quoted)}) SELECT {', '.join(picked)} "
        f"FROM {ids_table} b JOIN revisions r ON r.design_id = b.tmpl_id"
    )
    return designs, revisions


class DesignsSqlite:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"

    def connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=30)
        connection.execute("PRAGMA busy_timeout=30000")
        return connection

    def size(self) -> int:
        with contextlib.closing(self.connect()) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return self.path.stat().st_size

    def count(self) -> int:
        with contextlib.closing(self.connect()) as connection:
            return int(connection.execute("SELECT count(*) FROM designs").fetchone()[0])

    def sample_ids(self, k: int) -> list[str]:
        with contextlib.closing(self.connect()) as connection:
            query = "SELECT id FROM designs ORDER BY random() LIMIT ?"
            return [row[0] for row in connection.execute(query, (k,))]

    def column_bytes(self) -> dict[str, float]:
        """Mean bytes per revision of the columns that hold its plan and platform, and of
        plan_parts (shared explanations) divided over the revisions, when those exist."""
        with contextlib.closing(self.connect()) as connection:
            columns = {row[1] for row in connection.execute("PRAGMA table_info(revisions)")}
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
            result: dict[str, float] = {}
            wanted = [c for c in ("plan_json", "platform_json", "plan_z") if c in columns]
            for column in wanted:
                query = f"SELECT avg(coalesce(length(CAST({column} AS BLOB)), 0)) FROM revisions"
                result[column] = float(connection.execute(query).fetchone()[0] or 0)
            if "plan_json" in result and "platform_json" in result:
                result = {
                    "plan_json+platform_json": result.pop("plan_json")
                    + result.pop("platform_json"),
                    **result,
                }
            if "plan_parts" in tables:
                parts = connection.execute(
                    "SELECT coalesce(sum(length(body)), 0), count(*) FROM plan_parts"
                ).fetchone()
                revisions = connection.execute("SELECT count(*) FROM revisions").fetchone()[0]
                result[f"plan_parts ({parts[1]} rows) shared"] = parts[0] / max(1, revisions)
            return result

    def populate(self, extra: int, batch: int = 5000) -> None:
        with contextlib.closing(self.connect()) as connection:
            templates = [row[0] for row in connection.execute("SELECT id FROM designs")]
            design_cols = [row[1] for row in connection.execute("PRAGMA table_info(designs)")]
            revision_cols = [row[1] for row in connection.execute("PRAGMA table_info(revisions)")]
            designs, revisions = copy_statements(design_cols, revision_cols, "bench_ids")
            connection.execute(
                "CREATE TEMP TABLE bench_ids (new_id TEXT PRIMARY KEY, tmpl_id TEXT)"
            )
            for start in range(0, extra, batch):
                rows = [
                    (new_id(), templates[i % len(templates)])
                    for i in range(start, min(extra, start + batch))
                ]
                connection.execute("DELETE FROM bench_ids")
                connection.executemany("INSERT INTO bench_ids VALUES (?, ?)", rows)
                connection.execute(designs)
                connection.execute(revisions)
                connection.commit()


class DesignsPostgres:
    def __init__(self, name: str) -> None:
        self.name = name
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"

    def sql(self, statement: str, stdin: str | None = None) -> str:
        command = [*PG, "-d", self.name]
        if stdin is None:
            command += ["-c", statement]
        done = subprocess.run(command, input=stdin, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"psql: {done.stderr.strip()[:500]}")
        return done.stdout

    def size(self) -> int:
        return int(self.sql("SELECT pg_database_size(current_database())"))

    def count(self) -> int:
        return int(self.sql("SELECT count(*) FROM designs"))

    def sample_ids(self, k: int) -> list[str]:
        return self.sql(f"SELECT id FROM designs ORDER BY random() LIMIT {k}").split()

    def columns(self, table: str) -> list[str]:
        query = (
            "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
            f"AND table_name = '{table}' ORDER BY ordinal_position"
        )
        return self.sql(query).split()

    def populate(self, extra: int, batch: int = 10000) -> None:
        templates = self.sql("SELECT id FROM designs").split()
        designs, revisions = copy_statements(
            self.columns("designs"), self.columns("revisions"), "bench_ids"
        )
        for start in range(0, extra, batch):
            values = ",".join(
                f"('{new_id()}','{templates[i % len(templates)]}')"
                for i in range(start, min(extra, start + batch))
            )
            script = (
                "BEGIN;\n"
                "CREATE TEMP TABLE bench_ids (new_id text PRIMARY KEY, tmpl_id text) "
                "ON COMMIT DROP;\n"
                f"INSERT INTO bench_ids VALUES {values};\n"
                f"{designs};\n{revisions};\nCOMMIT;\n"
            )
            self.sql("", stdin=script)
        self.sql("ANALYZE")

"""The server commands: `nasplan serve` runs the web application, `nasplan migrate` brings the
database up to date."""

from __future__ import annotations

import sys
from typing import TextIO

from nasplan.settings import get_settings


def serve(workers: int | None) -> int:
    from nasplan.main import run

    run(workers)
    return 0


def migrate(out: TextIO) -> int:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from nasplan.main import migrate_database

    url = get_settings().database_url
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        revision = migrate_database(url)
    except SQLAlchemyError as exc:
        detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        print(
            f"cannot migrate {shown}: {detail[0] if detail else type(exc).__name__}",
            file=sys.stderr,
        )
        return 1
    print(f"{shown}: at migration {revision}", file=out)
    return 0

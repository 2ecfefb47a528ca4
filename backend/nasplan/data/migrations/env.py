"""Alembic environment: always given a live connection by nasplan.data.migrate."""

from __future__ import annotations

from alembic import context

from nasplan.data.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

"""a review may name the one plan item it is about: a mount, an option, a setting or a finding

Revision ID: 0008
Revises: 0007

Reviews kept before name at most a rule (item_rule) and keep no item.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("reviews") as batch:
        batch.add_column(sa.Column("item_json", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("reviews") as batch:
        batch.drop_column("item_json")

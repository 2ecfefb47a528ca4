"""as-built checks of a revision: what a host's verify report found

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "as_built_checks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "revision_id",
            sa.Integer,
            sa.ForeignKey("revisions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("host", sa.String(253), nullable=True),
        sa.Column("result_json", sa.Text, nullable=False),
    )
    op.create_index("ix_as_built_checks_revision_id", "as_built_checks", ["revision_id"])


def downgrade() -> None:
    op.drop_index("ix_as_built_checks_revision_id", "as_built_checks")
    op.drop_table("as_built_checks")

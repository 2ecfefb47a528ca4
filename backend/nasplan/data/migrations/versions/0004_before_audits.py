"""audits kept on a design as its "before": what ran before the design was built

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "design_audits",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "revision_id",
            sa.Integer,
            sa.ForeignKey("revisions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("label", sa.String(120), nullable=False),
        sa.Column("report_json", sa.Text, nullable=False),
    )
    op.create_index("ix_design_audits_revision_id", "design_audits", ["revision_id"])


def downgrade() -> None:
    op.drop_index("ix_design_audits_revision_id", "design_audits")
    op.drop_table("design_audits")

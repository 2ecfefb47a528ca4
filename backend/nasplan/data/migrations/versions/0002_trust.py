"""frozen approvals, provenance of revisions and reviews

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("revisions") as batch:
        batch.add_column(sa.Column("link_base", sa.String(300), nullable=True))
        batch.add_column(
            sa.Column("origin", sa.String(16), nullable=False, server_default="created")
        )
        batch.add_column(
            sa.Column("errors_acknowledged", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("imported_plan_json", sa.Text, nullable=True))
    with op.batch_alter_table("reviews") as batch:
        batch.add_column(
            sa.Column("imported", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("errors_acknowledged", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("bundle_sha256", sa.String(64), nullable=True))
    op.create_table(
        "approved_bundles",
        sa.Column(
            "revision_id",
            sa.Integer,
            sa.ForeignKey("revisions.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "review_id",
            sa.Integer,
            sa.ForeignKey("reviews.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("zip", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("approved_bundles")
    with op.batch_alter_table("reviews") as batch:
        batch.drop_column("bundle_sha256")
        batch.drop_column("errors_acknowledged")
        batch.drop_column("imported")
    with op.batch_alter_table("revisions") as batch:
        batch.drop_column("imported_plan_json")
        batch.drop_column("errors_acknowledged")
        batch.drop_column("origin")
        batch.drop_column("link_base")

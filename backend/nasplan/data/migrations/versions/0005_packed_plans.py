"""saved plans stored compressed, their rule explanations once per content

Revision ID: 0005
Revises: 0004

Existing revisions keep their plan text in revisions.plan_json and read as before; revisions
saved from now on store it packed (nasplan.data.plan_store).
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "plan_parts",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("body", sa.LargeBinary, nullable=False),
    )
    with op.batch_alter_table("revisions") as batch:
        batch.add_column(sa.Column("plan_z", sa.LargeBinary, nullable=True))
        batch.add_column(
            sa.Column(
                "rules_digest",
                sa.String(64),
                sa.ForeignKey("plan_parts.digest", name="fk_revisions_rules_digest"),
                nullable=True,
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("revisions") as batch:
        batch.drop_column("rules_digest")
        batch.drop_column("plan_z")
    op.drop_table("plan_parts")

"""Tables: a design, its immutable revisions, and reviews of revisions."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
    select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, object_session, relationship

from nasplan.data.plan_codec import unpack_cached


class Base(DeclarativeBase):
    pass


class DesignRow(Base):
    __tablename__ = "designs"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    review_token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))

    revisions: Mapped[list[RevisionRow]] = relationship(
        back_populates="design", order_by="RevisionRow.number", lazy="raise"
    )


class PlanPartRow(Base):
    """The rule explanations of saved plans, once per content (nasplan.data.plan_store)."""

    __tablename__ = "plan_parts"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    body: Mapped[bytes] = mapped_column(LargeBinary)


class RevisionRow(Base):
    __tablename__ = "revisions"
    # The constraint, not a read-then-write check, is what stops two revisions with one number.
    __table_args__ = (UniqueConstraint("design_id", "number", name="uq_revision_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    design_id: Mapped[str] = mapped_column(ForeignKey("designs.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(120))
    platform_json: Mapped[str] = mapped_column(Text)
    # Revisions saved before migration 0005 keep their plan here as text; later ones store it
    # packed (nasplan.data.plan_store) and leave this empty.
    plan_text: Mapped[str] = mapped_column("plan_json", Text)
    plan_z: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    rules_digest: Mapped[str | None] = mapped_column(ForeignKey("plan_parts.digest"), nullable=True)
    kb_version: Mapped[str] = mapped_column(String(32))
    as_of: Mapped[dt.date] = mapped_column(Date)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # Base of the permalink printed in the revision's files, fixed when it was saved.
    link_base: Mapped[str | None] = mapped_column(String(300), nullable=True)
    origin: Mapped[str] = mapped_column(String(16), server_default="created")
    errors_acknowledged: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # An imported plan that differed from this site's re-plan: a record, never rendered.
    imported_plan_json: Mapped[str | None] = mapped_column(Text, nullable=True)

    design: Mapped[DesignRow] = relationship(back_populates="revisions", lazy="raise")

    @property
    def plan_json(self) -> str:
        """The plan exactly as it was saved."""
        if self.plan_z is None or self.rules_digest is None:
            return self.plan_text

        def load_parts(digests: Collection[str]) -> dict[str, bytes]:
            # Asked only when the plan text is not in plan_codec's cache.
            session = object_session(self)
            if session is None:
                raise LookupError("the revision is detached: its plan parts cannot be read")
            query = select(PlanPartRow.digest, PlanPartRow.body).where(
                PlanPartRow.digest.in_(digests)
            )
            return {row.digest: row.body for row in session.execute(query)}

        return unpack_cached(self.plan_z, self.rules_digest, load_parts)


class ReviewRow(Base):
    __tablename__ = "reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    revision_id: Mapped[int] = mapped_column(
        ForeignKey("revisions.id", ondelete="CASCADE"), index=True
    )
    reviewer: Mapped[str] = mapped_column(String(80))
    decision: Mapped[str] = mapped_column(String(20))
    comment: Mapped[str] = mapped_column(Text)
    item_rule: Mapped[str | None] = mapped_column(String(60), nullable=True)
    # The plan item it is about (nasplan.designs.schemas.ReviewItem, as JSON).
    item_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # Imported reviews are history from another site: they never approve anything here.
    imported: Mapped[bool] = mapped_column(Boolean, server_default=false())
    errors_acknowledged: Mapped[bool] = mapped_column(Boolean, server_default=false())
    bundle_sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ApprovedBundleRow(Base):
    """The bundle of an approved revision, exactly as approved: downloads serve these bytes."""

    __tablename__ = "approved_bundles"

    revision_id: Mapped[int] = mapped_column(
        ForeignKey("revisions.id", ondelete="CASCADE"), primary_key=True
    )
    review_id: Mapped[int] = mapped_column(ForeignKey("reviews.id", ondelete="CASCADE"))
    digest: Mapped[str] = mapped_column(String(64))
    zip: Mapped[bytes] = mapped_column(LargeBinary)


class AsBuiltRow(Base):
    """What a verify report from one host found, item by item, against a revision's plan."""

    __tablename__ = "as_built_checks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    revision_id: Mapped[int] = mapped_column(
        ForeignKey("revisions.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    host: Mapped[str | None] = mapped_column(String(253), nullable=True)
    result_json: Mapped[str] = mapped_column(Text)
    # What lists of checks show (nasplan.designs.records), so a list never reads result_json.
    summary_json: Mapped[str] = mapped_column(Text)


class DesignAuditRow(Base):
    """An audit of what ran before the design, kept on the design as its "before"."""

    __tablename__ = "design_audits"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    revision_id: Mapped[int] = mapped_column(
        ForeignKey("revisions.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    label: Mapped[str] = mapped_column(String(120))
    report_json: Mapped[str] = mapped_column(Text)
    # What lists of audits show (nasplan.designs.records), so a list never reads report_json.
    summary_json: Mapped[str] = mapped_column(Text)

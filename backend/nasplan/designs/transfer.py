"""A design as one document, out and in: for backup or another site.

Import trusts nothing: every imported revision is planned again from its platform and date with
this site's knowledge base; the imported plan is kept only as a record when it differs. The
imported reviews are history, marked imported: they approve nothing here.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import cast

from sqlalchemy.orm import Session

from nasplan.data.models import DesignRow, ReviewRow, RevisionRow
from nasplan.designs.review_items import check_item
from nasplan.designs.reviews import item_of, reviews_of
from nasplan.designs.schemas import Decision, DesignExport, ExportReview, ExportRevision
from nasplan.designs.service import (
    ID_BYTES,
    TOKEN_BYTES,
    InvalidReference,
    Tokens,
    as_utc,
    get_design,
    plan_columns,
    plan_of,
    revisions,
    token_hash,
    utc_now,
)
from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.plan_view import PlanView


def export_design(session: Session, design_id: str) -> DesignExport:
    design = get_design(session, design_id)
    rows = revisions(session, design_id)
    grouped = reviews_of(session, [r.id for r in rows])
    return DesignExport(
        name=design.name,
        exported_at=utc_now(),
        revisions=[
            ExportRevision(
                number=r.number,
                name=r.name,
                created_at=as_utc(r.created_at),
                kb_version=r.kb_version,
                as_of=r.as_of,
                platform=Platform.model_validate_json(r.platform_json),
                plan=PlanView.model_validate_json(r.plan_json),
                reviews=[
                    ExportReview(
                        reviewer=v.reviewer,
                        decision=cast(Decision, v.decision),
                        comment=v.comment,
                        item_rule=v.item_rule,
                        item=item_of(v),
                        created_at=as_utc(v.created_at),
                        imported=v.imported,
                    )
                    for v in grouped[r.id]
                ],
            )
            for r in rows
        ],
    )


def import_design(
    session: Session,
    kb: KnowledgeBase,
    document: DesignExport,
    today: dt.date,
    link_base: str | None,
) -> tuple[DesignRow, Tokens]:
    numbers = [r.number for r in document.revisions]
    if numbers != list(range(1, len(numbers) + 1)):
        raise InvalidReference(
            ("body", "revisions"), "revisions must be numbered 1, 2, 3 ... in order"
        )
    replanned: list[tuple[str, PlanView]] = []
    for index, revision in enumerate(document.revisions):
        if revision.as_of > today:
            raise InvalidReference(
                ("body", "revisions", str(index), "as_of"), "as_of cannot be in the future"
            )
        for position, review in enumerate(revision.reviews):
            where = ("body", "revisions", str(index), "reviews", str(position))
            if review.item_rule is not None and review.item_rule not in revision.plan.rules:
                raise InvalidReference(
                    (*where, "item_rule"),
                    f"rule {review.item_rule} is not in revision {revision.number}'s plan",
                )
            item = review.item
            wrong = None if item is None else check_item(revision.plan, item, review.item_rule)
            if wrong is not None:
                raise InvalidReference(
                    (*where, *wrong.field), f"{wrong.message} of revision {revision.number}"
                )
        # The imported plan is never used: this site plans the platform again, for the date
        # the revision was planned for.
        replanned.append(plan_of(kb, revision.platform, revision.as_of))
    tokens = Tokens(secrets.token_urlsafe(TOKEN_BYTES), secrets.token_urlsafe(TOKEN_BYTES))
    design = DesignRow(
        id=secrets.token_urlsafe(ID_BYTES),
        name=document.name,
        edit_token_hash=token_hash(tokens.edit),
        review_token_hash=token_hash(tokens.review),
        created_at=utc_now(),
    )
    session.add(design)
    session.flush()
    for revision, (plan_json, view) in zip(document.revisions, replanned, strict=True):
        row = RevisionRow(
            design_id=design.id,
            number=revision.number,
            name=revision.name,
            platform_json=revision.platform.model_dump_json(),
            **plan_columns(session, plan_json, view),
            kb_version=view.kb_version,
            as_of=view.as_of,
            created_at=revision.created_at,
            link_base=link_base,
            origin="imported",
            errors_acknowledged=False,
            imported_plan_json=(
                None if same_advice(revision.plan, view) else revision.plan.model_dump_json()
            ),
        )
        session.add(row)
        session.flush()
        for review in revision.reviews:
            session.add(
                ReviewRow(
                    revision_id=row.id,
                    reviewer=review.reviewer,
                    decision=review.decision,
                    comment=review.comment,
                    item_rule=review.item_rule,
                    item_json=review.item.model_dump_json() if review.item is not None else None,
                    created_at=review.created_at,
                    imported=True,
                    errors_acknowledged=False,
                )
            )
    session.commit()
    return design, tokens


def same_advice(imported: PlanView, replanned: PlanView) -> bool:
    """Whether an imported plan says what this site's plan says (the release number aside)."""
    return imported.model_dump(mode="json", exclude={"kb_version"}) == replanned.model_dump(
        mode="json", exclude={"kb_version"}
    )


def provenance(revision: RevisionRow) -> str | None:
    if revision.origin != "imported":
        return None
    note = (
        f"Imported. Planned again on this site from the imported platform, for "
        f"{revision.as_of.isoformat()}, with knowledge base {revision.kb_version}; "
    )
    if revision.imported_plan_json is None:
        return note + "the imported plan said the same. Imported reviews are not verified."
    return (
        note + "the imported plan differed and is kept as a record only (never rendered). "
        "Imported reviews are not verified."
    )

"""Reviews of a revision, and the state they give it.

Review state of a revision: ``approved`` once a reviewer on this site approves it (final: it
cannot be un-approved or reviewed further), else ``changes_requested`` when the last decision
asked for changes, else ``in_review`` when it has comments, else ``draft``. Reviews imported
with a design are history from another site and count for nothing here. The design's state is
its latest revision's; a new revision starts as ``draft`` while earlier approvals stay.

An approval freezes the revision's bundle: the zip is rendered once, its digest recorded with
the review, and the bytes stored; downloads of an approved revision return exactly those bytes.

A comment or a change request may be about one item of the plan: a rule (``item_rule``), or
exactly one mount, option, setting or finding (``item``, nasplan.designs.review_items).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from nasplan.data.models import ApprovedBundleRow, ReviewRow, RevisionRow
from nasplan.designs.files import render_revision_bundle
from nasplan.designs.review_items import check_item
from nasplan.designs.schemas import ReviewCreate, ReviewItem, RevisionStatus
from nasplan.designs.service import (
    BundleChanged,
    InvalidReference,
    RevisionFinal,
    as_utc,
    check_token,
    get_design,
    get_revision,
    require_acknowledged,
    utc_now,
    view_has_errors,
)
from nasplan.renderers.common import Approval
from nasplan.renderers.plan_view import PlanView


def reviews_of(session: Session, revision_ids: Sequence[int]) -> dict[int, list[ReviewRow]]:
    grouped: dict[int, list[ReviewRow]] = {rid: [] for rid in revision_ids}
    if revision_ids:
        rows = session.scalars(
            select(ReviewRow).where(ReviewRow.revision_id.in_(revision_ids)).order_by(ReviewRow.id)
        )
        for row in rows:
            grouped[row.revision_id].append(row)
    return grouped


def revision_status(reviews: Sequence[ReviewRow]) -> RevisionStatus:
    local = [r for r in reviews if not r.imported]
    if any(r.decision == "approve" for r in local):
        return "approved"
    decisions = [r.decision for r in local if r.decision != "comment"]
    if decisions and decisions[-1] == "request_changes":
        return "changes_requested"
    return "in_review" if local else "draft"


def approval_of(reviews: Sequence[ReviewRow]) -> ReviewRow | None:
    """The review that approved the revision on this site, if any."""
    return next((r for r in reviews if r.decision == "approve" and not r.imported), None)


def stamp_of(review: ReviewRow) -> Approval:
    return Approval(reviewer=review.reviewer, approved_at=as_utc(review.created_at))


def add_review(
    session: Session,
    design_id: str,
    review_token: str | None,
    review: ReviewCreate,
) -> ReviewRow:
    design = get_design(session, design_id)
    check_token(review_token, design.review_token_hash)
    revision = get_revision(session, design_id, review.revision)
    if review.item_rule is not None:
        plan = json.loads(revision.plan_json)
        if review.item_rule not in plan.get("rules", {}):
            raise InvalidReference(
                ("body", "item_rule"),
                f"rule {review.item_rule} produced nothing in revision {review.revision}",
            )
    if review.item is not None:
        view = PlanView.model_validate_json(revision.plan_json)
        wrong = check_item(view, review.item, review.item_rule)
        if wrong is not None:
            raise InvalidReference(
                ("body", *wrong.field), f"{wrong.message} of revision {review.revision}"
            )
    existing = session.scalars(select(ReviewRow).where(ReviewRow.revision_id == revision.id)).all()
    if revision_status(existing) == "approved" and review.decision != "comment":
        raise RevisionFinal(
            f"revision {review.revision} is approved; approvals are final. Review the latest "
            "revision instead."
        )
    row = ReviewRow(
        revision_id=revision.id,
        reviewer=review.reviewer,
        decision=review.decision,
        comment=review.comment,
        item_rule=review.item_rule,
        item_json=review.item.model_dump_json() if review.item is not None else None,
        created_at=utc_now(),
        imported=False,
        errors_acknowledged=False,
    )
    if review.decision == "approve":
        _approve(session, design_id, revision, row, review)
    else:
        session.add(row)
    try:
        session.commit()
    except IntegrityError as exc:
        # Another approval of this revision was stored between our read and our write.
        session.rollback()
        raise RevisionFinal(f"revision {review.revision} was approved meanwhile") from exc
    return row


def _approve(
    session: Session,
    design_id: str,
    revision: RevisionRow,
    row: ReviewRow,
    review: ReviewCreate,
) -> None:
    """Record the approval with the digest of the bundle it approves, and keep that bundle."""
    view = PlanView.model_validate_json(revision.plan_json)
    require_acknowledged(view, review.acknowledge_errors, "approve")
    unapproved = render_revision_bundle(design_id, revision, None)
    if review.bundle_sha256 is not None and review.bundle_sha256 != unapproved.digest:
        raise BundleChanged(
            f"revision {revision.number}'s bundle is sha256 {unapproved.digest}, not the "
            f"{review.bundle_sha256} you reviewed: download it again and review that"
        )
    row.errors_acknowledged = view_has_errors(view)
    row.bundle_sha256 = unapproved.digest
    session.add(row)
    session.flush()
    approved = render_revision_bundle(design_id, revision, stamp_of(row))
    if approved.digest != unapproved.digest:  # README.md alone may differ; a guard, not a path
        raise RuntimeError("the approval changed a file the manifest covers")
    session.add(
        ApprovedBundleRow(
            revision_id=revision.id, review_id=row.id, digest=approved.digest, zip=approved.zip
        )
    )


def approved_bundle(session: Session, revision: RevisionRow) -> ApprovedBundleRow | None:
    return session.get(ApprovedBundleRow, revision.id)


def item_of(review: ReviewRow) -> ReviewItem | None:
    """The plan item a kept review is about, if it names one."""
    if review.item_json is None:
        return None
    return ReviewItem.model_validate_json(review.item_json)

"""The bodies the designs API answers with for revisions and their reviews, from the rows."""

from __future__ import annotations

import json
from typing import Any

from nasplan.data.models import ReviewRow, RevisionRow
from nasplan.designs import reviews, service, transfer
from nasplan.designs.schemas import ApprovalOut, ReviewOut, RevisionSummary


def review_out(review: ReviewRow, number: int) -> ReviewOut:
    return ReviewOut(
        id=review.id,
        revision=number,
        reviewer=review.reviewer,
        decision=review.decision,
        comment=review.comment,
        item_rule=review.item_rule,
        item=reviews.item_of(review),
        created_at=service.as_utc(review.created_at),
        imported=review.imported,
        errors_acknowledged=review.errors_acknowledged,
        bundle_sha256=review.bundle_sha256,
    )


def revision_summary(revision: RevisionRow, kept: list[ReviewRow]) -> RevisionSummary:
    approval = reviews.approval_of(kept)
    return RevisionSummary(
        number=revision.number,
        name=revision.name,
        created_at=service.as_utc(revision.created_at),
        kb_version=revision.kb_version,
        as_of=revision.as_of,
        status=reviews.revision_status(kept),
        origin="imported" if revision.origin == "imported" else "created",
        errors_acknowledged=revision.errors_acknowledged,
        approval=ApprovalOut(
            reviewer=approval.reviewer,
            approved_at=service.as_utc(approval.created_at),
            bundle_sha256=approval.bundle_sha256 or "",
        )
        if approval is not None
        else None,
    )


def revision_body(revision: RevisionRow, kept: list[ReviewRow]) -> dict[str, Any]:
    """Everything but the plan, which is spliced in as the exact text stored with it."""
    summary = revision_summary(revision, kept).model_dump(mode="json")
    return {
        **summary,
        "design_id": revision.design_id,
        "platform": json.loads(revision.platform_json),
        "reviews": [review_out(r, revision.number).model_dump(mode="json") for r in kept],
        "provenance": transfer.provenance(revision),
    }

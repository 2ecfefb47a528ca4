"""Saved designs: permalinks, immutable revisions, drift, and what a design keeps.

Capabilities, no accounts: the design id is the read-only permalink; the edit token adds
revisions; the review token records reviews (nasplan.designs.reviews). Tokens are random,
returned once, and stored only as SHA-256 hashes (they carry 128 random bits, so a fast hash is
enough), compared in constant time.

A revision's files depend on nothing of the request that downloads or approves them: their
permalink base is the one fixed when the revision was saved (``Saving.link_base``). Export and
import: nasplan.designs.transfer.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import URL, Connection, Engine, bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from nasplan.audit.report import AuditReport
from nasplan.audit.request import AuditInputs
from nasplan.data.models import (
    ApprovedBundleRow,
    AsBuiltRow,
    DesignAuditRow,
    DesignRow,
    ReviewRow,
    RevisionRow,
)
from nasplan.data.plan_store import pack
from nasplan.designs.as_built import AsBuiltResult, compare_verify_report
from nasplan.designs.records import as_built_figures, audit_figures, slim_report
from nasplan.domain.platform import Platform
from nasplan.engine.diff import Change, diff_plans
from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from nasplan.renderers.plan_view import PlanView, plan_view

ID_BYTES = 16  # 128 random bits, URL-safe base64: 22 characters
TOKEN_BYTES = 24
_DESIGN_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class DesignError(Exception):
    status = 400


class DesignNotFound(DesignError):
    status = 404


class TokenRefused(DesignError):
    status = 403


class StaleRevision(DesignError):
    status = 409

    def __init__(self, latest: int) -> None:
        super().__init__(f"revision {latest} is the latest: base your change on it")
        self.latest = latest


class RevisionFinal(DesignError):
    status = 409


class InvalidReference(DesignError):
    """A well-formed field that names something that does not exist (422, naming the field)."""

    status = 422

    def __init__(self, field: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.field = field


class BundleChanged(DesignError):
    status = 409


def require_acknowledged(view: PlanView, acknowledged: bool, action: str) -> None:
    errors = [f.rule for f in view.findings if f.severity == "error"]
    if errors and not acknowledged:
        raise InvalidReference(
            ("body", "acknowledge_errors"),
            f"the plan has {len(errors)} error finding(s) ({', '.join(errors)}): read them, "
            f"then send acknowledge_errors: true to {action} it anyway",
        )


@dataclass(frozen=True)
class Tokens:
    edit: str
    review: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_token(given: str | None, stored_hash: str) -> None:
    # Hash first so the comparison always runs over equal-length strings.
    if given is None or not hmac.compare_digest(token_hash(given), stored_hash):
        raise TokenRefused("missing or wrong token")


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def as_utc(moment: dt.datetime) -> dt.datetime:
    """SQLite hands timestamps back without a zone; they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def plan_of(kb: KnowledgeBase, platform: Platform, today: dt.date) -> tuple[str, PlanView]:
    view = plan_view(make_plan(kb, platform, today))
    return view.model_dump_json(), view


@dataclass(frozen=True)
class Saving:
    """What every new revision records besides its platform: the permalink base of its files
    (nasplan.designs.files.link_base, fixed now for good) and whether its author acknowledged
    the plan's error findings."""

    link_base: str | None
    acknowledge_errors: bool = False


def plan_columns(session: Session, plan_json: str, view: PlanView) -> dict[str, object]:
    """A revision's plan columns: packed (compressed, explanations stored once)."""
    short = view.model_copy(update={"rules": {}}).model_dump_json()
    packed = pack(session, plan_json, short)
    return {"plan_text": "", "plan_z": packed.plan_z, "rules_digest": packed.rules_digest}


def _new_revision(
    session: Session,
    design_id: str,
    number: int,
    name: str,
    platform: Platform,
    plan_json: str,
    view: PlanView,
    saving: Saving,
) -> RevisionRow:
    return RevisionRow(
        design_id=design_id,
        number=number,
        name=name,
        platform_json=platform.model_dump_json(),
        **plan_columns(session, plan_json, view),
        kb_version=view.kb_version,
        as_of=view.as_of,
        created_at=utc_now(),
        link_base=saving.link_base,
        origin="created",
        errors_acknowledged=saving.acknowledge_errors and view_has_errors(view),
    )


def view_has_errors(view: PlanView) -> bool:
    return any(f.severity == "error" for f in view.findings)


def create_design(
    session: Session,
    kb: KnowledgeBase,
    name: str,
    platform: Platform,
    today: dt.date,
    saving: Saving,
) -> tuple[DesignRow, RevisionRow, Tokens]:
    tokens = Tokens(secrets.token_urlsafe(TOKEN_BYTES), secrets.token_urlsafe(TOKEN_BYTES))
    plan_json, view = plan_of(kb, platform, today)
    require_acknowledged(view, saving.acknowledge_errors, "save")
    design = DesignRow(
        id=secrets.token_urlsafe(ID_BYTES),
        name=name,
        edit_token_hash=token_hash(tokens.edit),
        review_token_hash=token_hash(tokens.review),
        created_at=utc_now(),
    )
    session.add(design)
    session.flush()
    revision = _new_revision(session, design.id, 1, name, platform, plan_json, view, saving)
    session.add(revision)
    session.commit()
    return design, revision, tokens


def is_design_id(design_id: str) -> bool:
    """Whether ``design_id`` could be a design's id at all (others are never looked up: a NUL,
    say, would be refused by PostgreSQL)."""
    return _DESIGN_ID.fullmatch(design_id) is not None


_VERSION_QUERY = (
    select(func.max(RevisionRow.id), func.count(ReviewRow.id), func.max(ReviewRow.id))
    .select_from(RevisionRow)
    .outerjoin(ReviewRow, ReviewRow.revision_id == RevisionRow.id)
    .where(RevisionRow.design_id == bindparam("design_id"))
)


def design_version(connection: Connection, design_id: str) -> tuple[int, int, int] | None:
    """What changes with every write to a design: its latest revision id, its number of reviews
    and its latest review id (designs are written only by adding those); None for no design.

    A Core query (it reads no ORM objects) outside any transaction: one statement, one round
    trip, since this runs on every read of a design."""
    if not is_design_id(design_id):
        return None
    latest, reviews, last_review = (
        connection.execution_options(isolation_level="AUTOCOMMIT")
        .execute(_VERSION_QUERY, {"design_id": design_id})
        .one()
    )
    if latest is None:
        return None
    return int(latest), int(reviews), int(last_review or 0)


def database_of(engine: Engine) -> str:
    """The database an engine works on, as a URL without its password."""
    return _url_text(engine.url)


@lru_cache(maxsize=16)
def _url_text(url: URL) -> str:
    return url.render_as_string(hide_password=True)


def not_found(design_id: str) -> DesignNotFound:
    if not is_design_id(design_id):
        return DesignNotFound("no design with this id")
    return DesignNotFound(f"no design {design_id!r}")


def get_design(session: Session, design_id: str) -> DesignRow:
    design = session.get(DesignRow, design_id) if is_design_id(design_id) else None
    if design is None:
        raise not_found(design_id)
    return design


def revisions(session: Session, design_id: str) -> Sequence[RevisionRow]:
    return session.scalars(
        select(RevisionRow).where(RevisionRow.design_id == design_id).order_by(RevisionRow.number)
    ).all()


def get_revision(session: Session, design_id: str, number: int) -> RevisionRow:
    get_design(session, design_id)
    revision = session.scalars(
        select(RevisionRow).where(RevisionRow.design_id == design_id, RevisionRow.number == number)
    ).first()
    if revision is None:
        raise DesignNotFound(f"design {design_id!r} has no revision {number}")
    return revision


def add_revision(
    session: Session,
    kb: KnowledgeBase,
    design_id: str,
    edit_token: str | None,
    platform: Platform,
    base_revision: int,
    name: str | None,
    today: dt.date,
    saving: Saving,
) -> RevisionRow:
    design = get_design(session, design_id)
    check_token(edit_token, design.edit_token_hash)
    plan_json, view = plan_of(kb, platform, today)
    latest = _latest_number(session, design_id)
    if base_revision != latest:
        raise StaleRevision(latest)
    require_acknowledged(view, saving.acknowledge_errors, "save")
    revision = _new_revision(
        session, design_id, latest + 1, name or design.name, platform, plan_json, view, saving
    )
    session.add(revision)
    if name:
        design.name = name
    try:
        session.commit()
    except IntegrityError as exc:
        # Someone else added revision latest+1 between our read and our insert.
        session.rollback()
        raise StaleRevision(_latest_number(session, design_id)) from exc
    return revision


def _latest_number(session: Session, design_id: str) -> int:
    latest = session.scalar(
        select(func.max(RevisionRow.number)).where(RevisionRow.design_id == design_id)
    )
    return int(latest or 0)


def approved_bundle(session: Session, revision: RevisionRow) -> ApprovedBundleRow | None:
    return session.get(ApprovedBundleRow, revision.id)


@dataclass(frozen=True)
class DriftResult:
    revision: RevisionRow
    from_as_of: dt.date
    to_kb: str
    to_as_of: dt.date
    changes: list[Change]


def drift(session: Session, kb: KnowledgeBase, design_id: str, today: dt.date) -> DriftResult:
    """Re-plan the latest revision with today's knowledge base. A platform saved with an
    explicit ``as_of`` keeps that date (it asked what was advised then); otherwise the new
    plan is for today, as a fresh plan would be."""
    all_revisions = revisions(session, get_design(session, design_id).id)
    latest = all_revisions[-1]
    saved = PlanView.model_validate_json(latest.plan_json)
    fresh = make_plan(kb, Platform.model_validate_json(latest.platform_json), today)
    changes = diff_plans(saved, fresh, include_plan=False)
    return DriftResult(latest, saved.as_of, fresh.kb_version, fresh.as_of, changes)


def record_as_built(
    session: Session, design_id: str, edit_token: str | None, number: int, report: str
) -> tuple[AsBuiltRow, AsBuiltResult]:
    """Compare a host's verify report with a revision's plan and keep the result."""
    design = get_design(session, design_id)
    check_token(edit_token, design.edit_token_hash)
    revision = get_revision(session, design_id, number)
    result = compare_verify_report(PlanView.model_validate_json(revision.plan_json), report)
    row = AsBuiltRow(
        revision_id=revision.id,
        created_at=utc_now(),
        host=result.host,
        result_json=result.model_dump_json(),
        summary_json=as_built_figures(result).model_dump_json(),
    )
    session.add(row)
    session.commit()
    return row, result


def record_before_audit(
    session: Session,
    run_audit: Callable[[AuditInputs, Platform], AuditReport],
    design_id: str,
    edit_token: str | None,
    number: int,
    label: str,
    inputs: AuditInputs,
) -> tuple[DesignAuditRow, AuditReport]:
    """Audit what runs today against a revision's platform and advice date with ``run_audit``
    (the server's AuditRunner), and keep the report (nasplan.designs.records.slim_report) on
    the design as its "before". Raises Unrecognised for a paste nothing recognises, and what
    ``run_audit`` raises (AuditFailed) when the audit cannot be completed."""
    design = get_design(session, design_id)
    check_token(edit_token, design.edit_token_hash)
    revision = get_revision(session, design_id, number)
    platform = Platform.model_validate_json(revision.platform_json)
    platform = platform.model_copy(update={"as_of": revision.as_of})
    revision_id = revision.id
    # The reads end their transaction here: nothing is held open while the audit runs.
    session.rollback()
    report = slim_report(run_audit(inputs, platform))
    row = DesignAuditRow(
        revision_id=revision_id,
        created_at=utc_now(),
        label=label,
        report_json=report.model_dump_json(),
        summary_json=audit_figures(report).model_dump_json(),
    )
    session.add(row)
    session.commit()
    return row, report

"""The files of a saved revision: a pure function of what the revision stored.

A revision's bundle and runbook are rendered from its stored plan, the name it had when it was
saved, the permalink base fixed when it was saved, and its approval. Nothing of the design as it
is now (a later name, the host a download or an approval came to) reaches them, so every
download of an unapproved revision has the same bytes and digest. Once a revision is approved,
the approved zip itself is stored and every later download returns those bytes, whatever
changes in nasplan or its knowledge base afterwards.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass

from nasplan.data.models import RevisionRow
from nasplan.renderers.bundle import bundle_digest, bundle_root, render_bundle_files, write_zip
from nasplan.renderers.common import Approval, BundleMeta
from nasplan.renderers.plan_view import PlanView

_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?")


def allowed_hosts(setting: str) -> frozenset[str]:
    """The host[:port] names of NASPLAN_ALLOWED_HOSTS, lower-cased."""
    return frozenset(entry.strip().lower() for entry in setting.split(",") if entry.strip())


def link_base(
    public_url: str | None, scheme: str, host: str | None, allowed: frozenset[str]
) -> str | None:
    """The permalink base a revision saved now keeps: the configured public URL, else the scheme
    and host the request came to when that host is on the allow-list, else none.

    Called only when a revision is saved, never when its files are rendered: the Host header is
    the client's to choose, and a base taken from a downloader's request would make each
    download's files, and so the digest an approval records, depend on who asked."""
    if public_url:
        return public_url.rstrip("/")
    if scheme not in ("http", "https") or not host or not _HOST.fullmatch(host):
        return None
    name = host.lower()
    return f"{scheme}://{name}" if name in allowed else None


def revision_meta(design_id: str, revision: RevisionRow, approval: Approval | None) -> BundleMeta:
    base = revision.link_base
    return BundleMeta(
        design_id=design_id,
        design_name=revision.name,
        revision=revision.number,
        permalink=f"{base}/d/{design_id}/r/{revision.number}" if base else None,
        approval=approval,
    )


@dataclass(frozen=True)
class RenderedBundle:
    files: dict[str, str]
    digest: str
    zip: bytes
    filename: str


def render_revision_bundle(
    design_id: str, revision: RevisionRow, approval: Approval | None
) -> RenderedBundle:
    plan = PlanView.model_validate_json(revision.plan_json)
    meta = revision_meta(design_id, revision, approval)
    files = render_bundle_files(plan, meta)
    root = bundle_root(plan)
    return RenderedBundle(
        files, bundle_digest(files), write_zip(files, root), f"{root}-r{revision.number}.zip"
    )


def zip_filename(zip_bytes: bytes, revision: int) -> str:
    """The download name of a stored zip: its root folder's name and the revision, as a draft
    revision's (render_revision_bundle)."""
    return f"{zip_root(zip_bytes)}-r{revision}.zip"


def zip_root(zip_bytes: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        return archive.namelist()[0].split("/", 1)[0]


def read_from_zip(zip_bytes: bytes, path: str) -> str:
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        root = archive.namelist()[0].split("/", 1)[0]
        return archive.read(f"{root}/{path}").decode("utf-8")

"""The config bundle: every file a team needs to carry a plan out, as {path: text}, then a zip.

render_bundle_files(plan, meta) -> {path: text} is pure; write_zip makes the same bytes for the
same files every time (sorted entries, 1980-01-01 timestamps, fixed permissions). README.md's
index of the files (phase, team, what for) is bundle_index's.

MANIFEST.sha256 lists the SHA-256 of every file but itself and the three files people read
first, which say who approved the bundle and so are written after the approval: README.md and
the two runbooks. The runbooks' text without their review lines is covered through
RUNBOOK.sha256 (see review_block). The bundle's digest is the SHA-256 of MANIFEST.sha256: the
value a reviewer approves.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile

from nasplan.domain.plan import Plan
from nasplan.renderers.bundle_index import CHECK_SCRIPT, MANIFEST, RUNBOOK_SUMS, RUNBOOKS, describe
from nasplan.renderers.common import (
    FAMILY_LABELS,
    BundleMeta,
    Facts,
    facts,
    header_lines,
    one_line,
    platform_line,
)
from nasplan.renderers.filer import filer_file
from nasplan.renderers.parts import render_parts
from nasplan.renderers.plan_view import VIEW_ONLY
from nasplan.renderers.review_block import (
    check_script,
    review_status,
    with_review,
)
from nasplan.renderers.runbook import build_runbook, md, runbook_html, runbook_markdown

ZIP_DATE = (1980, 1, 1, 0, 0, 0)
MODE_SCRIPT = 0o100755
MODE_FILE = 0o100644
README = "README.md"
UNSIGNED = frozenset({MANIFEST, README, *RUNBOOKS})
# Entry names are nasplan's own (team folder, file name); nothing else may become one.
_SEGMENT = r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_]+)*"
_ENTRY_NAME = re.compile(rf"{_SEGMENT}(/{_SEGMENT}){{0,3}}")
_ROOT_NAME = re.compile(r"nasplan-[a-z][a-z0-9_]{0,7}")


def _review_lines(f: Facts, digest: str) -> list[str]:
    approval = f.meta.approval
    if approval is not None:
        when = approval.approved_at.strftime("%Y-%m-%d %H:%M UTC")
        return [
            f"**Approved** by {md(one_line(approval.reviewer, 80))} on {when}. Bundle sha256 "
            f"`{digest}`: the digest of MANIFEST.sha256, which covers every other file but the "
            "review lines of this file and of the runbooks (check: `sh verify/check_bundle.sh`).",
        ]
    if f.meta.design_id:
        return [
            f"**Not approved.** Revision {f.meta.revision} of this design has no approval yet: do "
            f"not apply it before a reviewer approves it. Bundle sha256 `{digest}` (the digest "
            "of MANIFEST.sha256; an approval records it).",
        ]
    return [
        f"**Not reviewed**: an unsaved plan. Save it as a design to have it reviewed. Bundle "
        f"sha256 `{digest}` (the digest of MANIFEST.sha256).",
    ]


def _sums(files: dict[str, str]) -> str:
    return "".join(
        f"{hashlib.sha256(files[path].encode('utf-8')).hexdigest()}  {path}\n"
        for path in sorted(files)
    )


def manifest(files: dict[str, str]) -> str:
    """``sha256sum`` lines for every file of the bundle that an approval covers."""
    return _sums({path: text for path, text in files.items() if path not in UNSIGNED})


def bundle_digest(files: dict[str, str]) -> str:
    """The SHA-256 of the bundle's MANIFEST.sha256: what a reviewer approves."""
    return hashlib.sha256(files[MANIFEST].encode("utf-8")).hexdigest()


def _readme(f: Facts, paths: list[str], digest: str) -> str:
    lines = ["<!--", *header_lines(f, "Index of this bundle.", []), "-->", ""]
    p = f.plan.platform
    lines += [
        f"# nasplan bundle for {f.db}",
        "",
        f"- Platform: {md(platform_line(f))}",
        f"- Knowledge base release {f.plan.kb_version}, advice as of {f.plan.as_of.isoformat()}",
    ]
    if f.meta.design_name:
        lines.append(f"- Design: {md(one_line(f.meta.design_name, 80))}")
    if f.meta.design_id:
        lines.append(
            f"- Design {f.meta.design_id}"
            + (f", revision {f.meta.revision}" if f.meta.revision is not None else "")
        )
    if f.meta.permalink:
        lines.append(f"- Permalink: <{f.meta.permalink}>")
    lines += ["", *_review_lines(f, digest), ""]
    if f.errors:
        lines += [
            f"**STOP: the plan has {f.errors} error finding(s); do not apply this bundle.** "
            "The scripts refuse `--apply` until the platform is corrected and the bundle "
            "generated again. See RUNBOOK.md, step 1.1.",
            "",
        ]
    lines += [
        "## Order",
        "",
        "1. Prerequisites: read the findings, fill in placeholders, record current values "
        "(filer, database), dry-run the host scripts.",
        "2. Network: switches, then the filer interface, then `host/network.sh --apply`.",
        f"3. Filer: `{filer_file(f)}` on the {FAMILY_LABELS[f.family]}.",
        "4. Host: `host/tuning.sh --apply`, then `host/mounts.sh --apply`"
        + (" (or `ansible/site.yml`)." if f.os == "linux" else "."),
        "5. Oracle: `oracle/alter_system.sql`"
        + (", `oracle/install_oranfstab.sh --apply`" if "oracle/oranfstab" in paths else "")
        + (", `oracle/enable_dnfs.sh --apply`" if "oracle/enable_dnfs.sh" in paths else "")
        + ", then restart the instance"
        + ("s, node by node." if p.oracle.rac else "."),
        "6. Verification: `verify/verify_host.sh`, `verify/verify_oracle.sql`, "
        "`verify/filer_checks.txt`.",
        "7. Rollback, if needed: `rollback/`, newest phase first.",
        "",
        "Scripts change nothing unless given `--apply`, can be run again safely, and keep what "
        f"they replace in {f.state_dir} (host) or beside the file (Oracle).",
        "",
        "## Files",
        "",
        "| file | phase | who | what |",
        "|---|---|---|---|",
    ]
    for path in paths:
        phase, who, what = describe(path)
        lines.append(f"| `{path}` | {phase} | {who} | {md(what)} |")
    return "\n".join(lines) + "\n"


def _plan_json(f: Facts) -> str:
    meta = {
        "generated_by": "nasplan",
        "kb_version": f.plan.kb_version,
        "as_of": f.plan.as_of.isoformat(),
        "design_id": f.meta.design_id,
        "design_name": one_line(f.meta.design_name, 200) if f.meta.design_name else None,
        "revision": f.meta.revision,
        "permalink": f.meta.permalink,
    }
    # The same text as json.dumps({"nasplan": meta, "plan": ...}, indent=2), with the plan
    # written by pydantic's serialiser (five times faster; JSON strings hold no raw newline, so
    # indenting its lines is safe).
    head = json.dumps({"nasplan": meta}, indent=2, ensure_ascii=False)
    plan = f.plan.model_dump_json(indent=2, exclude=set(VIEW_ONLY)).replace("\n", "\n  ")
    return f'{head[:-2]},\n  "plan": {plan}\n}}\n'


def render_bundle_files(plan: Plan, meta: BundleMeta | None = None) -> dict[str, str]:
    meta = meta or BundleMeta()
    # Only README.md may know about the approval: every other file is what was approved.
    signed_meta = meta.model_copy(update={"approval": None})
    f = facts(plan, signed_meta)
    files = render_parts(f)
    files["plan.json"] = _plan_json(f)
    runbook = build_runbook(plan, signed_meta, files)
    files["RUNBOOK.md"] = runbook_markdown(runbook)
    files["RUNBOOK.html"] = runbook_html(runbook)
    files[RUNBOOK_SUMS] = _sums({path: files[path] for path in RUNBOOKS})
    files[CHECK_SCRIPT] = check_script(f)
    files[MANIFEST] = manifest(files)
    digest = bundle_digest(files)
    status = review_status(meta, digest)
    for path in RUNBOOKS:
        files[path] = with_review(path, files[path], status)
    files[README] = _readme(facts(plan, meta), sorted(files), digest)
    for path in files:
        if not _ENTRY_NAME.fullmatch(path):
            raise ValueError(f"not a bundle file name: {path!r}")
    return {path: files[path] for path in sorted(files)}


def is_script(text: str) -> bool:
    return text.startswith("#!")


def bundle_root(plan: Plan) -> str:
    return f"nasplan-{plan.platform.layout.db_name.lower()}"


def bundle_filename(plan: Plan, meta: BundleMeta | None = None) -> str:
    meta = meta or BundleMeta()
    suffix = f"r{meta.revision}" if meta.revision is not None else plan.as_of.isoformat()
    return f"{bundle_root(plan)}-{suffix}.zip"


def write_zip(files: dict[str, str], root: str) -> bytes:
    if not _ROOT_NAME.fullmatch(root):
        raise ValueError(f"not a bundle root name: {root!r}")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            text = files[path]
            info = zipfile.ZipInfo(f"{root}/{path}", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so the permission bits below are honoured
            info.external_attr = (MODE_SCRIPT if is_script(text) else MODE_FILE) << 16
            archive.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


def render_bundle(plan: Plan, meta: BundleMeta | None = None) -> bytes:
    """The zip for a plan: what POST /plans/bundle and a saved revision's bundle return."""
    return write_zip(render_bundle_files(plan, meta), bundle_root(plan))

"""The config bundle: every file a team needs to carry a plan out, as {path: text}, then a zip.

render_bundle_files(plan, meta) -> {path: text} is pure; write_zip makes the same bytes for the
same files every time (sorted entries, 1980-01-01 timestamps, fixed permissions).

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
from nasplan.renderers.review_block import (
    CHECK_SCRIPT,
    RUNBOOK_SUMS,
    RUNBOOKS,
    check_script,
    review_status,
    with_review,
)
from nasplan.renderers.runbook import build_runbook, md, runbook_html, runbook_markdown

ZIP_DATE = (1980, 1, 1, 0, 0, 0)
MODE_SCRIPT = 0o100755
MODE_FILE = 0o100644
MANIFEST = "MANIFEST.sha256"
README = "README.md"
UNSIGNED = frozenset({MANIFEST, README, *RUNBOOKS})
# Entry names are nasplan's own (team folder, file name); nothing else may become one.
_SEGMENT = r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_]+)*"
_ENTRY_NAME = re.compile(rf"{_SEGMENT}(/{_SEGMENT}){{0,3}}")
_ROOT_NAME = re.compile(r"nasplan-[a-z][a-z0-9_]{0,7}")

# (path prefix or name, phase, who, what): the index in README.md, in the order to apply.
_INDEX: list[tuple[str, str, str, str]] = [
    (
        "RUNBOOK.md",
        "all",
        "everyone",
        "the runbook: every step in order, with why, expected "
        "result, what it needs and its risk (RUNBOOK.html prints it)",
    ),
    ("RUNBOOK.html", "all", "everyone", "the same runbook as a printable page"),
    (
        MANIFEST,
        "all",
        "everyone",
        "SHA-256 of every other file but README.md and the runbooks (which say who approved "
        "the bundle): check with sh verify/check_bundle.sh",
    ),
    (
        RUNBOOK_SUMS,
        "all",
        "everyone",
        "SHA-256 of each runbook without its review lines (verify/check_bundle.sh checks it)",
    ),
    (
        CHECK_SCRIPT,
        "all",
        "everyone",
        "checks every file against MANIFEST.sha256 and prints the digest an approval records",
    ),
    ("plan.json", "all", "tools", "the plan itself, with every rule's rationale and sources"),
    (
        "filer/commands.txt",
        "1-3",
        "storage administrator",
        "record the current values, then "
        "interface, volumes, exports and options, as filer console commands",
    ),
    (
        "filer/shares.txt",
        "3",
        "storage administrator",
        "the shares the plan needs (no cited commands for this filer)",
    ),
    (
        "filer/fsx/",
        "3",
        "storage administrator",
        "one aws fsx create-volume --cli-input-json request per volume (FSx for ONTAP)",
    ),
    (
        "filer/anf_volume_group.txt",
        "3",
        "storage administrator",
        "the volumes as one application volume group for Oracle (az rest)",
    ),
    (
        "filer/anf_volume_group.json",
        "3",
        "storage administrator",
        "the request body the az rest line sends",
    ),
    (
        "filer/az_netappfiles.txt",
        "3",
        "storage administrator",
        "the pool and volumes as az netappfiles lines (instead of Terraform)",
    ),
    (
        "filer/gcloud_netapp.txt",
        "3",
        "storage administrator",
        "the pool and volumes as gcloud netapp lines (instead of Terraform)",
    ),
    (
        "terraform/",
        "3",
        "storage administrator",
        "the cloud volumes as Terraform (JSON syntax): terraform init, validate, plan, apply",
    ),
    (
        "host/network.sh",
        "2",
        "Unix administrator",
        "NIC driver settings and the storage interface MTU",
    ),
    ("host/tuning.sh", "4", "Unix administrator", "kernel and TCP settings, persistent"),
    (
        "host/mounts.sh",
        "4",
        "Unix administrator",
        "mount points and mount table entries, then mounts",
    ),
    (
        "host/",
        "2, 4",
        "Unix administrator",
        "the lines those scripts add, in the file's own format, for review or manual use",
    ),
    ("ansible/inventory.ini", "4", "Unix administrator", "the database host(s) for the playbook"),
    (
        "ansible/filer_rollback.yml",
        "7",
        "storage administrator",
        "the filer rollback as a netapp.ontap playbook (the values recorded in phase 1)",
    ),
    (
        "ansible/filer.yml",
        "3",
        "storage administrator",
        "the filer phase as a netapp.ontap playbook (clustered ONTAP)",
    ),
    (
        "ansible/vars/ansible_oracle_dnfs.yml",
        "4",
        "Unix administrator",
        "the Direct NFS mounts as ansible-oracle's orahost_storage role reads them (oradnfs)",
    ),
    ("ansible/", "4", "Unix administrator", "the same host phase as an Ansible playbook (Linux)"),
    ("oracle/capture_before.sql", "1", "DBA", "a copy of the current parameters"),
    ("oracle/alter_system.sql", "5", "DBA", "the parameters as ALTER SYSTEM statements"),
    ("oracle/redo_logs.sql", "5", "DBA", "the planned online redo log sizes (sizing)"),
    ("oracle/init.ora.add", "5", "DBA", "the same parameters in init.ora form"),
    ("oracle/oranfstab", "5", "DBA", "Direct NFS paths and exports"),
    ("oracle/install_oranfstab.sh", "5", "DBA", "installs oranfstab"),
    ("oracle/enable_dnfs.sh", "5", "DBA", "switches Direct NFS on (relink)"),
    (
        "verify/collect.sh",
        "6",
        "Unix administrator",
        "read-only collection for an audit of the host as built (upload it on the audit page)",
    ),
    ("verify/verify_host.sh", "6", "Unix administrator", "read-only host checks: PASS/FAIL"),
    ("verify/verify_oracle.sql", "6", "DBA", "read-only database checks: PASS/FAIL"),
    ("verify/filer_checks.txt", "6", "storage administrator", "what to look at on the filer"),
    (
        "verify/filer_collect.txt",
        "6",
        "storage administrator",
        "read-only filer commands whose output the audit reads (paste it on the audit page)",
    ),
    ("rollback/oracle_rollback.sql", "7", "DBA", "parameters back"),
    ("rollback/oracle_rollback.sh", "7", "DBA", "Direct NFS off, oranfstab back"),
    (
        "rollback/host_rollback.sh",
        "7",
        "Unix administrator",
        "removes nasplan's lines, restores saved values",
    ),
    ("rollback/filer_rollback.txt", "7", "storage administrator", "filer values back"),
]


def _describe(path: str) -> tuple[str, str, str]:
    for prefix, phase, who, what in _INDEX:
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
            return phase, who, what
    return "", "", ""


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
        phase, who, what = _describe(path)
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
    plan = f.plan.model_dump_json(indent=2).replace("\n", "\n  ")
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

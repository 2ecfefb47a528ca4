"""The review status a bundle's runbooks carry at the top, and how it is kept out of what is signed.

An approval records the bundle's digest before anyone approves, so no file the digest covers can
say who approved it. README.md is left out of MANIFEST.sha256 for that reason; the runbooks are
read by people too, so they carry the same status, between two marker lines. RUNBOOK.sha256
(which MANIFEST.sha256 lists) holds each runbook's digest without those lines, and
verify/check_bundle.sh checks both: everything a reviewer approved is covered, and only the
status line is not.
"""

from __future__ import annotations

from markupsafe import escape

from nasplan.renderers.bundle_index import RUNBOOK_SUMS, RUNBOOKS
from nasplan.renderers.common import BundleMeta, Facts, header, one_line
from nasplan.renderers.runbook import md

START = "<!-- review -->"
END = "<!-- /review -->"


def review_status(meta: BundleMeta, digest: str) -> str:
    """One plain line: approved by whom and when, not approved yet, or never reviewed."""
    approval = meta.approval
    if approval is not None:
        when = approval.approved_at.strftime("%Y-%m-%d %H:%M UTC")
        who = one_line(approval.reviewer, 80)
        return f"Approved by {who} on {when}. Bundle sha256 {digest}."
    if meta.design_id:
        return (
            f"Revision {meta.revision} is not approved: do not apply it before a reviewer "
            f"approves it. Bundle sha256 {digest} (what an approval records)."
        )
    return (
        "Not reviewed: an unsaved plan. Save it as a design to have it reviewed. "
        f"Bundle sha256 {digest}."
    )


def with_review(path: str, text: str, status: str) -> str:
    """The runbook with its review lines: under the generator comment in Markdown, first in the
    body in HTML. The status is escaped for the file's language and is one line, so it can
    never be taken for a marker."""
    if path.endswith(".html"):
        block = f'{START}\n<p class="review"><strong>{escape(status)}</strong></p>\n{END}\n'
        head, marker, rest = text.partition("<body>\n")
        if not marker:
            raise ValueError("the HTML runbook has no <body> line")
        return f"{head}{marker}{block}{rest}"
    block = f"{START}\n> **{md(status)}**\n{END}\n"
    first, _, rest = text.partition("\n")
    return f"{first}\n{block}{rest}"


def without_review(text: str) -> str:
    """The runbook as signed: every line between the markers, and the markers, left out (what
    check_bundle.sh does with sed)."""
    kept: list[str] = []
    inside = False
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\n")
        if not inside and bare == START:
            inside = True
        elif inside and bare == END:
            inside = False
        elif not inside:
            kept.append(line)
    return "".join(kept)


def check_script(f: Facts) -> str:
    """verify/check_bundle.sh: every file listed in MANIFEST.sha256, then the runbooks without
    their review lines against RUNBOOK.sha256; prints the digest to compare with the approval."""
    title = "Checks this bundle against the digest a reviewer approved."
    return f"""#!/bin/sh
{header(f, title, [])}
set -eu
cd "$(dirname "$0")/.."
sha256sum -c --strict MANIFEST.sha256
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for runbook in {" ".join(RUNBOOKS)}; do
  sed '\\|^{START}$|,\\|^{END}$|d' "$runbook" > "$work/$runbook"
done
sums=$(pwd)/{RUNBOOK_SUMS}
(cd "$work" && sha256sum -c --strict "$sums")
digest=$(sha256sum MANIFEST.sha256 | cut -d ' ' -f 1)
echo "Bundle sha256 $digest: compare it with the digest the approval recorded."
"""

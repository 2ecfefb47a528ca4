"""Text fields refuse control (Unicode Cc) and format (Cf) characters in the models themselves,
and publish the same rule as a pattern in the OpenAPI schema; multi-line text keeps tab, newline
and carriage return.

The patterns list the code points (no regex engine here reads \\p{Cf}); the first tests tie the
lists to ``unicodedata``, so a new Unicode release with a new format character fails here.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any
from unittest.mock import ANY

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from pydantic import StringConstraints, TypeAdapter, ValidationError

from nasplan.designs.schemas import Comment, DesignName, Reviewer
from nasplan.domain import clean_text as text
from nasplan.domain.platform import EXAMPLE_PLATFORM
from nasplan.knowledge.base import KnowledgeBase
from nasplan.main import create_app
from nasplan.settings import Settings
from tests.conftest import sqlite_settings

CODE_POINTS = [c for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
CONTROL_OR_FORMAT = {c for c in CODE_POINTS if unicodedata.category(chr(c)) in ("Cc", "Cf")}
# Characters the fields must refuse, one of each kind the report named and a few more.
HOSTILE = {
    "next-line U+0085": "\u0085",
    "CSI U+009B": "\u009b",
    "rtl-override U+202E": "\u202e",
    "rtl-isolate U+2067": "\u2067",
    "zero-width-space U+200B": "\u200b",
    "byte-order-mark U+FEFF": "\ufeff",
    "soft-hyphen U+00AD": "\u00ad",
    "tag U+E0041": "\U000e0041",
    "escape U+001B": "\u001b",
}


def _code_points(*groups: tuple[tuple[int, int], ...]) -> set[int]:
    return {c for ranges in groups for low, high in ranges for c in range(low, high + 1)}


def test_the_lists_are_unicode_cc_and_cf() -> None:
    listed = _code_points(text.CONTROL_RANGES, text.FORMAT_RANGES)
    assert sorted(CONTROL_OR_FORMAT - listed) == [], "Cc or Cf missing from the lists"
    # Listed but not Cc or Cf: only code points this Python's Unicode has not assigned yet.
    extra = {c for c in listed - CONTROL_OR_FORMAT if unicodedata.category(chr(c)) != "Cn"}
    assert sorted(extra) == [], f"not Cc or Cf in Unicode {unicodedata.unidata_version}"


def test_a_name_loses_the_spaces_around_it_and_nothing_else() -> None:
    banned = _code_points(text.CONTROL_RANGES, text.FORMAT_RANGES, text.LINE_SEPARATORS)
    spaces = {c for c in CODE_POINTS if chr(c).isspace()} - banned
    assert _code_points(text.SPACE_RANGES) == spaces
    name = TypeAdapter(DesignName)
    for c in spaces:
        assert name.validate_python(f"{chr(c)}x{chr(c)}y{chr(c)}") == f"x{chr(c)}y", hex(c)
    for c in sorted(banned):  # refused, not stripped
        with pytest.raises(ValidationError):
            name.validate_python(f"{chr(c)}x")


PATTERNS = ["one line", "multi-line", "file text"]


def _split(name: str) -> tuple[str, list[int], str]:
    """The pattern, the code points it refuses, and a string of all the others."""
    pattern, groups = {
        "one line": (
            text.ONE_LINE_PATTERN,
            (text.CONTROL_RANGES, text.FORMAT_RANGES, text.LINE_SEPARATORS),
        ),
        "multi-line": (text.MULTI_LINE_PATTERN, (text.MULTI_LINE_CONTROLS, text.FORMAT_RANGES)),
        "file text": (text.FILE_TEXT_PATTERN, (text.MULTI_LINE_CONTROLS,)),
    }[name]
    refused = _code_points(*groups)
    return pattern, sorted(refused), "".join(chr(c) for c in CODE_POINTS if c not in refused)


@pytest.mark.parametrize("name", PATTERNS)
def test_pydantic_python_and_json_schema_read_the_pattern_alike(name: str) -> None:
    """The model (pydantic: Rust regex), schemathesis (Python re, jsonschema-rs) and a JSON Schema
    client (ECMAScript with the u flag) refuse exactly the listed code points, one by one, and
    take every other code point, all in one string."""
    pattern, refused, allowed = _split(name)
    model = TypeAdapter(Annotated[str, StringConstraints(pattern=pattern)])
    compiled = re.compile(pattern)
    schema = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    for c in refused:
        with pytest.raises(ValidationError):
            model.validate_python(f"a{chr(c)}b")
        assert not compiled.fullmatch(f"a{chr(c)}b"), hex(c)
        assert not schema.is_valid(f"a{chr(c)}b"), hex(c)
    model.validate_python(allowed)
    assert compiled.fullmatch(allowed)
    assert schema.is_valid(allowed)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_lists_are_javascripts_cc_and_cf() -> None:
    """Node carries a newer Unicode than this Python, maybe: its Cc and Cf must be listed too."""
    script = """
const found = [];
for (let c = 0; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  if (/[\\p{Cc}\\p{Cf}]/u.test(String.fromCodePoint(c))) found.push(c);
}
console.log(JSON.stringify(found));
"""
    answer = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    found = set(json.loads(answer.stdout))
    assert found >= CONTROL_OR_FORMAT  # what this Python's Unicode knows, at least
    assert sorted(found - _code_points(text.CONTROL_RANGES, text.FORMAT_RANGES)) == []


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("name", PATTERNS)
def test_javascript_reads_the_pattern_alike(name: str, tmp_path: Path) -> None:
    pattern, refused, allowed = _split(name)
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"pattern": pattern, "refused": refused, "allowed": allowed}))
    script = """
const {pattern, refused, allowed} = JSON.parse(require("fs").readFileSync(process.argv[1]));
const re = new RegExp(pattern, "u");
const taken = refused.filter((c) => re.test("a" + String.fromCodePoint(c) + "b"));
console.log(JSON.stringify({taken, allowed: re.test(allowed)}));
"""
    answer = subprocess.run(
        ["node", "-e", script, str(cases)], capture_output=True, text=True, check=True
    )
    assert json.loads(answer.stdout) == {"taken": [], "allowed": True}


def test_multi_line_text_keeps_tab_newline_and_carriage_return() -> None:
    comment = TypeAdapter(Annotated[str, StringConstraints(pattern=text.MULTI_LINE_PATTERN)])
    assert comment.validate_python("line 1\r\n\tline 2\nZoë 😀") == "line 1\r\n\tline 2\nZoë 😀"
    one_line = TypeAdapter(Annotated[str, StringConstraints(pattern=text.ONE_LINE_PATTERN)])
    for char in "\t\n\r\u2028":
        with pytest.raises(ValidationError):
            one_line.validate_python(f"a{char}b")


# ------------------------------------------------------------------ through the API
@pytest.fixture(scope="module")
def api(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = sqlite_settings(tmp_path_factory.mktemp("text"))
    # Without rate limits (rate_limit_compute is newer than this test).
    fields = ("rate_limit_writes", "rate_limit_compute")
    limits: dict[str, Any] = {f: "" for f in fields if f in Settings.model_fields}
    with TestClient(create_app(settings.model_copy(update=limits), kb=kb)) as client:
        yield client


@pytest.fixture(scope="module")
def design(api: TestClient) -> dict[str, Any]:
    created = api.post("/api/v1/designs", json={"name": "text", "platform": EXAMPLE_PLATFORM})
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return body


def _refused(response: Any, loc: list[str | int], char: str | None = None) -> None:
    """A 422 naming the field and, when given, the character and where it is."""
    assert response.status_code == 422, response.text[:300]
    messages = {tuple(d["loc"]): d["msg"] for d in response.json()["detail"]}
    assert tuple(loc) in messages, response.text[:300]
    if char is not None:
        code = f"U+{ord(char):04X}"
        assert re.match(
            rf"(control|format) character {re.escape(code)} at position \d+: ", messages[tuple(loc)]
        )


@pytest.mark.parametrize("char", HOSTILE.values(), ids=HOSTILE.keys())
def test_design_name_and_rename(api: TestClient, design: dict[str, Any], char: str) -> None:
    name = f"PROD{char}move"
    _refused(
        api.post("/api/v1/designs", json={"name": name, "platform": EXAMPLE_PLATFORM}),
        ["body", "name"],
        char,
    )
    rename = api.post(
        f"/api/v1/designs/{design['id']}/revisions",
        json={"platform": EXAMPLE_PLATFORM, "base_revision": 1, "name": name},
        headers={"X-Edit-Token": design["edit_token"]},
    )
    _refused(rename, ["body", "name"], char)


@pytest.mark.parametrize("char", HOSTILE.values(), ids=HOSTILE.keys())
def test_reviewer_and_comment(api: TestClient, design: dict[str, Any], char: str) -> None:
    url = f"/api/v1/designs/{design['id']}/reviews"
    headers = {"X-Review-Token": design["review_token"]}
    review = {"revision": 1, "reviewer": "storage team", "decision": "comment", "comment": "ok"}
    _refused(
        api.post(url, json={**review, "reviewer": f"Ann{char}"}, headers=headers),
        ["body", "reviewer"],
        char,
    )
    _refused(
        api.post(url, json={**review, "comment": f"see{char}above"}, headers=headers),
        ["body", "comment"],
        char,
    )


def test_a_comment_keeps_its_lines_and_tabs(api: TestClient, design: dict[str, Any]) -> None:
    comment = "Checked:\n\t- mounts\r\n\t- Zoë's 😀 note"
    review = {"revision": 1, "reviewer": "Zoë", "decision": "comment", "comment": comment}
    answer = api.post(
        f"/api/v1/designs/{design['id']}/reviews",
        json=review,
        headers={"X-Review-Token": design["review_token"]},
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["comment"] == comment


PASTED = "filer01:/vol/prod_data - /u02/oradata/PROD nfs - yes rw,hard"


@pytest.mark.parametrize("char", HOSTILE.values(), ids=HOSTILE.keys())
def test_audit_label(api: TestClient, design: dict[str, Any], char: str) -> None:
    audit = api.post(
        f"/api/v1/designs/{design['id']}/audits",
        json={"revision": 1, "label": f"before{char}", "files": {"vfstab": PASTED}},
        headers={"X-Edit-Token": design["edit_token"]},
    )
    _refused(audit, ["body", "label"], char)


@pytest.mark.parametrize("char", HOSTILE.values(), ids=HOSTILE.keys())
def test_paste_name(api: TestClient, char: str) -> None:
    paste = {"name": f"vfstab{char}", "kind": "vfstab", "text": PASTED}
    _refused(
        api.post("/api/v1/audits", json={"platform": EXAMPLE_PLATFORM, "pastes": [paste]}),
        ["body", "pastes", 0, "name"],
    )


@pytest.mark.parametrize("char", HOSTILE.values(), ids=HOSTILE.keys())
def test_what_if_label(api: TestClient, char: str) -> None:
    variant = {"label": f"dNFS{char}", "patch": {"oracle": {"dnfs": True}}}
    _refused(
        api.post("/api/v1/plans/what-if", json={"base": EXAMPLE_PLATFORM, "variants": [variant]}),
        ["body", "variants", 0, "label"],
        char,
    )


@pytest.mark.parametrize("char", HOSTILE.values(), ids=HOSTILE.keys())
def test_imported_names_reviewers_and_comments(
    api: TestClient, design: dict[str, Any], char: str
) -> None:
    exported = api.get(f"/api/v1/designs/{design['id']}/export").json()
    review = {
        "reviewer": "Ann",
        "decision": "comment",
        "comment": "ok",
        "created_at": exported["exported_at"],
    }
    revision = exported["revisions"][0]
    cases: list[tuple[dict[str, Any], list[str | int]]] = [
        ({**exported, "name": f"copy{char}"}, ["body", "name"]),
        (
            {**exported, "revisions": [{**revision, "name": f"r1{char}"}]},
            ["body", "revisions", 0, "name"],
        ),
        (
            {
                **exported,
                "revisions": [{**revision, "reviews": [{**review, "reviewer": f"A{char}"}]}],
            },
            ["body", "revisions", 0, "reviews", 0, "reviewer"],
        ),
        (
            {
                **exported,
                "revisions": [{**revision, "reviews": [{**review, "comment": f"o{char}k"}]}],
            },
            ["body", "revisions", 0, "reviews", 0, "comment"],
        ),
    ]
    for document, loc in cases:
        _refused(api.post("/api/v1/designs/import", json=document), loc, char)


@pytest.mark.parametrize(
    "value", ["Zoë's 名前 \u2013 migration 😀", "ПРОД / שלום / مرحبا", "Ann-Kathrin O'Neil"]
)
def test_ordinary_text_of_any_script_is_taken(value: str) -> None:
    assert TypeAdapter(DesignName).validate_python(f" {value} ") == value
    assert TypeAdapter(Reviewer).validate_python(value) == value
    assert TypeAdapter(Comment).validate_python(f"{value}\n{value}") == f"{value}\n{value}"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "String should have at least 1 character"),
        ("   ", "needs a character other than spaces"),
        ("\u00a0\u3000", "needs a character other than spaces"),
        (
            "\t",
            "control character U+0009 at position 0: one line of text, without control or "
            "format characters",
        ),
    ],
)
def test_a_name_is_not_only_spaces(api: TestClient, name: str, message: str) -> None:
    answer = api.post("/api/v1/designs", json={"name": name, "platform": EXAMPLE_PLATFORM})
    assert answer.status_code == 422
    assert answer.json()["detail"] == [{"loc": ["body", "name"], "msg": message, "type": ANY}]
    assert not re.fullmatch(text.NON_BLANK_LINE_PATTERN, name)

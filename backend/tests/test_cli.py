from __future__ import annotations

import io
import json
from pathlib import Path

from nasplan.cli import main
from nasplan.domain.platform import EXAMPLE_PLATFORM


def test_plan_text(tmp_path: Path) -> None:
    path = tmp_path / "platform.json"
    path.write_text(json.dumps(EXAMPLE_PLATFORM))
    out = io.StringIO()
    assert main(["plan", str(path), "--as-of", "2005-06-01"], out) == 0
    text = out.getvalue()
    assert "/etc/vfstab" in text and "minra = on" in text


def test_plan_json_and_error_exit(tmp_path: Path) -> None:
    path = tmp_path / "platform.json"
    body = json.loads(json.dumps(EXAMPLE_PLATFORM))
    body["oracle"]["dnfs"] = True
    path.write_text(json.dumps(body))
    out = io.StringIO()
    assert main(["plan", str(path), "--json"], out) == 1
    assert json.loads(out.getvalue())["findings"][0]["severity"] == "error"


def test_bad_platform_names_field(tmp_path: Path) -> None:
    path = tmp_path / "platform.json"
    body = json.loads(json.dumps(EXAMPLE_PLATFORM))
    body["layout"]["filer_host"] = "bad host"
    path.write_text(json.dumps(body))
    assert main(["plan", str(path)], io.StringIO()) == 2


def test_rules_listing() -> None:
    out = io.StringIO()
    assert main(["rules", "--category", "filer"], out) == 0
    assert "NTAP-MINRA-OFF" in out.getvalue()

"""scripts/gen_kb.py loaded as a module for the tests that make scaled knowledge bases."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gen_kb.py"


def load_gen_kb() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_kb", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_kb"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module

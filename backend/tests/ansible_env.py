"""The Ansible release the project pins (lab/requirements-ansible.txt: the `ansible` package,
which bundles netapp.ontap and ansible.posix), in an environment of the backend tests' own
(.venv-ansible at the repository's root, beside the lab's, so that the lab running in the
background never rebuilds it under a test), made with uv on first use."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "lab" / "requirements-ansible.txt"
VENV = ROOT / ".venv-ansible"


def ansible_python() -> Path:
    python = VENV / "bin" / "python"
    stamp = VENV / ".requirements"
    wanted = REQUIREMENTS.read_text()
    if python.exists() and stamp.is_file() and stamp.read_text() == wanted:
        return python
    uv = Path(os.environ.get("NASPLAN_UV", ROOT / ".venv" / "bin" / "uv"))
    subprocess.run([str(uv), "venv", "-q", "--python", "python3", str(VENV)], check=True)
    subprocess.run(
        [str(uv), "pip", "install", "-q", "--python", str(python), "-r", str(REQUIREMENTS)],
        check=True,
    )
    stamp.write_text(wanted)
    return python

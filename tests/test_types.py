"""The code base stays mypy clean: president/, net/ and cli/ as the one package they
install as (tools/typecheck.py; the settings are pyproject.toml's)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_nothing() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it comes with the test extra)")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "typecheck.py")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout

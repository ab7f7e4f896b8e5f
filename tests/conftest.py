"""Shared by every test folder: this folder is on sys.path (tests/rawpeer.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def own_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test's settings, journal and seat claims in a temporary place: none of the
    user's (a language saved by playing made `president replay` answer in Italian)."""
    monkeypatch.setenv("PRESIDENT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PRESIDENT_JOURNAL", str(tmp_path / "journal.sqlite3"))
    monkeypatch.setenv("PRESIDENT_DATA_DIR", str(tmp_path / "data"))

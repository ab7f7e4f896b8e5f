"""Shared fixtures: the extracted template and the catalogs as babel reads them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "extract_messages", ROOT / "tools" / "extract_messages.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def tool() -> ModuleType:
    return load_tool()


@pytest.fixture(scope="session")
def template(tool: ModuleType):
    return tool.extract()

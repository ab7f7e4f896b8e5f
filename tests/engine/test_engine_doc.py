"""rules-docs/engine.md maps every house rule to the function that implements it, and
names only functions that exist."""

from __future__ import annotations

import importlib
import re
from dataclasses import fields
from pathlib import Path

from president.rules import HouseRules

DOC = Path(__file__).resolve().parents[2] / "rules-docs" / "engine.md"
ROW = re.compile(r"^\| `(\w+)` \|(.*)\|(.*)\|$")
# The classes a row may name a method of, by the module that holds them.
CLASSES = {"HouseRules": "rules", "Game": "game", "MoveGenerator": "moves"}


def rule_rows() -> dict[str, str]:
    """Field -> its row's "implemented by" and notes cells."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            rows[match.group(1)] = match.group(2) + " " + match.group(3)
    return rows


def test_every_house_rule_has_its_line() -> None:
    rows = rule_rows()
    assert sorted(rows) == sorted(field.name for field in fields(HouseRules))
    for name, cells in rows.items():
        assert re.search(r"`[\w.]+\.\w+`", cells), name  # each names where it acts


def test_every_function_named_exists() -> None:
    named = set()
    for cells in rule_rows().values():
        named.update(re.findall(r"`(\w+)\.(\w+)`", cells))
    assert named
    for owner, name in sorted(named):
        if owner in CLASSES:
            holder = getattr(importlib.import_module(f"president.{CLASSES[owner]}"), owner)
        else:
            holder = importlib.import_module(f"president.{owner}")
        assert hasattr(holder, name), f"{owner}.{name}"

"""rules-docs/engine.md maps every house rule to the function that implements it, and
names only functions that exist; its random-play example plays every preset to its end."""

from __future__ import annotations

import importlib
import re
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from president.rules import PRESETS, HouseRules
from president.state import Phase

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


def random_play_example() -> str:
    """The random-play example of engine.md's "Driving a session"."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Driving a session", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_random_play_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(random_play_example(), str(DOC), "exec"), {})
    assert capsys.readouterr().out.strip().startswith("(")  # the winners' seats


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_to_its_end_by_the_example_alone(name: str) -> None:
    space: dict[str, Any] = {}
    exec(compile(random_play_example(), str(DOC), "exec"), space)
    rules = PRESETS[name]
    for players in (rules.min_players, rules.max_players):
        state = space["play_randomly"](rules, players, players)
        assert state.phase is Phase.SESSION_OVER and state.winners and state.results


def test_the_example_makes_decrees_where_the_rules_allow() -> None:
    space: dict[str, Any] = {}
    exec(compile(random_play_example(), str(DOC), "exec"), space)
    rules = replace(PRESETS["classic"], decree=True, session_length=6)
    state = space["play_randomly"](rules, 4, 3)
    assert state.phase is Phase.SESSION_OVER and state.decree_hand > 0  # one was made

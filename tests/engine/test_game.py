"""A session's states share one ``Game``, which is all the engine keeps between calls:
no cache lives in a module or is keyed by an object's identity."""

from __future__ import annotations

import ast
import copy
import pickle
from dataclasses import replace
from pathlib import Path

from engine_kit import NAMES

from president.engine import apply, legal_actions, new_session
from president.game import Game
from president.rules import preset
from president.state import Phase, State

ENGINE = Path(__file__).resolve().parents[2] / "president"
MODULES = ("engine.py", "game.py", "moves.py", "trick.py", "combos.py")


def play_a_little(state: State, actions: int = 30) -> State:
    for _ in range(actions):
        seat = next(s for s in state.seats if legal_actions(state, s))
        state, _ = apply(state, legal_actions(state, seat)[0])
    return state


def test_a_session_keeps_one_game_and_a_copy_makes_its_own() -> None:
    state, _ = new_session(preset("bga"), NAMES[:5], 4)
    game = state.game
    later = play_a_little(state)
    assert later.phase is Phase.PLAY and later.game is game and game.rules is state.rules
    assert replace(later, turn=later.turn).game is game
    other = replace(later, rules=preset("classic"))
    assert other.game is not game and other.game.rules is other.rules
    for copied in (pickle.loads(pickle.dumps(later)), copy.deepcopy(later)):
        assert copied == later and copied.game is not game and copied.game.rules == game.rules
        assert legal_actions(copied, copied.turn) == legal_actions(later, later.turn)
    assert isinstance(new_session(preset("bga"), NAMES[:5], 4)[0].game, Game)
    assert new_session(preset("bga"), NAMES[:5], 4)[0].game is not game


def test_no_module_of_president_keys_a_cache_by_identity() -> None:
    """Issue 29: no ``id()`` and no weak-reference mapping in president/*.py (the bots'
    modules have their own test): a cache keyed so answers for a dead object's
    successor at the same address."""
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "id":
                found.append(f"{path.name}:{node.lineno} id()")
            name = node.id if isinstance(node, ast.Name) else (
                node.attr if isinstance(node, ast.Attribute) else "")
            if name.startswith("Weak") or name == "weakref":
                found.append(f"{path.name}:{node.lineno} {name}")
    assert found == []


def test_no_module_level_cache_and_no_identity_keys() -> None:
    """(combos.py interns combos as cards.py interns cards: one object per value.)"""
    for name in MODULES:
        tree = ast.parse((ENGINE / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "id", f"{name}: id() at line {node.lineno}"
            if isinstance(node, ast.Name):
                assert node.id not in ("cache", "lru_cache"), f"{name}: {node.id}"
        if name == "combos.py":
            continue
        for statement in tree.body:  # at module level: no container to fill
            value = getattr(statement, "value", None)
            empty = (isinstance(value, ast.Dict) and not value.keys) or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id in ("dict", "set", "list") and not value.args)
            assert not empty, f"{name}: an empty container at line {statement.lineno}"

"""bench/bench_engine.py's loops run every preset (a bench that breaks on a rule is a
figure nobody gets): a few hands each, listed and decoded actions alike."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from president.rules import PRESETS

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_engine.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_engine_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", [*PRESETS, "runs"])
def test_the_bench_loops_play_every_preset(name: str) -> None:
    bench = _bench()
    rules = bench.bench_rules(name, 2)
    players = max(4, rules.min_players)
    assert bench.engine_loop(rules, players, 7) > 0
    assert bench.decoded_loop(rules, players, 7) > 0


@pytest.mark.parametrize("players", [4, 8])
def test_the_api_floor_plays_the_floors_games(players: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/api_floor.py's loop hands out the engine's objects on the floor loop's games:
    the same choices from the same generator, so the same count of moves."""
    monkeypatch.syspath_prepend(str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("api_floor_under_test",
                                                  BENCH.parent / "api_floor.py")
    assert spec is not None and spec.loader is not None
    api_floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(api_floor)
    bench = _bench()
    rules = bench.bench_rules("classic", 3)
    for seed in (0, 1):
        assert api_floor.api_floor_loop(rules, players, seed) == bench.floor_loop(
            rules, players, seed) > 0

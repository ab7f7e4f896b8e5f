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

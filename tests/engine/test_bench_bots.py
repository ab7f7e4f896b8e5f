"""bench/bench_bots.py plays its matches (the hard bot against the Monte-Carlo baseline
included) and reports a table per setting: a few short sessions, a tiny budget."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_the_bench_plays_hard_against_the_monte_carlo_baseline(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    sys.modules.pop("bench_bots", None)
    import bench_bots  # type: ignore[import-not-found]  (bench/ is not a package)

    assert bench_bots.main(["--match", "hard:mc", "--players", "4", "--preset",
                            "daihinmin_local", "--sessions", "2", "--hands", "1",
                            "--budget-ms", "3"]) == 0
    out = capsys.readouterr().out
    assert "### hard vs mc: 4 players, daihinmin_local, 2 sessions x 1 hands" in out
    assert out.count("\n| hard |") == out.count("\n| mc |") == 1
    assert "paired by deal: hard - mc = " in out


def test_the_paired_gap_compares_the_kinds_on_the_same_deals(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    sys.modules.pop("bench_bots", None)
    import bench_bots

    setting = bench_bots.Setting(4, "classic", ("hard", "mc"), 1, 0.1)

    def session(hard: list[int], mc: list[int]) -> object:
        return bench_bots.SessionResult(places={"hard": hard, "mc": mc})

    # two pairs of deals: hard ahead by one place in the first, by two in the second
    results = [session([1, 3], [2, 4]), session([2, 3], [1, 4]),    # 2.25 vs 2.75
               session([1, 2], [3, 4]), session([1, 2], [3, 4])]    # 1.5 vs 3.5
    gap, half_width = bench_bots.paired_gap(setting, results)
    assert gap == pytest.approx(((2.25 - 2.75) + (1.5 - 3.5)) / 2)
    assert half_width == pytest.approx(1.96 * statistics.stdev([-0.5, -2.0]) / 2 ** 0.5)
    assert bench_bots.paired_gap(setting, results[:1]) == (pytest.approx(float("nan"),
                                                                         nan_ok=True),
                                                           float("inf"))

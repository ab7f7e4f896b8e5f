"""bench/bench_bots.py plays its matches (the hard bot against the Monte-Carlo baseline
included) and reports a table per setting: a few short sessions, a tiny budget."""

from __future__ import annotations

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

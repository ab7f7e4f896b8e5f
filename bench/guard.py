"""The speed guard (not a test): the engine against its floor, and the host's CPU per action.

    python bench/guard.py [--runs 3] [--hands 200] [--actions 3000] [--limit 2.0]

One command for the two figures a change to president/ or net/ reports against the
previous main (``--baseline PATH`` runs another source tree's code too, e.g.
``git archive main | tar -x -C /tmp/base``):

- the engine loop and the floor loop of ``bench_engine.py`` (4 players, classic),
  run in turn ``--runs`` times, the best of each: CPU µs per play or pass and their
  ratio (the engine should stay within ``--limit`` times the floor);
- the host's CPU per accepted action (``profile_host.py --no-profile``: 8 seats, 2
  spectators, the journal on), the best of ``--runs`` runs.

Exit status 1 when the ratio is above ``--limit``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from source_tree import TREE_VARIABLE, use_tree_from_environment

use_tree_from_environment()  # a baseline's run (--tree-run): its code, before anything of ours

from bench_engine import bench_rules, measure  # noqa: E402

HERE = Path(__file__).resolve().parent


def engine_figures(runs: int, hands: int) -> tuple[float, float]:
    """The best engine and floor µs per play or pass over ``runs`` runs in turn."""
    rules = bench_rules("classic", hands)
    best = {"engine": float("inf"), "floor": float("inf")}
    for seed in range(runs):
        for loop in best:
            seconds, moves = measure(loop, 4, rules, seed)
            best[loop] = min(best[loop], seconds / moves * 1e6)
    return best["engine"], best["floor"]


def host_figure(runs: int, actions: int, tree: str | None) -> float:
    """The best host CPU ms per accepted action over ``runs`` runs of profile_host.py."""
    env = {key: value for key, value in os.environ.items() if key != TREE_VARIABLE}
    if tree is not None:
        env[TREE_VARIABLE] = tree
    figures = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, str(HERE / "profile_host.py"), "--no-profile",
             "--actions", str(actions)], env=env, capture_output=True, text=True, check=True)
        line = next(x for x in done.stdout.splitlines() if x.startswith("host CPU"))
        figures.append(float(line.split(":")[1].split()[0]))
    return min(figures)


def report(label: str, args: argparse.Namespace, tree: str | None) -> float:
    """Print one tree's figures; its engine/floor ratio."""
    if tree is None:
        engine, floor = engine_figures(args.runs, args.hands)
    else:  # the engine figures of another tree come from a run of this script in its code
        env = {**os.environ, TREE_VARIABLE: tree}
        done = subprocess.run(
            [sys.executable, __file__, "--tree-run", "--runs", str(args.runs),
             "--hands", str(args.hands)], env=env, capture_output=True, text=True, check=True)
        engine, floor = map(float, done.stdout.split())
    host = host_figure(args.runs, args.actions, tree)
    ratio = engine / floor
    print(f"{label:<9} engine {engine:5.1f} µs, floor {floor:4.1f} µs per play or pass: "
          f"{ratio:.2f}× (limit {args.limit}×); host CPU {host:.3f} ms per accepted action")
    return ratio


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each figure (the best)")
    parser.add_argument("--hands", type=int, default=200, help="hands per engine run")
    parser.add_argument("--actions", type=int, default=3000, help="actions per host run")
    parser.add_argument("--limit", type=float, default=2.0, help="the engine/floor ratio allowed")
    parser.add_argument("--baseline", metavar="PATH", help="another source tree, reported first")
    parser.add_argument("--tree-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.tree_run:
        print(*engine_figures(args.runs, args.hands))
        return 0
    print(f"4 players classic, best of {args.runs} runs; host: 8 seats, 2 spectators, "
          f"journal on, {args.actions} actions")
    if args.baseline:
        report("baseline", args, os.path.abspath(args.baseline))
    ratio = report("this", args, None)
    return 1 if ratio > args.limit else 0


if __name__ == "__main__":
    sys.exit(main())

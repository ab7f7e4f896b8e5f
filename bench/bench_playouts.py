"""The hard bot's playouts per move (not a test): what the engine's speed buys the search.

    python bench/bench_playouts.py [--budget-ms 200] [--moves 40] [--players 4]
        [--preset classic] [--baseline PATH]

One hard bot (seat 0) plays against medium bots until it has made ``--moves``
moves that spent their whole budget (a search that settles early says nothing of the
engine's speed); each of its playouts is counted (``hard.playout``, wrapped here).
Prints the playouts and deals per such move, and the playouts per CPU second over
every searched move. The budget is CPU time, so a loaded machine changes the figures
little. ``--baseline PATH`` runs another source tree's code first (e.g.
``git archive COMMIT | tar -x -C /tmp/base``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import replace

from source_tree import TREE_VARIABLE, use_tree_from_environment

use_tree_from_environment()  # a baseline's run: its code, before anything of ours

from president.bots import hard, make_bot  # noqa: E402
from president.engine import apply, new_session, to_act  # noqa: E402
from president.rules import SessionEnd, preset  # noqa: E402
from president.view import view  # noqa: E402


def playouts_per_move(players: int, preset_name: str, budget: float,
                      moves: int) -> tuple[float, float, float]:
    """The hard bot's mean playouts and deals per move that spent its budget, and its
    playouts per CPU second of search."""
    counted = [0]
    original = hard.playout

    def counting(*args: object) -> int:
        counted[0] += 1
        return original(*args)  # type: ignore[arg-type]

    hard.playout = counting  # type: ignore[assignment]
    rules = replace(preset(preset_name), session_end=SessionEnd.HANDS,
                    session_length=1000)
    names = [f"Bot {seat + 1}" for seat in range(players)]
    bots = [make_bot("hard" if seat == 0 else "medium", seat, budget=budget)
            for seat in range(players)]
    state, _ = new_session(rules, names, 1)
    full = playouts = deals = every = 0
    seconds = 0.0
    while full < moves and (seat := to_act(state)) is not None:
        before = counted[0]
        started = time.process_time()
        action = bots[seat].choose(view(state, seat))
        spent = time.process_time() - started
        if counted[0] > before:
            every += counted[0] - before
            seconds += spent
            if spent >= 0.9 * budget:
                full += 1
                playouts += counted[0] - before
                deals += bots[0].last_deals  # type: ignore[attr-defined]
        state, _ = apply(state, action)
    hard.playout = original
    return playouts / max(full, 1), deals / max(full, 1), every / max(seconds, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--budget-ms", type=float, default=200.0)
    parser.add_argument("--moves", type=int, default=40, help="moves that spent the budget")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--baseline", metavar="PATH", help="another source tree, run first")
    parser.add_argument("--tree-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    settings = [args.players, args.preset, args.budget_ms / 1000, args.moves]
    if args.tree_run:
        print(*playouts_per_move(*settings))
        return
    figures = []
    if args.baseline:
        env = {**os.environ, TREE_VARIABLE: os.path.abspath(args.baseline)}
        done = subprocess.run([sys.executable, __file__, "--tree-run", *sys.argv[1:]], env=env,
                              capture_output=True, text=True, check=True)
        figures.append(("baseline", *map(float, done.stdout.split())))
    figures.append(("this", *playouts_per_move(*settings)))
    for label, playouts, deals, rate in figures:
        print(f"{label:<9} hard bot, {args.players} players {args.preset}, "
              f"{args.budget_ms:.0f} ms: {playouts:6.1f} playouts per move that spent it "
              f"({deals:.1f} deals; {args.moves} moves), {rate:6.0f} playouts per CPU second")


if __name__ == "__main__":
    main()

"""Engine benchmark (not a test): full hands per second of random-bot self-play.

    python bench/bench_engine.py [--hands 200] [--runs 5] [--preset classic] [--profile]

Two loops, each run as one session of ``--hands`` hands (deal, tax, tricks,
readiness), for 4 and 8 players; the median over the runs is printed:

- ``selfplay``: the whole loop ``president selfplay`` runs, random bots seeing
  only their ``view``;
- ``engine``: the bare engine, ``legal_actions`` and ``apply`` only (a random
  legal action of the seat that must act), what a bot's search would drive.

Rates are per second of this process's CPU time (``time.process_time``), so that
other work on a shared machine does not distort them much.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from president.actions import Decree
from president.bots import make_bot
from president.cli.commands.selfplay import bot_seed, play_session
from president.engine import apply, legal_actions, new_session
from president.rules import HouseRules, preset
from president.state import Phase, State


def selfplay_loop(rules: HouseRules, names: list[str], seed: int) -> State:
    bots = [make_bot("random", bot_seed(seed, seat)) for seat in range(len(names))]
    return play_session(rules, names, seed, bots)


def engine_loop(rules: HouseRules, names: list[str], seed: int) -> State:
    """Random legal actions (decrees aside) straight from ``legal_actions`` into ``apply``."""
    state, _ = new_session(rules, names, seed)
    rng = random.Random(seed)
    while state.phase is not Phase.SESSION_OVER:
        if state.phase is Phase.PLAY:
            seat = state.turn
        elif state.phase is Phase.TAX:
            seat = state.tax_due[0].receiver
        else:
            seat = next(s for s in state.seats if s not in state.ready)
        assert seat is not None
        options = [a for a in legal_actions(state, seat) if not isinstance(a, Decree)]
        state, _ = apply(state, rng.choice(options))
    return state


LOOPS: dict[str, Callable[[HouseRules, list[str], int], State]] = {
    "selfplay": selfplay_loop, "engine": engine_loop,
}


def hands_per_second(loop: str, players: int, hands: int, preset_name: str, seed: int) -> float:
    rules = replace(preset(preset_name), session_end="hands", session_length=hands)
    names = [f"Random {seat + 1}" for seat in range(players)]
    start = time.process_time()
    state = LOOPS[loop](rules, names, seed)
    elapsed = time.process_time() - start
    assert state.hand_number == hands
    return hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per run (max 1000)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, nargs="*", default=[4, 8])
    parser.add_argument("--loops", nargs="*", default=list(LOOPS), choices=list(LOOPS))
    parser.add_argument("--profile", action="store_true", help="cProfile one run per size")
    args = parser.parse_args()
    for loop in args.loops:
        for players in args.players:
            if args.profile:
                profiler = cProfile.Profile()
                profiler.runcall(hands_per_second, loop, players, args.hands, args.preset, 0)
                print(f"--- profile, {loop} loop, {players} players, {args.hands} hands")
                pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
                continue
            rates = [
                hands_per_second(loop, players, args.hands, args.preset, seed)
                for seed in range(args.runs)
            ]
            median = statistics.median(rates)
            print(f"{loop:>8} loop, {players} players, preset {args.preset}: {median:8.0f} "
                  f"hands/s of CPU (median of {args.runs} runs of {args.hands} hands; "
                  f"min {min(rates):.0f}, max {max(rates):.0f})")


if __name__ == "__main__":
    main()

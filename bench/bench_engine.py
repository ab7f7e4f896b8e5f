"""Engine benchmark (not a test): full hands per second of random-bot self-play.

    python bench/bench_engine.py [--hands 200] [--runs 5] [--preset classic] [--profile]

Each run plays one session of ``--hands`` hands between random bots (deal, tax,
tricks, readiness: the whole loop ``president selfplay`` runs, bots seeing only
their ``view``) and the median over the runs is printed, for 4 and 8 players.
Rates are per second of this process's CPU time (``time.process_time``), so that
other work on a shared machine does not distort them much.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from dataclasses import replace

from president.bots import make_bot
from president.cli.selfplay import bot_seed, play_session
from president.rules import preset


def hands_per_second(players: int, hands: int, preset_name: str, seed: int) -> float:
    rules = replace(preset(preset_name), session_end="hands", session_length=hands)
    names = [f"Random {seat + 1}" for seat in range(players)]
    bots = [make_bot("random", bot_seed(seed, seat)) for seat in range(players)]
    start = time.process_time()
    state = play_session(rules, names, seed, bots)
    elapsed = time.process_time() - start
    assert state.hand_number == hands
    return hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per run (max 1000)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, nargs="*", default=[4, 8])
    parser.add_argument("--profile", action="store_true", help="cProfile one run per size")
    args = parser.parse_args()
    for players in args.players:
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(hands_per_second, players, args.hands, args.preset, 0)
            print(f"--- profile, {players} players, {args.hands} hands")
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
            continue
        rates = [
            hands_per_second(players, args.hands, args.preset, seed) for seed in range(args.runs)
        ]
        median = statistics.median(rates)
        print(f"{players} players, preset {args.preset}: {median:8.0f} hands/s of CPU "
              f"(median of {args.runs} runs of {args.hands} hands; "
              f"min {min(rates):.0f}, max {max(rates):.0f})")


if __name__ == "__main__":
    main()

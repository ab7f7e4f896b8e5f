"""Machine instructions per play or pass of bench_engine's loops (not a test), counted by
valgrind's cachegrind: steadier than a clock on a shared machine.

    python bench/count_instructions.py [--loops engine floor] [--players 4]
        [--presets classic] [--hands 20 60]

Each loop runs twice under ``valgrind --tool=cachegrind``, for the two session lengths
of ``--hands`` (seed 0: the shorter session is the start of the longer); the difference
of the instructions over the difference of the plays and passes leaves out the start of
Python and the imports.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(loop: str, players: int, preset: str, hands: int) -> None:
    sys.path.insert(0, str(HERE))
    from bench_engine import LOOPS, bench_rules

    print(LOOPS[loop](bench_rules(preset, hands), players, 0))


def count(loop: str, players: int, preset: str, hands: int) -> tuple[int, int]:
    """Instructions and plays or passes of one run under cachegrind."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, __file__, "--child", loop, str(players), preset, str(hands)],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"})  # (string hashes: the same dict layouts)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    assert found, done.stderr
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        loop, players, preset, hands = sys.argv[2:6]
        child(loop, int(players), preset, int(hands))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--loops", nargs="*", default=["engine", "floor"])
    parser.add_argument("--players", type=int, nargs="*", default=[4])
    parser.add_argument("--presets", nargs="*", default=["classic"])
    parser.add_argument("--hands", type=int, nargs=2, default=[20, 60])
    args = parser.parse_args()
    short, long = args.hands
    for players in args.players:
        for preset in args.presets:
            for loop in args.loops:
                if loop == "floor" and preset != args.presets[0]:
                    continue  # the floor knows the classic rules only
                first, moves_first = count(loop, players, preset, short)
                second, moves_second = count(loop, players, preset, long)
                each = (second - first) / (moves_second - moves_first)
                print(f"{players} players  {preset:<10} {loop:<8} {each / 1000:6.1f}k "
                      f"instructions per play or pass ({moves_second - moves_first} of them)")


if __name__ == "__main__":
    main()

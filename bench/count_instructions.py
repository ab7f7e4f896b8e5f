"""Machine instructions per play or pass of bench_engine's loops and api_floor.py's (not a
test), counted by valgrind's cachegrind: steadier than a clock on a shared machine.

    python bench/count_instructions.py [--loops engine floor api_floor] [--players 4]
        [--presets classic] [--hands 20 60] [--caches]

Each loop runs twice under ``valgrind --tool=cachegrind``, for the two session lengths
of ``--hands`` (seed 0: the shorter session is the start of the longer); the difference
of the instructions over the difference of the plays and passes leaves out the start of
Python and the imports. ``--caches`` simulates the caches too (slower) and adds the
first-level misses per play or pass: reads of instructions (I1) and of data (D1), what
makes an instruction of the engine slower than one of the floor.
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
    from api_floor import api_floor_loop
    from bench_engine import LOOPS, bench_rules

    loops = {**LOOPS, "api_floor": api_floor_loop}  # (api_floor.py: classic only)
    print(loops[loop](bench_rules(preset, hands), players, 0))


COUNTED = {"instructions": r"I\s+refs", "I1 misses": r"I1\s+misses",
           "D1 misses": r"D1\s+misses"}  # (cachegrind's summary lines)


def count(loop: str, players: int, preset: str, hands: int,
          caches: bool = False) -> tuple[dict[str, int], int]:
    """Instructions (and with ``caches`` the first-level misses) and plays or passes of
    one run under cachegrind."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", f"--cache-sim={'yes' if caches else 'no'}",
         "--cachegrind-out-file=/dev/null",
         sys.executable, __file__, "--child", loop, str(players), preset, str(hands)],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"})  # (string hashes: the same dict layouts)
    counted = {}
    for name, label in COUNTED.items():
        found = re.search(label + r":\s+([\d,]+)", done.stderr)
        if found:
            counted[name] = int(found.group(1).replace(",", ""))
    assert "instructions" in counted, done.stderr
    return counted, int(done.stdout.split()[-1])


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
    parser.add_argument("--caches", action="store_true", help="add the L1 misses (slower)")
    args = parser.parse_args()
    short, long = args.hands
    for players in args.players:
        for preset in args.presets:
            for loop in args.loops:
                if loop in ("floor", "api_floor") and preset != args.presets[0]:
                    continue  # the floor knows the classic rules only
                first, moves_first = count(loop, players, preset, short, args.caches)
                second, moves_second = count(loop, players, preset, long, args.caches)
                moves = moves_second - moves_first
                each = (second["instructions"] - first["instructions"]) / moves
                misses = "".join(
                    f", {(second[name] - first[name]) / moves:.0f} {name}"
                    for name in COUNTED if name != "instructions" and name in second)
                print(f"{players} players  {preset:<10} {loop:<8} {each / 1000:6.1f}k "
                      f"instructions per play or pass{misses} ({moves} of them)")


if __name__ == "__main__":
    main()

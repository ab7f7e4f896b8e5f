"""Start-up benchmark (not a test): from launching ``president`` to the lobby drawn.

    python bench/bench_start.py [--runs 9] [--python OTHER_VENV_PYTHON ...]

Each run starts a fresh interpreter that imports the lobby's command, builds the
full-screen client on a pipe input and a fixed-size output with the real network bridge
(browsing for tables, on 127.0.0.1 only), and prints the moment the first frame is
rendered; the wall time from spawning the process to that moment is
reported (median and spread of ``--runs``), for this interpreter and for every
``--python`` given (e.g. another checkout's venv, to compare before and after).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

CHILD = r"""
import asyncio, os, tempfile, time
os.environ.setdefault("PRESIDENT_CONFIG_DIR", tempfile.mkdtemp())
os.environ.setdefault("PRESIDENT_DATA_DIR", tempfile.mkdtemp())
os.environ["PRESIDENT_INTERFACES"] = "127.0.0.1"
from president.cli.commands import lobby  # noqa: F401 - what `president` imports first
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from president.cli import netbridge
from president.cli.settings import Settings
from president.cli.terminal.app import PresidentUI


class Sized(DummyOutput):
    def get_size(self):
        return Size(rows=24, columns=80)


async def main():
    with create_pipe_input() as pipe:
        ui = PresidentUI(Settings(name="Bench"), "en", input=pipe, output=Sized(),
                         bridge=netbridge, save_settings=None)
        def drawn(app):
            print("DRAWN", time.time(), flush=True)
            app.exit(result=0)
        ui.app.after_render += drawn
        await ui.run()      # as `president` runs it: the lobby, browsing (on 127.0.0.1)

asyncio.run(main())
"""


def one_run(python: str) -> float:
    began = time.time()
    out = subprocess.run([python, "-c", CHILD], capture_output=True, text=True, timeout=60)
    line = next((x for x in out.stdout.splitlines() if x.startswith("DRAWN")), None)
    if line is None:
        raise SystemExit(f"{python}: no frame drawn\n{out.stderr[-2000:]}")
    return float(line.split()[1]) - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--python", action="append", default=[],
                        help="another interpreter (venv) to measure beside this one")
    args = parser.parse_args()
    pythons = [sys.executable, *args.python]
    times: dict[str, list[float]] = {python: [] for python in pythons}
    for _ in range(args.runs):          # interleaved: the machine's noise hits all alike
        for python in pythons:
            times[python].append(one_run(python))
    print(f"{'interpreter':<48} {'median s':>9} {'min':>6} {'max':>6}")
    for python, seconds in times.items():
        print(f"{python:<48} {statistics.median(seconds):>9.3f} {min(seconds):>6.3f} "
              f"{max(seconds):>6.3f}")


if __name__ == "__main__":
    main()

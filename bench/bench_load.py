"""Open-loop load benchmark of the host (not a test): tables at a fixed pace of actions.

    python bench/bench_load.py [--tables 1,10,50,100,200] [--rate 2] [--seats 4]
                               [--baseline PATH] [--quick]

Every table plays at a fixed pace, as players who think: one action every ``1/rate``
seconds (the seat that may act acts at its slot; a slot whose actor has not yet been
shown the previous action starts late, and is counted), whatever the host's speed. The
host runs in its own process with the journal on (a temporary file); the players are
network clients in ``--procs`` other processes, every seat a client (no host-side
bots), all on 127.0.0.1. Each table first plays a random number of actions as fast
as it can (so that the tables' hands, which started together, end at different times:
the window sees hands end, and with them the journal's checkpoints), then keeps its
pace; after a warm-up, for ``--seconds`` the bench reports per number of tables:

- host CPU per accepted action (the host process's user + system time over the
  window, divided by the actions the tables accepted in it: reading, deciding,
  journaling, encoding and writing included), and of it what the host spends with the
  same players connected but idle (heartbeats: measured for 5 s before play starts);
- latency from sending an action to the moment the last seat of the table has
  received the event it caused: p50, p99 and max, in milliseconds;
- late slots: actions that could not be sent at their slot (the host was behind);
- memory: the host process's resident size, and the client processes' (summed).

``--baseline PATH`` runs every level a second time with the code of the source tree
at PATH (e.g. ``git worktree add --detach /tmp/base main`` or a ``git archive`` of the
commit to compare with), interleaved with this tree's runs, and prints both.
``--quick``: a short window (for a check that it runs, not for figures).
``BENCH_PROFILE=FILE`` with ``--one TABLES`` writes the host process's cProfile stats.
"""

from __future__ import annotations

import os
import sys

from source_tree import TREE_VARIABLE, use_tree_from_environment

use_tree_from_environment()  # before anything of ours is imported (spawned children too)

import argparse  # noqa: E402
import asyncio  # noqa: E402
import dataclasses  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from multiprocessing.connection import Connection  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from president.actions import Decree  # noqa: E402
from president.net.client import Client  # noqa: E402
from president.net.host import Host  # noqa: E402
from president.net.journal import Journal  # noqa: E402
from president.net.limits import Limits  # noqa: E402
from president.net.persist import TableJournal  # noqa: E402
from president.net.session import GameEvent  # noqa: E402
from president.net.table import Table, TableOptions  # noqa: E402
from president.rules import HouseRules  # noqa: E402

LOCAL = "127.0.0.1"
FAST_FORWARD = 120  # at most so many actions at once at a table before its pace starts
IDLE = 5.0          # seconds (a heartbeat period) of host CPU with every player connected, idle


def _rss_mib() -> float:
    """This process's resident memory now (MiB)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _more_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _commands(pipe: Connection) -> asyncio.Queue[Any]:
    """The pipe's messages as an asyncio queue (the loop watches its file descriptor)."""
    queue: asyncio.Queue[Any] = asyncio.Queue()
    asyncio.get_running_loop().add_reader(pipe.fileno(), lambda: queue.put_nowait(pipe.recv()))
    return queue


# ---------------------------------------------------------------- the host process


def host_process(tables: int, seats: int, pipe: Connection) -> None:
    _more_files()

    async def main() -> None:
        with tempfile.TemporaryDirectory() as scratch:
            journal = Journal(Path(scratch) / "journal.sqlite3")
            hook = TableJournal(journal)
            rules = HouseRules(session_end="open")
            played = [Table(TableOptions(table_id=f"t{i}", name=f"T{i}", rules=rules,
                                         seats=seats, seed=i, ready_timeout=0, grace=600),
                            journal=hook) for i in range(tables)]
            wanted = {"per_address": tables * seats + 10, "connections": tables * seats + 100,
                      "handshake_rate": 1e6, "handshake_burst": 1e6}  # every player at once
            known = {f.name for f in dataclasses.fields(Limits)}  # (a baseline's may lack some)
            host = Host(played, limits=Limits(**{k: v for k, v in wanted.items() if k in known}))
            commands = await _commands(pipe)
            pipe.send(await host.start([LOCAL]))
            while (command := await commands.get()) != "stop":
                assert command == "mark"
                pipe.send((_cpu(), sum(t.version for t in played), _rss_mib()))
            await host.stop()
            journal.close()
    profile = os.environ.get("BENCH_PROFILE")  # a file for the host's cProfile stats
    if profile:
        import cProfile
        cProfile.runctx("asyncio.run(main())", globals(), locals(), profile)
    else:
        asyncio.run(main())


# ---------------------------------------------------------------- the players' processes


class PacedTable:
    """A table's clients, one action per slot; latencies of the actions it sent."""

    def __init__(self, port: int, table: int, seats: int, rate: float, seed: int) -> None:
        self.rng = random.Random(seed)
        self.interval = 1.0 / rate
        self.seen = [0] * seats         # events each seat has received
        self.watch: dict[int, list[float]] = {}  # event index -> [sent, seats still to see it]
        self.latencies: list[float] = []
        self.late = self.slots = self.refused = 0
        self.changed = asyncio.Event()
        self.clients = [Client(LOCAL, port, f"c{seat}", table=f"t{table}", reply_timeout=60,
                               timeout=60, reconnect=False, on_event=self._listener(seat))
                        for seat in range(seats)]

    def _listener(self, seat: int) -> Any:
        def on_event(event: Any) -> None:
            if isinstance(event, GameEvent):
                index = self.seen[seat]
                self.seen[seat] = index + 1
                waiting = self.watch.get(index)
                if waiting is not None:
                    waiting[1] -= 1
                    if waiting[1] == 0:
                        self.latencies.append(time.perf_counter() - waiting[0])
                        del self.watch[index]
            self.changed.set()
        return on_event

    def actor(self) -> tuple[Client, Any] | None:
        for client in self.clients:
            view = client.view
            if view is not None:
                legal = [a for a in view.legal if not isinstance(a, Decree)]
                if legal:
                    return client, self.rng.choice(legal)
        return None

    async def next_actor(self, stop: asyncio.Event) -> tuple[Client, Any] | None:
        """Who acts now and how, once a seat has been shown that it may."""
        chosen = self.actor()
        while chosen is None and not stop.is_set():
            self.changed.clear()
            await self.changed.wait()
            chosen = self.actor()
        return chosen

    async def fast_forward(self, actions: int) -> None:
        """Play ``actions`` as fast as the host answers: tables that all started at once
        are then in different places of their hands (their hands end at different times)."""
        never = asyncio.Event()
        for _ in range(actions):
            chosen = await self.next_actor(never)
            assert chosen is not None
            await chosen[0].act(chosen[1])

    async def play(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        slot = loop.time() + self.rng.random() * self.interval
        while not stop.is_set():
            await asyncio.sleep(max(0.0, slot - loop.time()))
            self.slots += 1
            chosen = self.actor()
            if chosen is None:
                self.late += 1
                chosen = await self.next_actor(stop)
                if chosen is None:
                    return
            client, action = chosen
            seat = client.seat
            assert seat is not None
            index = self.seen[seat]
            self.watch[index] = [time.perf_counter(), len(self.clients)]
            reply = await client.act(action)
            if not reply.accepted:
                self.refused += 1
                self.watch.pop(index, None)
            slot = max(slot + self.interval, loop.time())


def players_process(port: int, tables: list[int], seats: int, rate: float,
                    pipe: Connection) -> None:
    _more_files()

    async def main() -> None:
        commands = await _commands(pipe)
        paced = [PacedTable(port, t, seats, rate, seed=t) for t in tables]
        for table in paced:                # one table at a time: seats fill in order
            for client in table.clients:
                await client.connect()
        pipe.send("connected")
        assert await commands.get() == "go"   # the host's idle CPU is measured meanwhile
        await asyncio.gather(*(t.fast_forward(t.rng.randrange(FAST_FORWARD)) for t in paced))
        stop = asyncio.Event()
        playing = [asyncio.ensure_future(t.play(stop)) for t in paced]
        pipe.send("ready")
        while (command := await commands.get()) != "stop":
            if command == "mark":          # the window starts: forget the warm-up
                for table in paced:
                    table.latencies.clear()
                    table.late = table.slots = table.refused = 0
            elif command == "report":
                pipe.send({"latencies": [x for t in paced for x in t.latencies],
                           "late": sum(t.late for t in paced),
                           "slots": sum(t.slots for t in paced),
                           "refused": sum(t.refused for t in paced),
                           "gaps": sum(c.gaps for t in paced for c in t.clients),
                           "rss": _rss_mib()})
        stop.set()
        for table in paced:
            table.changed.set()
        await asyncio.wait(playing, timeout=5)
        for table in paced:
            for client in table.clients:
                await client.close()
    asyncio.run(main())


# ---------------------------------------------------------------- one level


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def run_level(tables: int, seats: int, rate: float, procs: int, warmup: float,
              seconds: float) -> dict[str, Any]:
    """One host with ``tables`` tables and its players; the window's figures."""
    context = multiprocessing.get_context("spawn")
    host_end, host_pipe = context.Pipe()
    host = context.Process(target=host_process, args=(tables, seats, host_pipe))
    host.start()
    players: list[tuple[Any, Connection]] = []
    try:
        port = host_end.recv()
        shares = [list(range(tables))[i::procs] for i in range(min(procs, tables))]
        for share in shares:
            end, pipe = context.Pipe()
            process = context.Process(target=players_process,
                                      args=(port, share, seats, rate, pipe))
            process.start()
            players.append((process, end))
        for _, end in players:
            if end.recv() != "connected":
                raise SystemExit("a players' process did not start")
        host_end.send("mark")       # everyone connected, nobody playing: heartbeats alone
        idle0 = host_end.recv()[0]
        time.sleep(IDLE)
        host_end.send("mark")
        idle1 = host_end.recv()[0]
        for _, end in players:
            end.send("go")
        for _, end in players:
            if end.recv() != "ready":
                raise SystemExit("a players' process did not start")
        time.sleep(warmup)
        host_end.send("mark")
        for _, end in players:
            end.send("mark")
        cpu0, actions0, _ = host_end.recv()
        time.sleep(seconds)
        host_end.send("mark")
        cpu1, actions1, host_rss = host_end.recv()
        reports = []
        for _, end in players:
            end.send("report")
            reports.append(end.recv())
    finally:
        for _, end in players:
            end.send("stop")
        for process, _ in players:
            process.join(timeout=30)
        host_end.send("stop")
        host.join(timeout=30)
        for process in [host] + [p for p, _ in players]:
            if process.is_alive():
                process.terminate()
    latencies = [x * 1000 for report in reports for x in report["latencies"]]
    actions = actions1 - actions0
    import president.net.table as table_module
    return {
        "tables": tables, "actions": actions, "rate": actions / seconds,
        "cpu_ms": (cpu1 - cpu0) / actions * 1000 if actions else float("nan"),
        "idle_ms": (idle1 - idle0) / IDLE * seconds / actions * 1000 if actions else 0.0,
        "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99),
        "max": max(latencies, default=0.0), "samples": len(latencies),
        "late": sum(r["late"] for r in reports), "slots": sum(r["slots"] for r in reports),
        "refused": sum(r["refused"] for r in reports), "gaps": sum(r["gaps"] for r in reports),
        "host_mib": host_rss, "clients_mib": sum(r["rss"] for r in reports),
        "code": str(Path(table_module.__file__).resolve().parent.parent),
    }


# ---------------------------------------------------------------- the whole run


HEADER = (f"{'code':<9} {'tables':>6} {'act/s':>7} {'host CPU/act':>12} {'of it idle':>10} "
          f"{'p50 ms':>7} "
          f"{'p99 ms':>7} {'max ms':>7} {'late':>6} {'host MiB':>8} {'clients MiB':>11}")


def line(name: str, row: dict[str, Any]) -> str:
    late = f"{row['late'] / row['slots']:.0%}" if row["slots"] else "-"
    return (f"{name:<9} {row['tables']:>6} {row['rate']:>7.0f} {row['cpu_ms']:>9.3f} ms "
            f"{row['idle_ms']:>7.3f} ms {row['p50']:>7.2f} {row['p99']:>7.2f} "
            f"{row['max']:>7.1f} {late:>6} {row['host_mib']:>8.0f} {row['clients_mib']:>11.0f}")


def measure(tree: str | None, args: argparse.Namespace, tables: int) -> dict[str, Any]:
    """One level in a fresh interpreter: this tree's code, or ``tree``'s."""
    env = dict(os.environ)
    env.pop(TREE_VARIABLE, None)
    if tree is not None:
        env[TREE_VARIABLE] = str(Path(tree).resolve())
    command = [sys.executable, __file__, "--one", str(tables), "--seats", str(args.seats),
               "--rate", str(args.rate), "--procs", str(args.procs),
               "--warmup", str(args.warmup), "--seconds", str(args.seconds)]
    done = subprocess.run(command, env=env, capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"level {tables} ({tree or 'this tree'}) failed:\n{done.stderr[-3000:]}")
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="1,10,50,100,200",
                        help="the numbers of tables, one run each (comma-separated)")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rate", type=float, default=2.0,
                        help="actions per second at each table")
    parser.add_argument("--procs", type=int, default=2, help="players' processes")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=10.0, help="the measured window")
    parser.add_argument("--baseline", metavar="PATH",
                        help="a source tree of the code to compare with")
    parser.add_argument("--quick", action="store_true", help="a short window")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # one level, as JSON
    args = parser.parse_args(argv)
    if args.quick:
        args.warmup, args.seconds = 1.0, 3.0
    if args.one is not None:
        print(json.dumps(run_level(args.one, args.seats, args.rate, args.procs, args.warmup,
                                   args.seconds)))
        return 0
    print(f"{args.seats} seats a table, {args.rate:g} actions/s a table, journal on; "
          f"{args.warmup:g} s warm-up, {args.seconds:g} s measured; players in "
          f"{args.procs} processes; host CPU = user + system of the host process")
    print(HEADER)
    for tables in (int(x) for x in args.tables.split(",")):
        runs = [("baseline", args.baseline)] if args.baseline else []
        for name, tree in runs + [("this", None)]:
            row = measure(tree, args, tables)
            print(line(name, row), flush=True)
            if row["gaps"] or row["refused"]:
                print(f"          ({row['gaps']} sequence gaps, {row['refused']} refused)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

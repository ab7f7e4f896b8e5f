"""Profile of the host's accepted-action path (not a test), in one process.

    python bench/profile_host.py [--actions 3000] [--seats 8] [--spectators 2] [--top 25]

One table of ``--seats`` players and ``--spectators`` watchers, every one a real
``host.Connection`` (real encoding, real bounded queues) over a writer that only
counts bytes; the journal on (a real ``Journal`` in a temporary directory, with its
default settings). Each step picks a random legal action of a seat that must act
and hands the table its request as the connection task would
(``Table._handle(Command(conn, request))``): decoding aside, that is all the host does
for an accepted action (apply, journal, views, encoding, queueing, the reply).
Choosing the action is not counted.

Prints the host CPU time per accepted action (``time.process_time`` around the
table's handling and the writers' share: joining and sealing what is queued), the
frames and bytes sent per action, and the top of cProfile's listing (cumulative) for
the same path. ``--baseline PATH`` compares with the code of another source tree
(``source_tree.py``), the CPU figure alone.
"""

from __future__ import annotations

import os
import sys

from source_tree import TREE_VARIABLE, use_tree_from_environment

use_tree_from_environment()  # the baseline's run: its code, before anything of ours

import argparse  # noqa: E402
import asyncio  # noqa: E402
import cProfile  # noqa: E402
import dataclasses  # noqa: E402
import io  # noqa: E402
import pstats  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from president import engine  # noqa: E402
from president.actions import Decree  # noqa: E402
from president.net.host import Connection, Host  # noqa: E402
from president.net.journal import Journal  # noqa: E402
from president.net.persist import TableJournal  # noqa: E402
from president.net.protocol import PROTOCOL_VERSION, Hello, action_request  # noqa: E402
from president.net.table import Command, Join, Table, TableOptions  # noqa: E402
from president.rules import HouseRules  # noqa: E402


class CountingTransport:
    def abort(self) -> None:
        pass


class CountingWriter:
    """A ``host.ByteWriter`` that keeps nothing: what would go on the wire is counted."""

    def __init__(self, index: int) -> None:
        self.transport = CountingTransport()
        self.index = index

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 40000 + self.index) if name == "peername" else default

    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        pass


def joining(conn: Connection, name: str, watching: bool) -> Join:
    """What a connection hands its table once its player is in: after the handshake
    (net/pake.py), the channel sealed (net/channel.py); in a tree from before them
    (``--baseline``), after their forerunners."""
    if not hasattr(Hello, "identity"):
        return _joining_unsealed(conn, name, watching)
    from president.net.channel import HOST_RECORD, Sealer
    from president.net.pake import ClientHandshake, HostHandshake, HostKey, HostSecrets
    from president.net.protocol import Proof

    hello = Hello(version=PROTOCOL_VERSION, name=name, language="en", share=bytes(65),
                  seat_hint=None, spectate=watching, table=None)
    client = ClientHandshake(None, hello.identity)
    host = HostHandshake(HostSecrets(HostKey.generate(), None), client.share, hello.identity)
    conn.handshake = host                   # as the host's connection keeps it
    conn.sealer = Sealer(host.keys.host_to_client, HOST_RECORD)
    proof = Proof(proof=client.answer(host.public, host.share))
    return Join(conn, dataclasses.replace(hello, share=client.share), host, proof)


def _joining_unsealed(conn: Connection, name: str, watching: bool) -> Join:
    try:
        from president.net.pake import ClientHandshake, HostHandshake, HostKey, HostSecrets
        from president.net.protocol import Proof
    except ImportError:
        return Join(conn, Hello(version=PROTOCOL_VERSION, name=name,  # type: ignore[call-arg]
                                language="en", token=None, pin=None, spectate=watching,
                                table=None))
    client = ClientHandshake(None)
    host = HostHandshake(HostSecrets(HostKey.generate(), None), client.share)
    conn.handshake = host                   # as the host's connection keeps it
    hello = Hello(version=PROTOCOL_VERSION, name=name, language="en", share=client.share,
                  seat_hint=None, spectate=watching, table=None)
    answer = client.answer(host.public, host.share)
    named = {f.name for f in dataclasses.fields(Proof)}  # one MAC, or the PIN's and a token's
    proof = Proof(proof=answer) if "proof" in named else Proof(pin=answer, token=None)  # type: ignore[call-arg]
    return Join(conn, hello, host, proof)


class Table8:
    """A started table whose every seat and spectator is a real ``Connection``."""

    def __init__(self, seats: int, spectators: int, journal_dir: Path, seed: int) -> None:
        self.journal = Journal(journal_dir / "journal.sqlite3")
        rules = HouseRules(session_end="open")  # hand after hand, as long as asked
        self.table = Table(TableOptions(table_id="t", name="T", rules=rules, seats=seats,
                                        seed=seed, ready_timeout=0, grace=600),
                           journal=TableJournal(self.journal))
        self.host = Host([self.table])
        self.seats: list[Connection] = []
        self.watchers: list[Connection] = []
        for index in range(seats + spectators):
            conn = Connection(self.host, None, CountingWriter(index))  # type: ignore[arg-type]
            conn.hello_seen, conn.table = True, self.table
            watching = index >= seats
            self.table._handle(joining(conn, f"p{index}", watching))
            (self.watchers if watching else self.seats).append(conn)
        self.frames = self.bytes = 0
        self.drain()
        assert self.table.state is not None, "the table did not start"

    def drain(self) -> None:
        """Empty every connection's queue as its writer would (sealing what it writes, in
        a tree that seals), counting the frames and the bytes written."""
        for conn in self.seats + self.watchers:
            frames = []
            while not conn.outgoing.empty():
                data = conn.outgoing.get_nowait()
                if data is not None:
                    frames.append(data)
            if frames:
                records = getattr(conn, "_records", None)
                self.frames += len(frames)
                self.bytes += len(records(frames) if records else b"".join(frames))

    def next_request(self, rng: random.Random, request_id: int) -> Command | None:
        state = self.table.state
        assert state is not None
        for seat in rng.sample(range(len(self.seats)), len(self.seats)):
            legal = [a for a in engine.legal_actions(state, seat) if not isinstance(a, Decree)]
            if legal:
                conn = self.seats[seat]
                conn.inflight += 1
                return Command(conn, action_request(rng.choice(legal), request_id))
        return None


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as scratch:
        bench = Table8(args.seats, args.spectators, Path(scratch), args.seed)
        table = bench.table
        profiler = cProfile.Profile()
        cpu = 0.0
        accepted = 0
        frames_before, bytes_before = bench.frames, bench.bytes
        for request_id in range(1, args.actions + 1):
            command = bench.next_request(rng, request_id)
            if command is None or table.over:
                break
            version = table.version
            began = time.process_time()
            if args.profile:
                profiler.enable()
            table._handle(command)
            bench.drain()           # the writers' share: sealing, in a tree that seals
            if args.profile:
                profiler.disable()
            cpu += time.process_time() - began
            command.conn.done()
            accepted += table.version - version
        bench.journal.close()
    frames, sent = bench.frames - frames_before, bench.bytes - bytes_before
    print(f"{args.seats} seats + {args.spectators} spectators, journal on, "
          f"{accepted} accepted actions{' (profiled)' if args.profile else ''}")
    print(f"host CPU per accepted action: {cpu / accepted * 1e3:.3f} ms")
    print(f"frames per action: {frames / accepted:.1f}, bytes per action: {sent / accepted:.0f}")
    if args.profile:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--no-profile", dest="profile", action="store_false",
                        help="the CPU figure alone (cProfile's own cost inflates it)")
    parser.add_argument("--baseline", metavar="PATH",
                        help="compare with the code of the source tree at PATH: both run "
                             "--rounds times in turn, without cProfile; the best of each")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if args.baseline:
        return compare(args)
    asyncio.run(run(args))
    return 0


def compare(args: argparse.Namespace) -> int:
    """This tree against ``args.baseline``, each run in a fresh interpreter, in turn."""
    figures: dict[str, list[float]] = {"baseline": [], "this": []}
    for _ in range(args.rounds):
        for name, tree in (("baseline", args.baseline), ("this", None)):
            env = {k: v for k, v in os.environ.items() if k != TREE_VARIABLE}
            if tree is not None:
                env[TREE_VARIABLE] = os.path.abspath(tree)
            done = subprocess.run(
                [sys.executable, __file__, "--no-profile", "--actions", str(args.actions),
                 "--seats", str(args.seats), "--spectators", str(args.spectators),
                 "--seed", str(args.seed)], env=env, capture_output=True, text=True,
                check=True)
            line = next(x for x in done.stdout.splitlines() if x.startswith("host CPU"))
            figures[name].append(float(line.split(":")[1].split()[0]))
    print(f"{args.seats} seats + {args.spectators} spectators, journal on, "
          f"{args.actions} actions, {args.rounds} runs each in turn")
    for name, values in figures.items():
        print(f"{name:<9} host CPU per accepted action: best {min(values):.3f} ms, "
              f"median {statistics.median(values):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

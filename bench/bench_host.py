"""Load benchmark of the host (not a test): many tables of bot clients over loopback.

    python bench/bench_host.py --tables 25 --hands 5

The host runs in a child process (its own core when there is one); this
process runs every client, each choosing random legal actions from its view
as fast as the host answers. Reported:

- actions per second accepted by the host, over all tables;
- latency from sending an action to the moment the LAST client of that table
  receives the event it caused (median, p90, p99, max), in milliseconds.

Every seat is a network client (no host-side bots), so every action crosses
the wire. Events reach every seat in the same order, so the i-th event on one
client is the i-th event on the others: that is how an action is matched with
its arrival at each seat.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import time
from typing import Any

from president.actions import Decree, action_to_dict
from president.net.client import Client
from president.net.host import Host
from president.net.limits import Limits
from president.net.protocol import EventUpdate, Message
from president.net.table import Table, TableOptions
from president.rules import HouseRules

LOCAL = "127.0.0.1"


def host_process(tables: int, seats: int, hands: int, ports: Any, done: Any) -> None:
    async def main() -> None:
        rules = HouseRules(session_length=hands)
        host = Host([Table(TableOptions(table_id=f"t{i}", name=f"T{i}", rules=rules,
                                        seats=seats, seed=i, ready_timeout=0, grace=600))
                     for i in range(tables)],
                    limits=Limits(per_address=tables * seats + 10))  # all clients on 127.0.0.1
        ports.put(await host.start([LOCAL]))
        await host.wait_finished()
        await host.stop()
    profile = os.environ.get("BENCH_PROFILE")  # a file for the host's cProfile stats
    if profile:
        import cProfile
        cProfile.runctx("asyncio.run(main())", globals(), locals(), profile)
    else:
        asyncio.run(main())
    done.set()


class TimedClient(Client):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event_times: list[float] = []
        self.events: list[dict[str, Any]] = []

    def _receive(self, msg: Message) -> None:
        if isinstance(msg, EventUpdate):
            self.event_times.append(time.perf_counter())
            self.events.append(msg.event.to_dict())
        super()._receive(msg)


def caused_by(event: dict[str, Any], seat: int, kind: str) -> bool:
    if kind == "give_back":
        return event["type"] == "tax" and event["from"] == seat
    return event["type"] == kind and event.get("seat") == seat


async def player(client: TimedClient, seed: int,
                 samples: list[tuple[float, int]], counts: list[int]) -> None:
    rng = random.Random(seed)
    while client.status != "closed":
        await client.wait_for(lambda c: c.status == "closed" or (
            c.view is not None and any(not isinstance(a, Decree) for a in c.view.legal)), 120)
        if client.status == "closed":
            return
        assert client.view is not None
        action = rng.choice([a for a in client.view.legal if not isinstance(a, Decree)])
        before = len(client.events)
        sent = time.perf_counter()
        reply = await client.act(action)
        if not reply.accepted:
            continue
        counts[0] += 1
        for index in range(before, len(client.events)):
            if caused_by(client.events[index], client.seat, action_to_dict(action)["type"]):
                samples.append((sent, index))
                break


async def table_clients(port: int, table: int, seats: int,
                        latencies: list[float], counts: list[int]) -> None:
    clients = [TimedClient(LOCAL, port, f"c{seat}", table=f"t{table}", reply_timeout=120,
                           timeout=120) for seat in range(seats)]
    for client in clients:
        await client.connect()
    samples: list[list[tuple[float, int]]] = [[] for _ in clients]
    await asyncio.gather(*(player(c, table * 100 + i, samples[i], counts)
                           for i, c in enumerate(clients)))
    if any(c.gaps for c in clients):
        print(f"table {table}: sequence gaps {[c.gaps for c in clients]}", file=sys.stderr)
        return
    for per_client in samples:
        for sent, index in per_client:
            arrivals = [c.event_times[index] for c in clients if index < len(c.event_times)]
            if len(arrivals) == len(clients):
                latencies.append(max(arrivals) - sent)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def drive(port: int, tables: int, seats: int) -> tuple[float, int, list[float]]:
    latencies: list[float] = []
    counts = [0]
    started = time.perf_counter()
    await asyncio.gather(*(table_clients(port, t, seats, latencies, counts)
                           for t in range(tables)))
    return time.perf_counter() - started, counts[0], latencies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--hands", type=int, default=5)
    args = parser.parse_args(argv)
    context = multiprocessing.get_context("spawn")
    ports, done = context.Queue(), context.Event()
    child = context.Process(target=host_process,
                            args=(args.tables, args.seats, args.hands, ports, done))
    child.start()
    try:
        port = ports.get(timeout=60)
        elapsed, actions, latencies = asyncio.run(drive(port, args.tables, args.seats))
    finally:
        child.join(timeout=30)
        if child.is_alive():
            child.terminate()
    ms = [v * 1000 for v in latencies]
    print(f"tables {args.tables} x {args.seats} clients, {args.hands} hands each")
    print(f"accepted actions: {actions} in {elapsed:.2f} s = {actions / elapsed:.0f} actions/s")
    if ms:
        print(f"action -> last seat's event: median {statistics.median(ms):.2f} ms, "
              f"p90 {percentile(ms, 0.9):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
              f"max {max(ms):.2f} ms ({len(ms)} samples)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

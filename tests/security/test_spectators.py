"""Spectators (issue 14, point 4): capped per table, and a crowd of them arriving costs
each peer a bounded number of table-info frames, not one per arrival."""

from __future__ import annotations

import asyncio
import time

import pytest
from netkit import Recorder
from security_kit import LOCAL, run

from president.errors import JoinRefused
from president.net.client import Client
from president.net.host import Host
from president.net.limits import Limits
from president.net.table import Table, TableOptions


def test_spectators_past_the_cap_are_refused() -> None:
    async def scenario() -> tuple[int, str]:
        table = Table(TableOptions(name="Kitchen", seats=4, max_spectators=5))
        host = Host([table], limits=None)
        port = await host.start([LOCAL])
        try:
            watchers = [Client(LOCAL, port, f"W{n}", spectate=True, reconnect=False)
                        for n in range(5)]
            for watcher in watchers:
                await watcher.connect()
            late = Client(LOCAL, port, "Late", spectate=True, reconnect=False)
            try:
                await late.connect()
                code = "joined"
            except JoinRefused as refusal:
                code = refusal.code
            return len(table.spectators), code
        finally:
            await host.stop()

    assert run(scenario()) == (5, "spectators_full")


@pytest.mark.slow
def test_a_crowd_of_spectators_costs_each_peer_a_few_table_frames() -> None:
    interval = 0.5

    async def scenario() -> tuple[int, float, int]:
        table = Table(TableOptions(name="Kitchen", seats=4, max_spectators=64,
                                   info_interval=interval))
        host = Host([table], limits=Limits(per_address=100))   # one address, a crowd
        port = await host.start([LOCAL])
        try:
            ann = Recorder(LOCAL, port, "Ann", reconnect=False)
            await ann.connect()
            await asyncio.sleep(interval)
            before = sum(m["type"] == "table" for m in ann.frames)
            began = time.monotonic()
            crowd = [Client(LOCAL, port, f"W{n}", spectate=True, reconnect=False)
                     for n in range(40)]
            await asyncio.gather(*(watcher.connect() for watcher in crowd))
            elapsed = time.monotonic() - began
            await asyncio.sleep(2 * interval)                  # the last update arrives
            frames = sum(m["type"] == "table" for m in ann.frames) - before
            last = [m for m in ann.frames if m["type"] == "table"][-1]["table"]["spectators"]
            return frames, elapsed, last
        finally:
            await host.stop()

    frames, elapsed, spectators = run(scenario())
    assert spectators == 40                              # the count arrives in the end
    assert frames <= 2 + elapsed / interval < 40         # not one frame per arrival

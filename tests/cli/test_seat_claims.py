"""Seat claims on disk: a client that is killed (no goodbye) and started again sits
down in its own seat, as does the same player's second window; leaving for good
forgets the claim. Real host on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import stat
from typing import Any

from president.cli.netbridge import NetConnection
from president.cli.seats import SeatClaim, SeatStore, table_key
from president.net.host import Host
from president.net.session import Joined, JoinFailed
from president.net.table import Table, TableOptions

LOCAL = "127.0.0.1"


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 30))


async def open_table() -> tuple[Host, Table, int]:
    table = Table(TableOptions(name="Kitchen", seats=4, ready_timeout=0, bot_delay=0.0))
    host = Host([table])
    return host, table, await host.start([LOCAL])


async def sit(port: int, name: str, store: SeatStore) -> tuple[NetConnection, list[object]]:
    events: list[object] = []
    connection = NetConnection(LOCAL, port, name, "en", seats=store)
    await connection.start(events.append)
    for _ in range(200):
        if any(isinstance(e, (Joined, JoinFailed)) for e in events):
            break
        await asyncio.sleep(0.01)
    return connection, events


def seat_of(events: list[object]) -> int | None:
    joined = [e for e in events if isinstance(e, Joined)]
    assert joined, events
    return joined[-1].seat


def test_a_killed_client_started_again_sits_in_its_own_seat(tmp_path) -> None:
    store = SeatStore(tmp_path / "president" / "seats.json")

    async def scenario() -> tuple[int | None, int | None, list[str | None], int | None]:
        host, table, port = await open_table()
        try:
            first, events = await sit(port, "Anna", store)
            seat = seat_of(events)
            other, _ = await sit(port, "Bram", SeatStore(tmp_path / "bram.json"))
            # killed: the process is gone, no goodbye (its socket dies with it)
            first._closed = True
            first.client.on_event = lambda event: None
            await first.client.drop()
            again, events = await sit(port, "Anna", store)
            names = [s.name for s in table.seats]
            await again.close()
            await other.close()
            return seat, seat_of(events), names, len(store.all())
        finally:
            await host.stop()

    seat, again, names, left = run(scenario())
    assert seat == again == 0
    assert names.count("Anna") == 1 and "Bram" in names
    assert left == 0          # leaving for good forgot the claim
    mode = stat.S_IMODE(os.stat(tmp_path / "president").st_mode)
    assert mode == 0o700      # a token is as good as the seat: the folder is ours alone


def test_a_claim_the_table_no_longer_knows_is_forgotten_and_the_player_sits_down_anew(
        tmp_path) -> None:
    store = SeatStore(tmp_path / "seats.json")

    async def scenario() -> tuple[int | None, str | None]:
        host, table, port = await open_table()
        try:
            key = table_key(LOCAL, port, None, "Anna")
            store.put(key, SeatClaim("0" * 32, "Anna", "Old", 1e12))
            connection, events = await sit(port, "Anna", store)
            claim = store.get(key)
            await connection.client.drop()
            return seat_of(events), claim.token if claim else None
        finally:
            await host.stop()

    seat, token = run(scenario())
    assert seat == 0 and token is not None and token != "0" * 32

"""Peers that vanish mid-frame, half-open connections (both ends), a stalled sender."""

from __future__ import annotations

import asyncio
import struct

import pytest
from rawpeer import HostHalf
from security_kit import LOCAL, Raw, frame, play_steadily, run, short_rules, wait_until

from president.net.client import Client
from president.net.host import Host
from president.net.pake import token_hint
from president.net.protocol import HOST, PROTOCOL_VERSION, pack
from president.net.table import Table, TableOptions


async def start(**host_options) -> tuple[Host, Table, int]:
    table = Table(TableOptions(seats=3, bots=1, rules=short_rules(hands=2), seed=9,
                               ready_timeout=0, grace=0.05))
    host = Host([table], **host_options)
    return host, table, await host.start([LOCAL])


def test_a_player_vanishing_mid_frame_loses_nothing_and_a_bot_stands_in():
    async def scenario():
        host, table, port = await start()
        ghost = await Raw.open(port)
        welcome = await ghost.hello("ghost")
        ann = Client(LOCAL, port, "ann", reconnect=False)
        await ann.connect()
        await wait_until(lambda: table.started)
        body = pack({"type": "pass", "id": 1}, "client")
        ghost.send_raw(body[:3])          # half a header ...
        await asyncio.sleep(0)
        ghost.send_raw(body[3:6])         # ... and part of the body, then gone
        ghost.abort()
        await wait_until(lambda: table.seats[welcome["seat"]].conn is None)
        await play_steadily(ann)  # the stand-in plays the ghost's seat to the end
        await host.stop()
        return table, ann, welcome["seat"]

    table, ann, seat = run(scenario())
    assert ann.bye.code == "session_over" and table.state.phase.value == "session_over"
    assert table.seats[seat].name == "ghost" and table.seats[seat].standin is not None


@pytest.mark.slow
def test_a_half_open_peer_and_a_slowloris_are_dropped_by_heartbeat():
    async def scenario():
        host, table, port = await start(heartbeat=0.05, timeout=0.3)
        silent = await Raw.open(port)
        await silent.hello("silent")       # seated, then never answers a ping again
        slow = await Raw.open(port)
        slow.send_raw(struct.pack(">I", 200) + b"\x85")  # a frame that never completes
        await wait_until(lambda: table.seats[0].conn is None and len(host.connections) == 0,
                         timeout=10)
        pinged = [m for m in await silent.until_closed() if m["type"] == "ping"]
        await host.stop()
        return table, pinged

    table, pinged = run(scenario())
    assert pinged  # it was asked, it never answered
    assert table.seats[0].conn is None and not table.started
    assert table.seats[0].name is None  # not started: the seat is free again after the grace


@pytest.mark.slow
def test_the_client_leaves_a_host_that_went_silent_and_comes_back_with_its_token():
    """The client's side of a half-open connection: the host stops answering."""
    connections: list[dict] = []

    async def fake_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host = HostHalf(tokens=("ab" * 16,))
        [hello] = host.feed(await reader.read(65536))
        connections.append(hello)
        writer.write(host.challenge(hello))
        [proof] = host.feed(await reader.read(65536))
        connections.append(proof)
        writer.write(host.welcome(_INFO, token="ab" * 16))
        if len(connections) >= 4:
            writer.write(host.seal(pack({"type": "bye", "code": "session_over", "params": {}},
                                        HOST)))
            await writer.drain()
            writer.close()
            return
        await asyncio.sleep(30)  # silent, never closing: half-open as far as the client knows

    async def scenario():
        server = await asyncio.start_server(fake_host, LOCAL, 0)
        port = server.sockets[0].getsockname()[1]
        client = Client(LOCAL, port, "ann", heartbeat=0.1, timeout=1.0)
        await client.connect()
        await client.wait_for(lambda c: c.status == "closed", timeout=20)
        server.close()
        return client

    client = run(scenario())
    hellos = connections[::2]
    assert hellos[0]["seat_hint"] is None
    # it came back with its token as the handshake's password (the host's proof held)
    assert len(hellos) >= 2 and all(h["seat_hint"] == token_hint("ab" * 16) for h in hellos[1:])
    assert client.bye.code == "session_over"


_INFO = {"id": "main", "name": "T", "preset": "classic", "rules": {}, "seats": 3,
         "players": ["ann", None, None], "bots": [False, False, False],
         "connected": [True, False, False], "started": False, "over": False, "pin": False,
         "spectators": 0, "proto": PROTOCOL_VERSION, "turn_timer": 0,
         "states": ["playing", "free", "free"], "standin_hands": [0, 0, 0],
         "seat_requests": [], "late_askers": [], "again": False, "hints": True}


def test_garbage_after_a_good_frame_closes_only_that_connection():
    async def scenario():
        host, table, port = await start()
        # ann first: the bad peer's join fills the table and starts it, so that its seat
        # goes to a stand-in (before the start, the seat would be freed after the grace)
        ann = Client(LOCAL, port, "ann", reconnect=False)
        await ann.connect()
        bad = await Raw.open(port)
        await bad.hello("bad")
        bad.send_raw(frame({"type": "chat", "text": "hi"}) + b"\x00\x00\x00\x03\xc1\xc1\xc1")
        seen = await bad.until_closed()
        await play_steadily(ann)
        await host.stop()
        return seen, ann

    seen, ann = run(scenario())
    assert seen[-1]["type"] == "bye" and seen[-1]["code"] == "bad_msgpack"
    assert ann.bye.code == "session_over"

"""The client against a scripted fake host: heartbeat timeout, reconnect with the token."""

from __future__ import annotations

import asyncio
from typing import Any

from netkit import LOCAL, run

from president.net.client import Client
from president.net.protocol import CLIENT, HOST, PROTOCOL_VERSION, Decoder, encode

TOKEN = "0f" * 16
INFO = {"id": "main", "name": "Fake", "preset": "classic", "rules": {}, "seats": 3,
        "players": ["Ada", None, None], "bots": [False] * 3, "connected": [True, False, False],
        "started": False, "over": False, "pin": False, "spectators": 0,
        "proto": PROTOCOL_VERSION, "turn_timer": 0}


class FakeHost:
    """Answers each hello from a script: ("welcome" | refusal code, then silent or not)."""

    def __init__(self, script: list[str]) -> None:
        self.script = script
        self.hellos: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.serve, LOCAL, 0)
        return self.server.sockets[0].getsockname()[1]

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        decoder = Decoder(CLIENT)
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    return
                for msg in decoder.feed(data):
                    self.received.append(msg)
                    if msg["type"] == "hello":
                        self.hellos.append(msg)
                        answer = self.script.pop(0) if self.script else "welcome"
                        if answer == "welcome":
                            writer.write(encode({"type": "welcome", "version": PROTOCOL_VERSION,
                                                 "seat": 0, "token": TOKEN, "table": INFO},
                                                HOST))
                            writer.write(encode({"type": "table", "table": INFO}, HOST))
                        else:
                            writer.write(encode({"type": "refused", "id": None, "code": answer,
                                                 "params": {}}, HOST))
                            writer.close()
                            return
                    elif msg["type"] == "snapshot_request":
                        writer.write(encode({"type": "bye", "code": "left", "params": {}}, HOST))
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()


def test_a_silent_host_is_dropped_and_the_client_returns_with_its_token():
    async def scenario():
        fake = FakeHost(["welcome", "seat_taken", "welcome"])
        port = await fake.start()
        statuses: list[str] = []
        client = Client(LOCAL, port, "Ada", heartbeat=0.05, timeout=0.3,
                        on_update=lambda kind, p: statuses.append(p["status"])
                        if kind == "status" else None)
        await client.connect()
        # The fake host never pings nor answers: the client times out and reconnects;
        # a transient refusal (seat_taken) is retried.
        await client.wait_for(lambda c: len(fake.hellos) >= 3 and c.status == "connected")
        pings = [m for m in fake.received if m["type"] == "ping"]
        await client.close()
        await fake.stop()
        return fake.hellos, statuses, pings

    hellos, statuses, pings = run(scenario())
    assert hellos[0]["token"] is None
    assert hellos[1]["token"] == TOKEN and hellos[2]["token"] == TOKEN
    assert statuses[:3] == ["connected", "reconnecting", "connected"]
    assert statuses[-1] == "closed"
    assert pings


def test_a_final_refusal_stops_the_reconnecting():
    async def scenario():
        fake = FakeHost(["welcome", "bad_token"])
        port = await fake.start()
        client = Client(LOCAL, port, "Ada", heartbeat=0.05, timeout=0.3)
        await client.connect()
        await client.wait_for(lambda c: c.status == "closed")
        await fake.stop()
        return client, fake

    client, fake = run(scenario())
    assert client.bye == {"code": "bad_token", "params": {}}
    assert len(fake.hellos) == 2


def test_send_action_without_connection_and_after_a_bye():
    async def scenario():
        fake = FakeHost(["welcome"])
        port = await fake.start()
        client = Client(LOCAL, port, "Ada", reconnect=False)
        await client.connect()
        client._send({"type": "snapshot_request"})  # the fake host answers with bye "left"
        await client.wait_for(lambda c: c.status == "closed")
        try:
            await client.send_action({"type": "pass", "seat": 3})
            error = None
        except Exception as caught:  # the error code is what matters
            error = caught
        await fake.stop()
        return client, error

    client, error = run(scenario())
    assert client.bye["code"] == "left"
    assert getattr(error, "code", None) == "not_connected"

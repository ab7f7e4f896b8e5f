"""Helpers for the journal, abuse and failure tests: deterministic bot clients, raw sockets."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import struct
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgpack

from president.actions import action_from_dict
from president.engine import apply, new_session
from president.net.client import Client
from president.net.protocol import CLIENT, HOST, PROTOCOL_VERSION, Decoder, encode
from president.rules import HouseRules, preset
from president.state import Phase
from president.view import view

T = TypeVar("T")
LOCAL = "127.0.0.1"


def run(coroutine: Awaitable[T], timeout: float = 60.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(coroutine, timeout)
    return asyncio.run(bounded())


def short_rules(name: str = "classic", hands: int = 3, **changes: Any) -> HouseRules:
    return HouseRules.from_dict({"session_end": "hands", "session_length": hands, **changes},
                                preset(name))


# ---------------------------------------------------------------- a deterministic player


def my_move(v: dict[str, Any] | None, salt: int = 0) -> dict[str, Any] | None:
    """The move this seat makes now, from its view alone, or None (not its move).

    When several seats may act (tax returns, ready) only the lowest such seat moves,
    so a whole table of these players plays one fixed sequence of actions, however
    the frames are timed, dropped or replayed after a reconnect.
    """
    if v is None or v["seat"] is None:
        return None
    legal = [a for a in v["legal"] if a["type"] != "decree"]
    if not legal:
        return None
    seat = v["seat"]
    if v["phase"] == "tax" and v["tax_pending"] and seat != min(v["tax_pending"]):
        return None
    if v["phase"] == "hand_over":
        waiting = [s for s in range(len(v["players"])) if s not in v["ready"]]
        if seat != min(waiting):
            return None
    digest = hashlib.sha256(json.dumps([salt, v], sort_keys=True).encode()).digest()
    return random.Random(digest).choice(legal)


def uninterrupted(rules: HouseRules, players: list[str], seed: int,
                  salt: int = 0) -> list[dict[str, Any]]:
    """The actions a table of ``my_move`` players takes, straight through the engine."""
    state, _ = new_session(rules, players, seed)
    taken = []
    while state.phase is not Phase.SESSION_OVER:
        moves = [(seat, my_move(view(state, seat).to_dict(), salt)) for seat in state.seats]
        movers = [(seat, move) for seat, move in moves if move is not None]
        assert len(movers) == 1, movers
        seat, move = movers[0]
        action = {**move, "seat": seat}
        state, _ = apply(state, action_from_dict(action))
        taken.append(action)
    return taken


async def play_steadily(client: Client, salt: int = 0,
                        stop: Callable[[Client], bool] = lambda c: False,
                        pause: float = 0.0) -> int:
    """Play ``my_move`` until the client is closed (or ``stop``); the refusals seen.
    ``pause``: seconds to think before each move."""
    refusals = 0

    def ready(c: Client) -> bool:
        return c.status == "closed" or stop(c) or (
            c.status == "connected" and my_move(c.view, salt) is not None)

    while True:
        await client.wait_for(ready, timeout=60)
        if client.status == "closed" or stop(client):
            return refusals
        if pause:
            await asyncio.sleep(pause)
            if client.status != "connected" or my_move(client.view, salt) is None:
                continue
        move = my_move(client.view, salt)
        assert move is not None
        seen = client.view
        try:
            reply = await client.send_action(move, timeout=10)
        except Exception:  # dropped meanwhile: the client reconnects, a snapshot follows
            await asyncio.sleep(0.05)
            continue
        if reply["type"] == "refused":
            refusals += 1
            if client.view is seen:  # nothing new: wait for the next frame
                await client.wait_for(
                    lambda c, seen=seen: c.view is not seen or c.status != "connected",
                    timeout=60)


# ---------------------------------------------------------------- raw sockets


def frame(obj: Any) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def hello(name: str = "Raw", **fields: Any) -> dict[str, Any]:
    return {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "language": "en",
            "token": None, "pin": None, "spectate": False, "table": None, **fields}


class Raw:
    """A bare socket speaking frames: for hostile and stuck peers."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.decoder = Decoder(HOST)
        self.inbox: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int) -> Raw:
        reader, writer = await asyncio.open_connection(LOCAL, port)
        return cls(reader, writer)

    def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(encode(msg, CLIENT))

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    async def hello(self, name: str = "Raw", **fields: Any) -> dict[str, Any]:
        self.send_raw(frame(hello(name, **fields)))
        return await self.receive(lambda m: m["type"] in ("welcome", "refused"))

    async def receive(self, predicate: Callable[[dict[str, Any]], bool],
                      timeout: float = 10.0) -> dict[str, Any]:
        async def reading() -> dict[str, Any]:
            while True:
                for index, msg in enumerate(self.inbox):
                    if predicate(msg):
                        del self.inbox[:index + 1]
                        return msg
                data = await self.reader.read(65536)
                if not data:
                    raise ConnectionResetError("eof")
                self.inbox.extend(self.decoder.feed(data))
        return await asyncio.wait_for(reading(), timeout)

    async def until_closed(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Read until EOF; every message received on the way."""
        async def reading() -> None:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    return
                self.inbox.extend(self.decoder.feed(data))
        try:
            await asyncio.wait_for(reading(), timeout)
        except ConnectionError:
            pass
        return self.inbox

    def abort(self) -> None:
        self.writer.transport.abort()


async def wait_until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    async def polling() -> None:
        while not predicate():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(polling(), timeout)

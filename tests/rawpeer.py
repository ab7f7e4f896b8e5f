"""A bare socket speaking the table protocol's frames: for hostile and stuck peers."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable
from typing import Any

import msgpack

from president.net.protocol import CLIENT, HOST, PROTOCOL_VERSION, Decoder, pack

LOCAL = "127.0.0.1"


def frame(obj: Any) -> bytes:
    """Any object as a frame, unchecked (tests send bad messages too)."""
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def hello(name: str = "Raw", **fields: Any) -> dict[str, Any]:
    return {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "language": "en",
            "token": None, "pin": None, "spectate": False, "table": None, **fields}


class Raw:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.decoder = Decoder(HOST)
        self.inbox: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, **socket_options: Any) -> Raw:
        reader, writer = await asyncio.open_connection(LOCAL, port, **socket_options)
        return cls(reader, writer)

    def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(pack(msg, CLIENT))

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    def send_obj(self, obj: Any) -> None:
        self.send_raw(frame(obj))

    async def hello(self, name: str = "Raw", **fields: Any) -> dict[str, Any]:
        self.send_obj(hello(name, **fields))
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
                self.inbox.extend(self.decoder.feed_maps(data))
        return await asyncio.wait_for(reading(), timeout)

    async def until_closed(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Read until EOF; every message received on the way."""
        async def reading() -> None:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    return
                self.inbox.extend(self.decoder.feed_maps(data))
        try:
            await asyncio.wait_for(reading(), timeout)
        except ConnectionError:
            pass
        return self.inbox

    async def closed(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        """``until_closed``, then close our end too."""
        try:
            return await self.until_closed(timeout)
        finally:
            self.writer.close()

    def abort(self) -> None:
        self.writer.transport.abort()
        self.writer.close()

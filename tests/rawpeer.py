"""A bare socket speaking the table protocol's frames: for hostile and stuck peers."""

from __future__ import annotations

import asyncio
import functools
import struct
from collections.abc import Callable
from typing import Any

import msgpack

from president.net.pake import ClientHandshake, HostHandshake, HostKey, HostSecrets, token_hint
from president.net.protocol import CLIENT, HOST, PROTOCOL_VERSION, Decoder, Hello, Proof, pack
from president.net.table import Join, Peer

LOCAL = "127.0.0.1"


def frame(obj: Any) -> bytes:
    """Any object as a frame, unchecked (tests send bad messages too)."""
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def hello(name: str = "Raw", handshake: ClientHandshake | None = None,
          token: str | None = None, **fields: Any) -> dict[str, Any]:
    """A hello map (``handshake``: whose key share it carries; ``token``: hinted)."""
    share = (handshake or ClientHandshake()).share
    hint = token_hint(token) if token is not None else None
    return {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "language": "en",
            "share": share, "seat_hint": hint, "spectate": False, "table": None, **fields}


def proof(handshake: ClientHandshake, challenge: dict[str, Any]) -> dict[str, Any]:
    """The proof answering ``challenge`` (of the password the handshake was made with)."""
    return {"type": "proof", "proof": handshake.answer(challenge["key"], challenge["share"])}


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

    async def hello(self, name: str = "Raw", pin: str | None = None,
                    token: str | None = None, **fields: Any) -> dict[str, Any]:
        """Join as the real client does (hello, challenge, proof): the welcome or refusal."""
        handshake = ClientHandshake(token if token is not None else pin)
        self.send_obj(hello(name, handshake, token, **fields))
        answer = await self.receive(lambda m: m["type"] in ("challenge", "refused"))
        if answer["type"] == "refused":
            return answer
        self.send(proof(handshake, answer))
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


HOST_KEY = HostKey.generate()


class HostHalf:
    """The host's half of the join handshake, for hosts scripted by a test."""

    def __init__(self, pin: str | None = None, key: HostKey = HOST_KEY,
                 tokens: tuple[str, ...] = ()) -> None:
        self.key, self.pin, self.tokens = key, pin, tokens
        self.handshake: HostHandshake | None = None

    def challenge(self, hello: dict[str, Any]) -> bytes:
        """As a host: the token the hello's hint names is the password, else the PIN."""
        hint = hello["seat_hint"]
        password = next((t for t in self.tokens if token_hint(t) == hint), self.pin)
        self.handshake = HostHandshake(HostSecrets(self.key, password), hello["share"])
        return pack({"type": "challenge", "key": self.handshake.public,
                     "share": self.handshake.share}, HOST)

    def welcome(self, table: dict[str, Any], seat: int | None = 0, token: str | None = None,
                proof: bytes | None = None) -> bytes:
        """The welcome, with the host's proof (or ``proof``)."""
        assert self.handshake is not None
        return pack({"type": "welcome", "version": PROTOCOL_VERSION, "seat": seat,
                     "token": token, "table": table,
                     "proof": self.handshake.proof if proof is None else proof}, HOST)


def proved_join(peer: Peer, hello: Hello, pin: str | None = None) -> Join:
    """What a host's connection hands its table once a client proved ``pin``."""
    host, proof = _proved(pin)
    return Join(peer, hello, host, proof)


@functools.cache
def _proved(pin: str | None) -> tuple[HostHandshake, Proof]:
    """One handshake per PIN, made once (the table only checks its proof)."""
    client = ClientHandshake(pin)
    host = HostHandshake(HostSecrets(HOST_KEY, pin), client.share)
    return host, Proof(proof=client.answer(host.public, host.share))

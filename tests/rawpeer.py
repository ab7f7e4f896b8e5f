"""A bare socket speaking the table protocol's frames: for hostile and stuck peers.

Past the handshake its frames are sealed as a client's are (net/channel.py):
``send``, ``send_obj`` and ``send_raw`` seal what they send once the host has confirmed,
``send_record`` does not (for tests of the records themselves)."""

from __future__ import annotations

import asyncio
import functools
import struct
from collections.abc import Callable
from typing import Any

import msgpack

from president.net.channel import CLIENT_RECORD, HOST_RECORD, Incoming, Sealer
from president.net.pake import (
    PIN,
    SEAT,
    ClientHandshake,
    HostHandshake,
    HostKey,
    HostSecrets,
    token_hint,
)
from president.net.protocol import CLIENT, HOST, PROTOCOL_VERSION, Hello, Proof, pack
from president.net.table import Join, Peer

LOCAL = "127.0.0.1"


def frame(obj: Any) -> bytes:
    """Any object as a frame, unchecked (tests send bad messages too)."""
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def hello(name: str = "Raw", handshake: ClientHandshake | None = None,
          token: str | None = None, **fields: Any) -> dict[str, Any]:
    """A hello map (``handshake``: whose key share it carries; ``token``: hinted)."""
    hint = token_hint(token) if token is not None else None
    msg = {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "language": "en",
           "share": bytes(65), "seat_hint": hint, "spectate": False, "table": None, "knock": False,
           **fields}
    if "share" not in fields:
        msg["share"] = (handshake or client_half(msg)).share
    return msg


def identity(hello_map: dict[str, Any]) -> bytes:
    """The hello's identity in the handshake (``Hello.identity``)."""
    return Hello.from_wire({**hello_map, "share": bytes(65)}).identity


def client_half(hello_map: dict[str, Any], password: str | None = None,
                token: str | None = None) -> ClientHandshake:
    """The client's half of the handshake a hello (without its share yet) starts."""
    secret = token if token is not None else password
    return ClientHandshake(secret, identity(hello_map), SEAT if token is not None else PIN)


def proof(handshake: ClientHandshake, challenge: dict[str, Any]) -> dict[str, Any]:
    """The proof answering ``challenge`` (of the password the handshake was made with)."""
    return {"type": "proof", "proof": handshake.answer(challenge["key"], challenge["share"])}


class ClientChannel:
    """A client's half of the handshake and of the sealed channel, as the real client's:
    ``hello`` and ``proof`` make its frames, ``feed`` reads the host's bytes (its confirm
    seals the channel), ``seal`` what the client sends after."""

    def __init__(self) -> None:
        self.incoming = Incoming(HOST)
        self.sealer: Sealer | None = None
        self.handshake: ClientHandshake | None = None

    def hello(self, name: str = "Raw", pin: str | None = None, token: str | None = None,
              **fields: Any) -> dict[str, Any]:
        msg = hello(name, token=token, **fields, share=bytes(65))
        self.handshake = client_half(msg, pin, token)
        return {**msg, "share": self.handshake.share}

    def proof(self, challenge: dict[str, Any]) -> dict[str, Any]:
        assert self.handshake is not None
        return proof(self.handshake, challenge)

    def seal(self, data: bytes) -> bytes:
        return self.sealer.seal(data) if self.sealer is not None else data

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        while maps := self.incoming.feed_maps(data):
            data = b""
            for msg in maps:
                if msg["type"] == "confirm" and self.handshake is not None \
                        and self.handshake.host_proved(msg["proof"]):
                    keys = self.handshake.keys
                    assert keys is not None
                    self.incoming.seal(keys.host_to_client, HOST_RECORD)
                    self.sealer = Sealer(keys.client_to_host, CLIENT_RECORD)
            got += maps
        return got


class Raw:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.channel = ClientChannel()
        self.inbox: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, **socket_options: Any) -> Raw:
        reader, writer = await asyncio.open_connection(LOCAL, port, **socket_options)
        return cls(reader, writer)

    def send(self, msg: dict[str, Any]) -> None:
        self.send_raw(pack(msg, CLIENT))

    def send_raw(self, data: bytes) -> None:
        """Bytes of frames, sealed once the channel is (as a client's are)."""
        self.writer.write(self.channel.seal(data))

    def send_record(self, data: bytes) -> None:
        """Bytes as they are, never sealed."""
        self.writer.write(data)

    def send_obj(self, obj: Any) -> None:
        self.send_raw(frame(obj))

    async def hello(self, name: str = "Raw", pin: str | None = None,
                    token: str | None = None, **fields: Any) -> dict[str, Any]:
        """Join as the real client does (hello, challenge, proof, the host's confirm): the
        welcome or refusal."""
        self.send_obj(self.channel.hello(name, pin, token, **fields))
        answer = await self.receive(lambda m: m["type"] in ("challenge", "refused"))
        if answer["type"] == "refused":
            return answer
        self.send(self.channel.proof(answer))
        return await self.receive(lambda m: m["type"] in ("welcome", "refused"))

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        """The messages of ``data`` (the host's confirm seals the channel)."""
        return self.channel.feed(data)

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
                self.inbox.extend(self.feed(data))
        return await asyncio.wait_for(reading(), timeout)

    async def until_closed(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Read until EOF; every message received on the way."""
        async def reading() -> None:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    return
                self.inbox.extend(self.feed(data))
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
    """The host's half of the join handshake and of the channel, for hosts scripted by a
    test: ``feed`` reads the client's bytes, ``welcome`` confirms and seals, ``seal``
    seals what the test host sends after."""

    def __init__(self, pin: str | None = None, key: HostKey = HOST_KEY,
                 tokens: tuple[str, ...] = ()) -> None:
        self.key, self.pin, self.tokens = key, pin, tokens
        self.handshake: HostHandshake | None = None
        self.incoming = Incoming(CLIENT)
        self.sealer: Sealer | None = None

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        """The client's messages (sealed once ``welcome`` has confirmed)."""
        got: list[dict[str, Any]] = []
        while maps := self.incoming.feed_maps(data):
            data = b""
            got += maps
        return got

    def challenge(self, hello: dict[str, Any]) -> bytes:
        """As a host: the token the hello's hint names is the password, else the PIN."""
        hint = hello["seat_hint"]
        token = next((t for t in self.tokens if token_hint(t) == hint), None)
        secrets = HostSecrets(self.key, token or self.pin, SEAT if token else PIN)
        self.handshake = HostHandshake(secrets, hello["share"], identity(hello))
        return pack({"type": "challenge", "key": self.handshake.public,
                     "share": self.handshake.share}, HOST)

    def confirm(self, proof: bytes | None = None) -> bytes:
        """The host's confirm (or one with ``proof``); the channel is sealed from then on."""
        assert self.handshake is not None
        keys = self.handshake.keys
        self.incoming.seal(keys.client_to_host, CLIENT_RECORD)
        self.sealer = Sealer(keys.host_to_client, HOST_RECORD)
        return pack({"type": "confirm",
                     "proof": self.handshake.proof if proof is None else proof}, HOST)

    def seal(self, data: bytes) -> bytes:
        assert self.sealer is not None
        return self.sealer.seal(data)

    def welcome(self, table: dict[str, Any], seat: int | None = 0, token: str | None = None,
                proof: bytes | None = None) -> bytes:
        """The confirm (with ``proof`` if given), then the welcome, sealed."""
        confirm = self.confirm(proof)
        return confirm + self.seal(pack({"type": "welcome", "version": PROTOCOL_VERSION,
                                         "seat": seat, "token": token, "table": table}, HOST))


def proved_join(peer: Peer, hello: Hello, pin: str | None = None) -> Join:
    """What a host's connection hands its table once a client proved ``pin``."""
    host, proof = _proved(pin)
    return Join(peer, hello, host, proof)


@functools.cache
def _proved(pin: str | None) -> tuple[HostHandshake, Proof]:
    """One handshake per PIN, made once (the table only checks its proof)."""
    client = ClientHandshake(pin, b"raw")
    host = HostHandshake(HostSecrets(HOST_KEY, pin), client.share, b"raw")
    return host, Proof(proof=client.answer(host.public, host.share))

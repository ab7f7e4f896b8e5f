"""The asyncio client library used by the terminal UI and the plain interface.

Usage::

    client = Client("192.168.1.20", 40123, "Ada", "it", pin=None, token=None,
                    spectate=False, on_update=callback)
    await client.connect()          # JoinRefused(code) if the host says no
    client.seat, client.token       # our seat (None: spectator) and the token to return with
    client.info                     # the table: name, preset, rules, players, seats, ...
    client.view                     # latest View.to_dict() for our seat (None before the deal)
    reply = await client.send_action({"type": "play", "cards": "7C 7D"})
    #   -> {"type": "accepted", ...} or {"type": "refused", "code": "too_low", ...}
    await client.chat("hi")
    await client.close()            # says leave; no reconnect

``on_update(kind, payload)`` is called for every change: ``kind`` is ``state``
(payload: the view), ``event`` (the projected event dict), ``table`` (the info),
``chat`` (seat, name, text), ``status`` ({"status": connected | reconnecting |
closed, "code": ...}). The same pairs are put on ``client.updates`` (an
``asyncio.Queue``; the oldest are dropped when nobody reads it).

A sequence gap (frames the host skipped for a slow reader) triggers a
``snapshot_request``. After a drop the client reconnects by itself with its
token (exponential backoff) until ``bye``, ``close()`` or a final refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections.abc import Callable
from typing import Any

from .errors import ClientError, JoinRefused, ProtocolError
from .protocol import CLIENT, HOST, PROTOCOL_VERSION, Decoder, encode

log = logging.getLogger("president.net.client")

UpdateCallback = Callable[[str, dict[str, Any]], None]

# Refusals that make retrying pointless.
FINAL_REFUSALS = frozenset({"bad_token", "wrong_pin", "table_full", "table_closed",
                            "bad_version", "no_such_table", "session_over"})
# A bye after which the client does not come back.
FINAL_BYES = frozenset({"session_over", "left", "host_stopping", "table_closed"})


class Client:
    def __init__(self, host: str, port: int, name: str, language: str = "en", *,
                 pin: str | None = None, token: str | None = None, spectate: bool = False,
                 table: str | None = None, on_update: UpdateCallback | None = None,
                 reconnect: bool = True, heartbeat: float = 5.0, timeout: float = 20.0,
                 reply_timeout: float = 30.0, updates_max: int = 1000) -> None:
        self.host, self.port = host, port
        self.name, self.language, self.pin = name, language, pin
        self.token, self.spectate, self.table_id = token, spectate, table
        self.on_update = on_update
        self.reconnect, self.heartbeat, self.timeout = reconnect, heartbeat, timeout
        self.reply_timeout = reply_timeout
        self.seat: int | None = None
        self.info: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.status = "new"             # connected, reconnecting, closed
        self.bye: dict[str, Any] | None = None
        self.updates: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue(updates_max)
        self.last_seq = 0
        self.gaps = 0                   # snapshots asked for after a sequence gap
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._writer: asyncio.StreamWriter | None = None
        self._runner: asyncio.Task[None] | None = None
        self._closed = False
        self._resyncing = False
        self._changed = asyncio.Event()

    # ------------------------------------------------------------ public

    async def connect(self) -> dict[str, Any]:
        """Connect and join; returns the welcome. Raises JoinRefused or OSError."""
        reader, writer, welcome = await self._join()
        self._runner = asyncio.get_running_loop().create_task(self._run(reader, writer))
        return welcome

    async def send_action(self, action: dict[str, Any],
                          timeout: float | None = None) -> dict[str, Any]:
        """Send an action (``action_to_dict`` shape, no seat); the host's reply."""
        fields = {k: v for k, v in action.items() if k != "seat"}
        request_id = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            self._send({**fields, "id": request_id})
            return await asyncio.wait_for(future, timeout or self.reply_timeout)
        except TimeoutError:
            raise ClientError("timeout", action=fields.get("type")) from None
        finally:
            self._pending.pop(request_id, None)

    async def start(self) -> dict[str, Any]:
        """Ask the host to start now (empty seats get bots)."""
        return await self.send_action({"type": "start"})

    async def chat(self, text: str) -> None:
        self._send({"type": "chat", "text": text})

    async def wait_for(self, predicate: Callable[[Client], bool], timeout: float = 30.0) -> None:
        """Until ``predicate(self)`` holds (checked after every update)."""
        async def waiting() -> None:
            while not predicate(self):
                self._changed.clear()
                await self._changed.wait()
        await asyncio.wait_for(waiting(), timeout)

    async def close(self) -> None:
        """Leave the table and stop reconnecting."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self._send({"type": "leave"})
            if self._writer is not None:
                await asyncio.wait_for(self._writer.drain(), 2)
        await self._shutdown()

    async def drop(self) -> None:
        """Cut the connection abruptly (as a Wi-Fi blip would); reconnects if enabled."""
        if self._writer is not None:
            self._writer.transport.abort()

    # ------------------------------------------------------------ connection

    async def _join(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, dict[str, Any]]:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        decoder = Decoder(HOST)
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "name": self.name,
                 "language": self.language, "token": self.token, "pin": self.pin,
                 "spectate": self.spectate, "table": self.table_id}
        writer.write(encode(hello, CLIENT))
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    data = await reader.read(65536)
                    if not data:
                        raise ConnectionResetError("closed during handshake")
                    messages = decoder.feed(data)
                    if messages:
                        break
        except BaseException:
            writer.transport.abort()
            raise
        first, rest = messages[0], messages[1:]
        if first["type"] != "welcome":
            writer.transport.abort()
            code = first.get("code", "unexpected") if first["type"] == "refused" else "unexpected"
            raise JoinRefused(code, **first.get("params", {}))
        self.seat, self.token, self.info = first["seat"], first["token"], first["table"]
        self.last_seq, self._resyncing = 0, False
        self._writer = writer
        self._decoder = decoder
        self._set_status("connected")
        self._notify("table", self.info)
        self.bye = None  # here, not in _session: a bye may come in the welcome's read
        for msg in rest:
            self._receive(msg)
        return reader, writer, first

    async def _run(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        delay = 0.1
        while True:
            await self._session(reader, writer)
            self._fail_pending("disconnected")
            if self._closed or not self.reconnect or (
                    self.bye is not None and self.bye["code"] in FINAL_BYES):
                break
            self._set_status("reconnecting")
            while True:
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 5.0)
                if self._closed:
                    return
                try:
                    reader, writer, _ = await self._join()
                    delay = 0.1
                    break
                except JoinRefused as refusal:
                    if refusal.code in FINAL_REFUSALS:
                        self.bye = {"code": refusal.code, "params": refusal.params}
                        self._set_status("closed", refusal.code)
                        return
                except (TimeoutError, OSError, ProtocolError):
                    pass
        self._set_status("closed", self.bye["code"] if self.bye else None)

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pinger = asyncio.get_running_loop().create_task(self._ping(writer))
        try:
            while True:
                async with asyncio.timeout(self.timeout):
                    data = await reader.read(65536)
                if not data:
                    return
                for msg in self._decoder.feed(data):
                    self._receive(msg)
                    if msg["type"] == "bye":
                        return
        except (TimeoutError, OSError, ProtocolError) as error:
            log.info("connection lost: %r", error)
        finally:
            pinger.cancel()
            writer.transport.abort()

    async def _ping(self, writer: asyncio.StreamWriter) -> None:
        for nonce in itertools.count(1):
            await asyncio.sleep(self.heartbeat)
            with contextlib.suppress(Exception):
                writer.write(encode({"type": "ping", "nonce": nonce & 0xFFFFFFFF}, CLIENT))

    async def _shutdown(self) -> None:
        if self._writer is not None:
            self._writer.transport.abort()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        self._fail_pending("closed")
        self._set_status("closed")

    # ------------------------------------------------------------ messages

    def _send(self, msg: dict[str, Any]) -> None:
        if self._writer is None or self._writer.transport.is_closing():
            raise ClientError("not_connected")
        self._writer.write(encode(msg, CLIENT))

    def _receive(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind in ("state", "event"):
            seq = msg["seq"]
            gap = seq != self.last_seq + 1
            self.last_seq = seq
            if kind == "state":
                self._resyncing = False
                self.view = msg["view"]
                self._notify("state", self.view)
                return
            if gap and not self._resyncing:
                self._resyncing = True
                self.gaps += 1
                with contextlib.suppress(ClientError):
                    self._send({"type": "snapshot_request"})
            self._notify("event", msg["event"])
        elif kind in ("accepted", "refused"):
            future = self._pending.get(msg["id"]) if msg["id"] is not None else None
            if future is not None and not future.done():
                future.set_result(msg)
        elif kind == "table":
            self.info = msg["table"]
            self._notify("table", self.info)
        elif kind == "chat":
            self._notify("chat", {k: msg[k] for k in ("seat", "name", "text")})
        elif kind == "ping":
            with contextlib.suppress(ClientError):
                self._send({"type": "pong", "nonce": msg["nonce"]})
        elif kind == "bye":
            self.bye = {"code": msg["code"], "params": msg["params"]}

    def _fail_pending(self, code: str) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ClientError(code))

    def _set_status(self, status: str, code: str | None = None) -> None:
        if status == self.status:
            return
        self.status = status
        self._notify("status", {"status": status, "code": code})

    def _notify(self, kind: str, payload: dict[str, Any]) -> None:
        if self.updates.full():
            self.updates.get_nowait()
        self.updates.put_nowait((kind, payload))
        if self.on_update is not None:
            try:
                self.on_update(kind, payload)
            except Exception:
                log.exception("on_update failed")
        self._changed.set()

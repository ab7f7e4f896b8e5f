"""The asyncio driver of a ``ClientSession``: a link, a reader task, heartbeats, reconnecting.

All protocol decisions (handshake, request ids, sequence gaps, final refusals)
are the session's (``net/session.py``); this module moves bytes and time. The
link is injectable: ``open_link`` returns anything with ``read``, ``write``,
``drain`` and ``abort`` (``TcpLink`` by default; tests pass a fake).

    client = Client("192.168.1.20", 40123, "Ada", "it", on_event=print)
    await client.connect()          # JoinRefused(code) if the host says no
    client.seat, client.table       # our seat (None: watching) and the TableInfo
    client.view                     # the latest View of our seat (None before the deal)
    reply = await client.act(Play(client.seat, parse_cards("7C 7D")))
    reply.accepted, reply.code      # True, None  /  False, "too_low"
    await client.close()            # says leave; no reconnect

``on_event`` receives every session event (``Joined``, ``ViewChanged``,
``GameEvent``, ``TableChanged``, ``ChatReceived``, ``Closed``…) and a
``StatusChanged`` whenever ``status`` changes. After a drop the client comes back
by itself with its token (exponential backoff) until a final bye or refusal, or
``close()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from president.actions import Action
from president.errors import ClientError, JoinRefused, ProtocolError
from president.rules import HouseRules
from president.view import View

from .protocol import (
    AgainRequest,
    Bye,
    DuplicateRequest,
    EndRequest,
    HintRequest,
    Message,
    Reply,
    RulesChange,
    SeatAnswer,
    TableInfo,
)
from .session import (
    ClientSession,
    Joined,
    JoinFailed,
    Replied,
    SessionEvent,
    Status,
)

log = logging.getLogger("president.net.client")

READ_CHUNK = 65536


class Link(Protocol):
    """A byte stream to the host (a TCP connection, or a fake in tests)."""

    async def read(self) -> bytes: ...            # b"": the other side closed
    def write(self, data: bytes) -> None: ...
    async def drain(self) -> None: ...
    def abort(self) -> None: ...


Opener = Callable[[], Awaitable[Link]]


class TcpLink:
    """A ``Link`` over asyncio streams."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host: str, port: int) -> TcpLink:
        return cls(*await asyncio.open_connection(host, port))

    async def read(self) -> bytes:
        return await self.reader.read(READ_CHUNK)

    def write(self, data: bytes) -> None:
        if self.writer.transport.is_closing():
            raise ClientError("not_connected")
        self.writer.write(data)

    async def drain(self) -> None:
        await self.writer.drain()

    def abort(self) -> None:
        self.writer.transport.abort()


@dataclass(frozen=True, slots=True)
class StatusChanged:
    """The client's ``status`` changed; ``code`` says why it closed, when it did."""

    status: Status
    code: str | None = None


ClientEvent = SessionEvent | StatusChanged
EventCallback = Callable[[ClientEvent], None]


class Client:
    def __init__(self, host: str, port: int, name: str, language: str = "en", *,
                 pin: str | None = None, token: str | None = None, spectate: bool = False,
                 knock: bool = False, table: str | None = None, host_key: str | None = None,
                 on_event: EventCallback | None = None,
                 reconnect: bool = True, heartbeat: float = 5.0, timeout: float = 20.0,
                 reply_timeout: float = 30.0, open_link: Opener | None = None) -> None:
        self.host, self.port = host, port
        self.session = ClientSession(name, language, pin=pin, token=token, spectate=spectate,
                                     knock=knock, table_id=table, host_key=host_key)
        self.on_event = on_event
        self.reconnect, self.heartbeat, self.timeout = reconnect, heartbeat, timeout
        self.reply_timeout = reply_timeout
        self.open_link: Opener = open_link or (lambda: TcpLink.open(host, port))
        self._link: Link | None = None
        self._replies: dict[int, asyncio.Future[Reply]] = {}
        self._runner: asyncio.Task[None] | None = None
        self._status = Status.NEW
        self._changed = asyncio.Event()

    # ------------------------------------------------------------ what the session knows

    @property
    def name(self) -> str:
        return self.session.name

    @property
    def language(self) -> str:
        return self.session.language

    @property
    def seat(self) -> int | None:
        return self.session.seat

    @property
    def token(self) -> str | None:
        return self.session.token

    @property
    def table(self) -> TableInfo | None:
        return self.session.table

    @property
    def view(self) -> View | None:
        return self.session.view

    @property
    def status(self) -> Status:
        return self._status

    @property
    def bye(self) -> Bye | None:
        return self.session.bye

    @property
    def gaps(self) -> int:
        return self.session.gaps

    @property
    def last_seq(self) -> int:
        return self.session.last_seq

    # ------------------------------------------------------------ public

    async def connect(self) -> Joined:
        """Connect and join. Raises JoinRefused, OSError, TimeoutError or ProtocolError."""
        link, joined = await self._join()
        self._runner = asyncio.get_running_loop().create_task(self._run(link))
        return joined

    async def act(self, action: Action | None, timeout: float | None = None) -> Reply:
        """Ask for ``action`` (None: start the game now); the host's reply, or a reply
        with the client's own code (not_connected, timeout, disconnected, closed)."""
        return await self._ask(lambda: self.session.request(action), timeout)

    async def _ask(self, frame: Callable[[], tuple[int, bytes]],
                   timeout: float | None = None) -> Reply:
        try:
            request_id, data = frame()
            assert self._link is not None
            self._link.write(data)
        except ClientError as error:
            return Reply(error.code)
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._replies[request_id] = future
        try:
            return await asyncio.wait_for(future, timeout or self.reply_timeout)
        except TimeoutError:
            return Reply("timeout")
        finally:
            self._replies.pop(request_id, None)

    async def start(self) -> Reply:
        """Ask the host to start now (empty seats get bots)."""
        return await self.act(None)

    async def answer_seat_request(self, seat: int, give: bool) -> Reply:
        """As the owner: give ``seat`` to the player who asked for it by name, or refuse."""
        return await self._owner(lambda i: SeatAnswer(id=i, seat=seat, give=give))

    async def change_rules(self, preset: str, rules: HouseRules) -> Reply:
        """As the owner, before the first deal: the table's new house rules."""
        return await self._owner(lambda i: RulesChange(id=i, preset=preset, rules=rules))

    async def end_session(self) -> Reply:
        """The owner ends the session (after this hand; at once before the first deal)."""
        return await self._owner(lambda i: EndRequest(id=i))

    async def play_again(self) -> Reply:
        """As the owner, once the session is over: a new one with the same players."""
        return await self._owner(lambda i: AgainRequest(id=i))

    async def hint(self) -> Reply:
        """What the medium bot would do from our seat: ``params["hints"]``, the bot's
        ideas as maps (``president.bots.advice.suggestion_from_dict``); refused with
        ``hints_off`` at a table whose owner turned hints off."""
        return await self._owner(lambda i: HintRequest(id=i))

    async def play_duplicate(self) -> Reply:
        """As the owner, once the session is over: the same deals, everyone one seat on."""
        return await self._owner(lambda i: DuplicateRequest(id=i))

    async def _owner(self, make: Callable[[int], Message]) -> Reply:
        return await self._ask(lambda: self.session.ask(make))

    async def chat(self, text: str) -> None:
        """Say ``text`` to the table. ClientError (not_connected) when not joined."""
        data = self.session.chat(text)
        assert self._link is not None
        self._link.write(data)

    async def wait_for(self, predicate: Callable[[Client], bool], timeout: float = 30.0) -> None:
        """Until ``predicate(self)`` holds (checked after every event)."""
        async def waiting() -> None:
            while not predicate(self):
                self._changed.clear()
                await self._changed.wait()
        await asyncio.wait_for(waiting(), timeout)

    async def close(self) -> None:
        """Leave the table and stop reconnecting."""
        if self._status is Status.CLOSED and self._runner is None:
            return
        link = self._link
        leaving = self.session.leave()
        if link is not None:
            with contextlib.suppress(Exception):
                link.write(leaving)
                await asyncio.wait_for(link.drain(), 2)
            link.abort()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
            self._runner = None
        self._dispatch(self.session.abandon("closed"))
        self._set_status(Status.CLOSED)

    async def drop(self) -> None:
        """Cut the connection abruptly (as a Wi-Fi blip would); reconnects if enabled."""
        if self._link is not None:
            self._link.abort()

    # ------------------------------------------------------------ connection

    async def _join(self) -> tuple[Link, Joined]:
        failed = self.session.refuse_hello()  # before the link: the PIN's one guess is spent
        if failed is not None:
            self._set_status(Status.CLOSED, failed.code)
            raise JoinRefused(failed.code)
        link = await self.open_link()
        messages: list[Message] = []
        outcome: list[SessionEvent] = []
        try:
            link.write(self.session.hello())
            async with asyncio.timeout(self.timeout):
                while not outcome:  # the challenge is answered (outgoing), then a verdict
                    if not messages:  # after the confirm: what was received with it
                        messages = self.session.decode(b"")
                    while not messages:
                        data = await link.read()
                        if not data:
                            raise ConnectionResetError("closed during handshake")
                        messages = self.session.decode(data)
                    outcome = self.session.handle(messages.pop(0))
                    answer = self.session.outgoing()
                    if answer:
                        link.write(answer)
        except BaseException:
            link.abort()
            raise
        rest = messages
        failed = next((e for e in outcome if isinstance(e, JoinFailed)), None)
        if failed is not None or not outcome:
            link.abort()
            if failed is not None and failed.final:
                self._set_status(Status.CLOSED, failed.code)
            code = failed.code if failed is not None else "unexpected"
            raise JoinRefused(code, **(failed.params if failed is not None else {}))
        joined = outcome[0]
        assert isinstance(joined, Joined)
        self._link = link
        self._set_status(Status.CONNECTED)
        self._dispatch(outcome)
        for msg in rest:
            self._receive(msg)
        self._flush()
        return link, joined

    async def _run(self, link: Link) -> None:
        delay = 0.1
        while True:
            await self._read(link)
            self._dispatch(self.session.connection_lost())
            if self.session.final or not self.reconnect:
                break
            self._set_status(Status.RECONNECTING)
            while True:
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 5.0)
                try:
                    link, _ = await self._join()
                    delay = 0.1
                    break
                except JoinRefused:
                    if self.session.final:
                        return
                except (TimeoutError, OSError, ProtocolError):
                    pass
        bye = self.session.bye
        self._set_status(Status.CLOSED, bye.code if bye is not None else None)

    async def _read(self, link: Link) -> None:
        pinger = asyncio.get_running_loop().create_task(self._ping(link))
        try:
            while True:
                async with asyncio.timeout(self.timeout):
                    data = await link.read()
                if not data:
                    return
                for msg in self.session.decode(data):
                    self._receive(msg)
                self._flush()
                if self.session.bye is not None:
                    return
        except (TimeoutError, OSError, ProtocolError) as error:
            log.info("connection lost: %r", error)
        finally:
            pinger.cancel()
            link.abort()

    async def _ping(self, link: Link) -> None:
        for nonce in itertools.count(1):
            await asyncio.sleep(self.heartbeat)
            with contextlib.suppress(Exception):
                link.write(self.session.ping(nonce))

    def _flush(self) -> None:
        data = self.session.outgoing()
        if data and self._link is not None:
            with contextlib.suppress(ClientError, OSError):
                self._link.write(data)

    # ------------------------------------------------------------ events

    def _receive(self, msg: Message) -> None:
        """One decoded message from the host (tests override this to record frames)."""
        self._dispatch(self.session.handle(msg))

    def _dispatch(self, events: list[SessionEvent]) -> None:
        for event in events:
            if isinstance(event, Replied):
                future = self._replies.get(event.request_id)
                if future is not None and not future.done():
                    future.set_result(event.reply)
            self._notify(event)

    def _set_status(self, status: Status, code: str | None = None) -> None:
        if status == self._status:
            return
        self._status = status
        self._notify(StatusChanged(status, code))

    def _notify(self, event: ClientEvent) -> None:
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception:
                log.exception("on_event failed")
        self._changed.set()

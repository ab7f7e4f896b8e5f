"""The authoritative asyncio host: listening sockets and connection tasks.

A connection task only reads bytes, decodes them (``protocol.Decoder``) and
puts commands on its table's queue; pings are answered here. Each connection
has a bounded outgoing queue drained by its own writer task: when it is full
the frame is skipped (state and event frames keep their sequence numbers, so
the client sees the gap and asks for a snapshot) and the table never waits.
One heartbeat task pings the peers that fell silent and closes those that have sent
nothing for ``timeout`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import time
from collections import deque
from collections.abc import Iterable
from typing import Any, Protocol

from president.errors import LocalProtocolError, ProtocolError

from .channel import CLIENT_RECORD, HOST_RECORD, Incoming, Sealer
from .limits import (
    GUESSES,
    AddressBook,
    Limits,
    PinGuard,
    TokenBucket,
    chat_problem,
    connection_cap,
    name_problem,
)
from .pake import KNOCK, SEAT, HostHandshake, HostKey, HostSecrets, token_hint
from .protocol import (
    CLIENT,
    MAX_CLIENT_FRAME,
    Accepted,
    Bye,
    Challenge,
    ChatRequest,
    Confirm,
    Hello,
    Message,
    Numbered,
    Ping,
    Pong,
    Proof,
    Refused,
    StateUpdate,
    encode,
)
from .table import Command, Gone, Join, Table

log = logging.getLogger("president.net.host")

READ_CHUNK = 64 * 1024
SEAT_SECRETS_KEPT = 256     # seats whose handshake values and hello rate the host keeps
# Frames skipped for a full queue: skipping a broadcast's frames (``Numbered``: events, views
# and their changes) leaves a sequence gap the client repairs with a snapshot; the others
# (the snapshot itself, welcome, replies, bye, table…) have no repair.
SKIPPABLE = frozenset({"event", "chat", "ping"})


class ByteReader(Protocol):
    """Where a connection's bytes come from: asyncio's ``StreamReader``, or a WebSocket
    seen as a stream (``net/web.py``). ``b""``: the peer has gone."""

    async def read(self, n: int = -1) -> bytes: ...


class Abortable(Protocol):
    def abort(self) -> None: ...


class ByteWriter(Protocol):
    """Where a connection's bytes go: asyncio's ``StreamWriter``, or a WebSocket."""

    @property
    def transport(self) -> Abortable: ...
    def get_extra_info(self, name: str, default: Any = None) -> Any: ...
    def write(self, data: bytes) -> None: ...
    async def drain(self) -> None: ...
    def close(self) -> None: ...


class Clear(bytes):
    """Frames of the handshake, written as they are (the others are sealed as written)."""

    __slots__ = ()


class Outbox:
    """A connection's frames waiting for its writer: a deque, and the writer's wake-up
    when it waits on an empty one (what ``asyncio.Queue`` does, without its task counts
    and events: the broadcast puts a frame in every connection's box)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[bytes | None] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: bytes | None) -> None:
        self._items.append(item)
        self.wake()

    def add(self, item: bytes) -> None:
        """Like ``put_nowait``, without waking the writer (the host flushes it)."""
        self._items.append(item)

    def wake(self) -> None:
        """The writer takes what is waiting, if it waits."""
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def take_all(self) -> list[bytes]:
        """Every frame waiting (there is no end mark among them)."""
        items: list[bytes] = list(self._items)  # type: ignore[arg-type]
        self._items.clear()
        return items

    def get_nowait(self) -> bytes | None:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> bytes | None:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._items.popleft()


class Connection:
    """One client connection: its outgoing queue and writer task."""

    def __init__(self, host: Host, reader: ByteReader, writer: ByteWriter) -> None:
        self.host = host
        self.reader, self.writer = reader, writer
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.address = str(peer[0]) if isinstance(peer, tuple) else str(peer)  # for limits
        # Bounded by hand (see ``send``): replies and bye may overshoot a little.
        # A socket's (a StreamWriter's) frames are written by the host's flush (``_queue``).
        self.flushes = isinstance(writer, asyncio.StreamWriter)
        self.outgoing = Outbox()        # frames to write; None: close after them
        self.limit = host.out_queue
        self.skipped = 0                # frames skipped because the queue was full
        self.seat: int | None = None
        self.table: Table | None = None
        self.attached = False           # seated or watching, as far as the table knows
        self.hello: Hello | None = None            # asked to join (then the challenge)
        self.handshake: HostHandshake | None = None
        self.token: str | None = None               # ... coming back to this token's seat
        self.hello_seen = False                     # ... and answered it (net/pake.py)
        self.incoming = Incoming(CLIENT, host.max_frame)
        self.sealer: Sealer | None = None           # the channel, once the proof checked
        self.clear_queued = False                   # frames in clear wait in the outbox
        self.closing = False
        self.loop = asyncio.get_running_loop()
        self.opened = self.last_heard = self.loop.time()
        self.inflight = 0               # commands queued on the table, not yet handled
        self.room = asyncio.Event()
        self.room.set()
        limits = host.limits
        self.bucket = TokenBucket(limits.rate, limits.burst, self.loop.time())
        self.chat_bucket = TokenBucket(limits.chat_rate, limits.chat_burst, self.loop.time())
        self.strikes = 0                # messages refused for rate

    # called by the table task and by this connection's tasks (one thread: no locks)

    def send(self, msg: Message | Numbered) -> bool:
        """Queue ``msg`` without waiting; False if the connection is closing or full.
        A broadcast's frames come numbered by the table (``Numbered``: the same bytes
        for every connection they go to)."""
        if self.closing:
            return False
        if isinstance(msg, Numbered):  # events and views (all skippable): the hot path
            if self.outgoing.qsize() >= self.limit:
                self.skipped += 1
                return False
            self._queue(msg.data)
            return True
        if isinstance(msg, Refused) and msg.code in GUESSES and not self.attached:
            self.host.addresses.guessed(self.address, self.loop.time())
        try:
            # A snapshot (``state``) is the table's view; a reply's id is the one a checked
            # request carried: neither is checked again.
            data = encode(msg, check=not isinstance(msg, (StateUpdate, Accepted)))
        except LocalProtocolError:
            log.exception("invalid outgoing message %r", msg.TYPE)
            return False
        queued = self.outgoing.qsize()
        if queued >= self.limit and msg.TYPE in SKIPPABLE:
            self.skipped += 1
            return False
        if queued >= 2 * self.limit:
            self.abort()
            return False
        self._queue(data)
        return True

    def _queue(self, data: bytes) -> None:
        """A socket's frames are written by the host's flush once the current step is over
        (the table's broadcast, then the reply: one write), without waking the writer
        task; the writer takes over when the socket is behind (it waits for the drain).
        Frames queued before the channel is sealed go in clear."""
        if self.sealer is None:
            data = Clear(data)
            self.clear_queued = True
        if self.flushes:
            self.outgoing.add(data)
            self.host.flush_soon(self)
        else:
            self.outgoing.put_nowait(data)

    def flush(self) -> None:
        """Write what waits, unless the writer has it (closing, or the socket behind)."""
        if self.closing or self.outgoing.empty():
            return
        writer = self.writer
        assert isinstance(writer, asyncio.StreamWriter)
        if writer.transport.get_write_buffer_size():
            self.outgoing.wake()
        else:
            writer.write(self._records(self.outgoing.take_all()))

    def _records(self, frames: list[bytes]) -> bytes:
        """The bytes to write for ``frames``: in clear those queued before the channel,
        the others sealed, together (one record for what one write takes)."""
        sealer = self.sealer
        if sealer is None:
            return b"".join(frames)
        if not self.clear_queued:
            return sealer.seal(b"".join(frames))
        self.clear_queued = False
        out: list[bytes] = []
        run: list[bytes] = []
        for frame in frames:
            if type(frame) is Clear:
                out += (sealer.seal(b"".join(run)), frame)
                run = []
            else:
                run.append(frame)
        out.append(sealer.seal(b"".join(run)))
        return b"".join(out)

    def close(self, code: str, **params: Any) -> None:
        """Send ``bye`` (if there is room) and close once the queue is flushed."""
        if self.closing:
            return
        self.send(Bye(code=code, params=params))
        self.closing = True
        self.outgoing.put_nowait(None)

    def abort(self) -> None:
        self.closing = True
        self.writer.transport.abort()

    def hello_due(self) -> None:
        """The hello deadline: a connection that has not said hello by now is closed."""
        if not self.hello_seen and not self.closing:
            log.info("%s: no hello in time", self.peer)
            self.close("hello_timeout")

    def done(self) -> None:
        """The table has handled one of this connection's commands."""
        self.inflight -= 1
        if self.inflight < self.host.max_inflight:
            self.room.set()

    # tasks

    async def write_loop(self) -> None:
        try:
            while True:
                data = await self.outgoing.get()
                chunks, last = [], data is None
                if data is not None:
                    chunks.append(data)
                while not last and not self.outgoing.empty():
                    more = self.outgoing.get_nowait()
                    if more is None:
                        last = True
                    else:
                        chunks.append(more)
                if chunks:
                    self.writer.write(self._records(chunks))
                    await self.writer.drain()
                if last:
                    break
        except (ConnectionError, OSError):
            pass
        finally:
            self.closing = True
            self.writer.close()

    async def read_loop(self) -> None:
        incoming = self.incoming
        try:
            while not self.closing:
                data = await self.reader.read(READ_CHUNK)
                if not data:
                    return
                self.last_heard = self.loop.time()
                while messages := incoming.feed(data):  # it stops at the proof: then sealed
                    data = b""
                    for msg in messages:
                        self._dispatch(msg)
                        if self.inflight >= self.host.max_inflight:
                            self.room.clear()
                            await self.room.wait()
        except ProtocolError as error:
            log.info("%s: protocol error %s", self.peer, error)
            if not self.hello_seen:
                self.send(Refused(id=None, code=error.code, params=_plain(error.params)))
            self.close(error.code, **_plain(error.params))
        except (ConnectionError, OSError):
            pass

    def _dispatch(self, msg: Message) -> None:
        limits = self.host.limits
        now = self.loop.time()
        chat = isinstance(msg, ChatRequest)
        if not self.bucket.take(now) or (chat and not self.chat_bucket.take(now)):
            self.strikes += 1
            if self.strikes > limits.strikes:
                raise ProtocolError("rate_limited")
            self.send(Refused(id=getattr(msg, "id", None), code="rate_limited", params={}))
            return
        if isinstance(msg, Ping):
            self.send(Pong(nonce=msg.nonce))
            return
        if isinstance(msg, Pong):
            return
        if isinstance(msg, Hello):
            if self.hello is not None:
                raise ProtocolError("already_joined")
            if self.host.addresses.blocked(self.address, now):
                raise ProtocolError("too_many_attempts")
            problem = name_problem(msg.name, limits)
            if problem is not None:
                raise ProtocolError("name_invalid", **problem)
            seat = self.host.seat_of_hint(msg.seat_hint)
            if msg.seat_hint is not None and seat is None:
                raise ProtocolError("bad_token")  # no table here gave out that token
            # Every hello costs a handshake: under the host's rate, and a seat's hint (sent in
            # clear, so anyone may replay it) under its own, so that replaying one player's
            # hint neither spends the host's rate nor keeps that player out for long.
            if seat is not None and not self.host.hint_bucket(seat[1], now).take(now):
                raise ProtocolError("host_full")
            if not self.host.handshakes.take(now):
                raise ProtocolError("host_full")
            table = seat[0] if seat is not None else self.host.table_for(msg.table)
            if table is None:
                raise ProtocolError("no_such_table")
            if table.over:  # its task is gone: nobody would answer
                raise ProtocolError("table_closed")
            if msg.knock and (seat is not None or msg.spectate):
                raise ProtocolError("bad_field", field="knock")
            if seat is None and not msg.knock and table.options.pin \
                    and not table.pin_guard.allows(now):
                raise ProtocolError("too_many_attempts")  # no PIN is tried: spare the CPU
            self.hello, self.table = msg, table
            self.token = seat[1] if seat is not None else None
            # The seat's token is the password of a return (no PIN needed), else the PIN.
            # A knock proves no password: its handshake only opens the channel.
            secrets_ = self.host.seat_secrets(self.token) if self.token is not None \
                else self.host.knock_secrets if msg.knock else self.host.secrets_for(table)
            self.handshake = HostHandshake(secrets_, msg.share, msg.identity)
            self.send(Challenge(key=self.handshake.public, share=self.handshake.share))
            return
        if isinstance(msg, Proof):
            if self.hello is None or self.handshake is None or self.hello_seen:
                raise ProtocolError("unexpected", type=msg.TYPE)
            assert self.table is not None
            self.hello_seen = True
            if self.handshake.pin_proved(msg.proof):
                # Confirmed in clear, then sealed both ways: the welcome, its token, all.
                self.send(Confirm(proof=self.handshake.proof))
                keys = self.handshake.keys
                self.sealer = Sealer(keys.host_to_client, HOST_RECORD)
                self.incoming.seal(keys.client_to_host, CLIENT_RECORD)
            self.table.queue.put_nowait(Join(self, self.hello, self.handshake, msg, self.token))
            return
        if not self.hello_seen or self.table is None:
            raise ProtocolError("not_joined", type=msg.TYPE)
        if isinstance(msg, ChatRequest):
            too_long = chat_problem(msg.text, limits)
            if too_long is not None:
                self.send(Refused(id=None, code="chat_too_long", params=too_long))
                return
        self.inflight += 1
        self.table.queue.put_nowait(Command(self, msg))


class _OnceAMinute(logging.Filter):
    """asyncio logs every failed accept() (out of files: one per attempt, thousands a
    second in a flood): let one through a minute."""

    def __init__(self) -> None:
        super().__init__()
        self.last = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        if "accept" not in str(record.msg):
            return True
        now = record.created
        if now - self.last < 60.0:
            return False
        self.last = now
        return True


def _log_accept_errors_once() -> None:
    logger = logging.getLogger("asyncio")
    if not any(isinstance(f, _OnceAMinute) for f in logger.filters):
        logger.addFilter(_OnceAMinute())


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """Error params safe for the wire (msgpack-able scalars)."""
    return {k: v for k, v in params.items() if v is None or type(v) in (int, str, bool)}


class Host:
    """Serves one or more tables on the given addresses (one port for all)."""

    def __init__(self, tables: Iterable[Table], *, heartbeat: float = 5.0,
                 timeout: float = 20.0, out_queue: int = 256,
                 max_frame: int = MAX_CLIENT_FRAME, max_inflight: int = 32,
                 limits: Limits | None = None, key: HostKey | None = None) -> None:
        self.tables = {table.options.table_id: table for table in tables}
        self.key = key or HostKey.generate()    # the lobby shows its fingerprint
        self._secrets: dict[str, HostSecrets] = {}
        self._seat_secrets: dict[str, HostSecrets] = {}     # by token
        self._hint_buckets: dict[str, TokenBucket] = {}     # by token
        self._hints: dict[str, str] = {}                    # token -> its hint
        if not self.tables:
            raise ValueError("tables")
        self.heartbeat, self.timeout = heartbeat, timeout
        self.out_queue, self.max_frame, self.max_inflight = out_queue, max_frame, max_inflight
        self.servers: list[asyncio.Server] = []
        self.connections: set[Connection] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._heartbeats: asyncio.Task[Any] | None = None  # started with the first connection
        self._dirty: set[Connection] = set()        # connections with frames to write
        self._flush: asyncio.Handle | None = None   # the flush of them, when due
        self.port = 0
        self.limits = limits or Limits()
        self.addresses = AddressBook(self.limits)
        self.handshakes = TokenBucket(self.limits.handshake_rate, self.limits.handshake_burst,
                                      time.monotonic())  # the clock of asyncio's loop.time()
        for table in self.tables.values():
            table.pin_guard = PinGuard(self.limits)
        self.cap = connection_cap(self.limits)

    def seat_of_hint(self, seat_hint: str | None) -> tuple[Table, str] | None:
        """The table that gave out the token a hello's ``seat_hint`` names, and the token
        (two resumed sessions of one table name: each player finds their own)."""
        if seat_hint is None:
            return None
        hints = self._hints
        for table in self.tables.values():
            for token in table.tokens():
                hint = hints.get(token)
                if hint is None:
                    hint = hints[token] = token_hint(token)  # once a token (a hash)
                if hint == seat_hint:
                    return table, token
        return None

    def seat_secrets(self, token: str) -> HostSecrets:
        """The handshake's values for a seat's token, computed once (a few kept)."""
        found = self._seat_secrets.pop(token, None) or HostSecrets(self.key, token, SEAT)
        self._seat_secrets[token] = found           # the most recent last
        while len(self._seat_secrets) > SEAT_SECRETS_KEPT:
            del self._seat_secrets[next(iter(self._seat_secrets))]
        return found

    def hint_bucket(self, token: str, now: float) -> TokenBucket:
        """The rate of hellos naming one seat (a few kept)."""
        bucket = self._hint_buckets.pop(token, None) or TokenBucket(
            self.limits.hint_rate, self.limits.hint_burst, now)
        self._hint_buckets[token] = bucket
        while len(self._hint_buckets) > SEAT_SECRETS_KEPT:
            del self._hint_buckets[next(iter(self._hint_buckets))]
        return bucket

    def table_for(self, table_id: str | None) -> Table | None:
        """The table a hello asks for by id (None: the first)."""
        if table_id is None:
            return next(iter(self.tables.values()))
        return self.tables.get(table_id)

    @functools.cached_property
    def knock_secrets(self) -> HostSecrets:
        """The handshake's values for a knock (the empty password, its own label)."""
        return HostSecrets(self.key, None, KNOCK)

    def secrets_for(self, table: Table) -> HostSecrets:
        """The handshake's values for ``table``'s PIN, computed once."""
        table_id = table.options.table_id
        if table_id not in self._secrets:
            self._secrets[table_id] = HostSecrets(self.key, table.options.pin)
        return self._secrets[table_id]

    async def start(self, addresses: list[str] | None = None, port: int = 0) -> int:
        """Listen (default: every interface) and start the table tasks; returns the port."""
        _log_accept_errors_once()
        # Every interface: IPv4 first, so that port 0 picks one port that IPv6 then
        # shares (asyncio would otherwise give each family its own random port).
        hosts = list(addresses) if addresses else ["0.0.0.0", "::"]
        for address in hosts:
            try:
                server = await asyncio.start_server(self.serve_connection, host=address,
                                                    port=port,
                                                    reuse_address=True)
            except OSError:
                if addresses:
                    raise
                continue  # no IPv6 on this machine: IPv4 alone will do
            self.servers.append(server)
            port = port or server.sockets[0].getsockname()[1]
        self.port = port
        for table in self.tables.values():
            self._spawn(table.run())
        return port

    def _spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def serve_connection(self, reader: ByteReader, writer: ByteWriter) -> None:
        """Serve one client connection until it closes: a TCP socket from ``start``, or
        a WebSocket from ``net/web.py``; both go through the same decoder and limits."""
        conn = Connection(self, reader, writer)
        if not self._room_for_one_more():
            writer.write(encode(Refused(id=None, code="host_full", params={})))
            writer.close()
            return
        if not self.addresses.admit(conn.address):
            writer.write(encode(Refused(id=None, code="too_many_connections",
                                        params={"max": self.limits.per_address})))
            writer.close()
            return
        self.connections.add(conn)
        if self._heartbeats is None:
            self._heartbeats = self._spawn(self._heartbeat_loop())
        deadline = conn.loop.call_later(self.limits.hello_deadline, conn.hello_due)
        writing = asyncio.ensure_future(conn.write_loop())
        try:
            await conn.read_loop()
        finally:
            deadline.cancel()
            if conn.table is not None:
                conn.table.queue.put_nowait(Gone(conn))
            if not conn.closing:
                conn.close("closed")
            try:
                await asyncio.wait_for(writing, timeout=self.timeout)
            except (TimeoutError, asyncio.CancelledError):
                conn.abort()
            self.connections.discard(conn)
            self.addresses.release(conn.address)

    def flush_soon(self, conn: Connection) -> None:
        """Write ``conn``'s frames once the current step is over (one write for all that
        the step queued, with one callback for every connection)."""
        self._dirty.add(conn)
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_soon(self._flush_all)

    def _flush_all(self) -> None:
        self._flush = None
        dirty, self._dirty = self._dirty, set()
        for conn in dirty:
            conn.flush()

    async def _heartbeat_loop(self) -> None:
        """Every ``heartbeat`` seconds: a connection that has sent nothing for ``timeout``
        is dropped, one silent for a period is pinged (one that pings us, as our clients
        do, hears our pongs). One task for every connection, not one asleep for each."""
        loop = asyncio.get_running_loop()
        for nonce in itertools.count(1):
            await asyncio.sleep(self.heartbeat)
            now = loop.time()
            ping = Ping(nonce=nonce & 0xFFFFFFFF)
            for conn in list(self.connections):
                silent = now - conn.last_heard
                if conn.closing or silent < self.heartbeat:
                    continue
                if silent > self.timeout:
                    log.info("%s: heartbeat timeout", conn.peer)
                    conn.abort()
                else:
                    conn.send(ping)

    def _room_for_one_more(self) -> bool:
        """Under the connection cap, or made so by shedding the oldest connection that
        has not said hello (a flood's, most likely); False when everyone is a player."""
        if len(self.connections) < self.cap:
            return True
        silent = [conn for conn in self.connections if not conn.hello_seen and not conn.closing]
        if not silent:
            return False
        oldest = min(silent, key=lambda conn: conn.opened)
        oldest.abort()
        self.connections.discard(oldest)
        return True

    async def wait_finished(self) -> None:
        """Until every table's session is over."""
        await asyncio.gather(*(table.closed.wait() for table in self.tables.values()))

    async def stop(self) -> None:
        """Close every table (``bye`` host_stopping), then the sockets."""
        for table in self.tables.values():
            if not table.closed.is_set():
                table.request_stop(now=True)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.wait_finished(), timeout=5)
        for server in self.servers:
            server.close()
        for conn in list(self.connections):
            conn.close("host_stopping")
        for server in self.servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), timeout=2)
        for task in list(self._tasks):
            task.cancel()

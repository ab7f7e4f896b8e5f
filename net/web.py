"""The host's web side: the page for phones, and a WebSocket into the same connection handling.

``WebServer(host, files, texts, table_texts, tv_texts)`` serves HTTP with aiohttp on the
host's event loop:

- ``GET /``: ``index.html`` of ``files``; ``GET /static/<name>``: the page's scripts and
  styles. ``files`` is read from one folder when the server is made
  (``StaticFiles.from_folder``); a request's path never reaches the file system, so
  ``..``, encoded slashes and absolute paths simply name no file (404).
- ``GET /texts/<language>.json``: the page's texts in one language, from ``texts``.
- ``GET /tables.json``: what the zeroconf record says of each table (name, seats, PIN).
- ``GET /tables/<id>/<language>.json``: one table's house rules, role titles and, between
  hands, its summary, in words from ``table_texts`` (made when asked: they change).
- ``GET /tv``: the TV view's page (``tv.html``); ``GET /tv.json?lang=&table=``: what it
  shows of a table (the first one still open unless named), from ``tv_texts``, in the
  host's language unless ``lang`` names another; a table with a PIN only to the host's
  own loopback address.
- ``POST /lesson/<language>.json``: Learn to play, stepped by ``lesson`` (the body in,
  the answer out, None: 400), from a page of this host only (its ``Origin``, as for the
  WebSocket); a lesson is kept nowhere, so no table list shows it.
- ``GET /ws``: the WebSocket. Its binary messages carry the bytes of the same framed
  stream as the TCP port (a frame may span messages, a message may hold several), and
  it is handed to ``Host.serve_connection`` like a socket: the same decoder, frame
  limits, rate and connection limits (per address, shared with TCP), PIN and per-seat
  views. A text message is a protocol error (``malformed``).

The door stays open (``Door``): a connection that has not sent a whole request's head within
``HEAD_DEADLINE`` seconds is closed, and an address may hold ``WAITING_PER_ADDRESS`` such
connections at once (``WAITING_MAX`` in all): half-open requests cannot take the host's
files from the game's port.

The WebSocket is accepted only from a page this host served: its ``Origin`` must be
``http://`` + the ``Host`` the request came to, and that ``Host`` must be an IP address or
a name of this machine (so that a page on another site, or one that re-points its own
name to this host, cannot open it).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import json
import logging
import mimetypes
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any

from aiohttp import WSMsgType, web

from president.errors import ProtocolError

from .host import READ_CHUNK, Host
from .pake import short_fingerprint
from .table import Table

log = logging.getLogger("president.net.web")

# Every response: the page may load only its own files and talk only to this host.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}
TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
         ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon",
         ".json": "application/json", ".webmanifest": "application/manifest+json"}
MAX_STATIC_FILES = 64
LESSON_BODY_MAX = 16 * 1024  # bytes of a lesson request (its moves: a few hundred)
LESSONS_AT_ONCE = 2          # lesson requests worked out at once (each in a thread)
HEAD_DEADLINE = 10.0        # seconds a connection has to send a request's head
WAITING_PER_ADDRESS = 16    # connections of one address still sending their first head
WAITING_MAX = 256           # ... of all addresses


class Door:
    """The connections of the web port that have not sent a request's head yet, by
    address: ``opened`` admits one (False: over the limits, close it), ``served`` marks
    one whose request reached a handler, ``closed`` forgets one; those still waiting at
    the deadline are closed."""

    def __init__(self, deadline: float = HEAD_DEADLINE, per_address: int = WAITING_PER_ADDRESS,
                 most: int = WAITING_MAX) -> None:
        self.deadline, self.per_address, self.most = deadline, per_address, most
        self.waiting: dict[asyncio.BaseTransport, tuple[str, asyncio.TimerHandle]] = {}
        self.by_address: dict[str, int] = {}

    def opened(self, transport: asyncio.BaseTransport) -> bool:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        if len(self.waiting) >= self.most or self.by_address.get(address, 0) >= \
                self.per_address:
            return False
        timer = asyncio.get_running_loop().call_later(self.deadline, self._due, transport)
        self.waiting[transport] = (address, timer)
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return True

    def served(self, transport: asyncio.BaseTransport | None) -> None:
        if transport is not None:
            self.closed(transport)

    def closed(self, transport: asyncio.BaseTransport) -> None:
        entry = self.waiting.pop(transport, None)
        if entry is None:
            return
        address, timer = entry
        timer.cancel()
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]

    def _due(self, transport: asyncio.BaseTransport) -> None:
        if transport in self.waiting:
            self.closed(transport)
            transport.abort()  # type: ignore[attr-defined]


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the ``Door``."""

    def __init__(self, inner: asyncio.Protocol, door: Door) -> None:
        self.inner, self.door = inner, door
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self.door.opened(transport):
            transport.abort()  # type: ignore[attr-defined]
            return
        self.transport = transport
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.door.closed(self.transport)
            self.inner.connection_lost(exc)


@dataclass(frozen=True, slots=True)
class StaticFile:
    body: bytes
    content_type: str
    etag: str


class StaticFiles:
    """The page's files by name, read once from one folder (not its subfolders)."""

    def __init__(self, files: dict[str, StaticFile]) -> None:
        self.files = files

    @classmethod
    def from_folder(cls, folder: Traversable) -> StaticFiles:
        files = {}
        for entry in folder.iterdir():
            suffix = "." + entry.name.rpartition(".")[2]
            if not entry.is_file() or suffix not in TYPES or entry.name.startswith("."):
                continue
            body = entry.read_bytes()
            files[entry.name] = StaticFile(
                body, TYPES[suffix] or mimetypes.guess_type(entry.name)[0] or "",
                '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
            if len(files) > MAX_STATIC_FILES:
                raise ValueError(f"too many files in {folder}")
        return cls(files)

    def get(self, name: str) -> StaticFile | None:
        return self.files.get(name)


class WebSocketStream:
    """A WebSocket seen as the byte stream ``Host.serve_connection`` reads and writes."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self._transport = request.transport
        self._peername = request.transport.get_extra_info("peername") if request.transport \
            else None
        self._rest = b""
        self._out = bytearray()
        self._closing: asyncio.Task[None] | None = None

    # reading (one task: the connection's read loop)

    async def read(self, n: int = -1) -> bytes:
        while not self._rest:
            msg = await self.ws.receive()
            if msg.type is WSMsgType.TEXT:
                raise ProtocolError("malformed", detail="text_message")
            if msg.type is not WSMsgType.BINARY:
                return b""  # closed, closing or broken: the peer has gone
            self._rest = bytes(msg.data)
        size = len(self._rest) if n < 0 else n
        data, self._rest = self._rest[:size], self._rest[size:]
        return data

    # writing (the connection's write loop)

    @property
    def transport(self) -> WebSocketStream:
        return self

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._peername if name == "peername" else default

    def write(self, data: bytes) -> None:
        self._out += data

    async def drain(self) -> None:
        if self._out and not self.ws.closed:
            data = bytes(self._out)
            self._out.clear()
            await self.ws.send_bytes(data)

    def close(self) -> None:
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())

    async def _close(self) -> None:
        with contextlib.suppress(Exception):
            await self.drain()
        with contextlib.suppress(Exception):
            await self.ws.close()

    def abort(self) -> None:
        if self._transport is not None:
            self._transport.abort()

    async def wait_closed(self) -> None:
        if self._closing is not None:
            with contextlib.suppress(Exception):
                await self._closing


def _host_name(host_header: str) -> str:
    """``[fe80::1]:8080`` -> ``fe80::1``, ``Kitchen.local:80`` -> ``kitchen.local``."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def own_names() -> frozenset[str]:
    """Names under which this machine may be reached besides its IP addresses."""
    names = {"localhost"}
    with contextlib.suppress(OSError):
        hostname = socket.gethostname().lower()
        names |= {hostname, hostname.split(".")[0] + ".local"}
    return frozenset(names)


def origin_allowed(origin: str | None, host_header: str | None,
                   names: Iterable[str] = ()) -> bool:
    """Whether a WebSocket request comes from a page this host served (see the module)."""
    if not origin or not host_header:
        return False
    if origin.lower() not in (f"http://{host_header.lower()}", f"https://{host_header.lower()}"):
        return False
    name = _host_name(host_header)
    try:
        ipaddress.ip_address(name.partition("%")[0])
        return True
    except ValueError:
        return name in set(names)


class WebServer:
    """HTTP and WebSocket for ``host``'s tables (see the module docstring)."""

    def __init__(self, host: Host, files: StaticFiles,
                 texts: Callable[[str], bytes | None],
                 table_texts: Callable[[Table, str], bytes | None],
                 tv_texts: Callable[[Table, str, str, bool], bytes | None],
                 evening: Callable[[str], str | None] | None = None,
                 language: str = "en",
                 lesson: Callable[[str, bytes], bytes | None] | None = None) -> None:
        self.host = host
        self.files = files
        self.texts = texts
        self.table_texts = table_texts
        self.evening = evening          # the night's story in a language (plain text)
        self.tv_texts = tv_texts
        self.lesson = lesson            # Learn to play: a request's body -> the answer
        self._lessons = asyncio.Semaphore(LESSONS_AT_ONCE)
        self.language = language  # the host's: the TV's unless it asks for another
        self.names = own_names()
        self.port = 0
        self._texts: dict[str, bytes] = {}
        self._runner: web.AppRunner | None = None
        self._streams: set[WebSocketStream] = set()
        self.door = Door()
        self._servers: list[asyncio.Server] = []
        app = web.Application(middlewares=[self._at_the_door, _security_headers])
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/texts/{language}.json", self._texts_json)
        app.router.add_get("/tables.json", self._tables)
        app.router.add_get("/tables/{table}/{language}.json", self._table_texts)
        app.router.add_get("/tv", self._tv)
        app.router.add_get("/tv.json", self._tv_json)
        app.router.add_get("/ws", self._websocket)
        app.router.add_get("/evening/{language}", self._evening)
        app.router.add_post("/lesson/{language}.json", self._lesson)
        self.app = app

    async def start(self, addresses: list[str] | None = None, port: int = 0) -> int:
        """Listen (default: every interface, IPv4 and IPv6 on one port); returns the port."""
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                                     shutdown_timeout=1.0)
        await self._runner.setup()
        handler = self._runner.server
        assert handler is not None
        door = self.door
        loop = asyncio.get_running_loop()
        hosts = list(addresses) if addresses else ["0.0.0.0", "::"]
        for address in hosts:
            try:
                server = await loop.create_server(lambda: _Guarded(handler(), door), address,
                                                  port, reuse_address=True)
            except OSError:
                if addresses:
                    await self.stop()
                    raise
                continue  # no IPv6 here
            self._servers.append(server)
            if not port:  # the one chosen for port 0, shared by the next address
                port = server.sockets[0].getsockname()[1]
        self.port = port
        return port

    @property
    def listening(self) -> bool:
        """Whether some address took the port (``start`` skips an address it cannot use)."""
        return bool(self._servers)

    def urls(self, addresses: Iterable[str]) -> list[str]:
        """The page's address on each of ``addresses``, naming the host key (``#key=``, its
        64-bit fingerprint): the page refuses another key before it proves anything."""
        return [f"{page_url(address, self.port)}#key={self._short_key()}" for address in addresses]

    def _short_key(self) -> str:
        return short_fingerprint(self.host.key.fingerprint).replace("-", "")

    async def stop(self) -> None:
        for server in self._servers:
            server.close()
        self._servers.clear()
        for stream in list(self._streams):
            stream.close()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            with contextlib.suppress(Exception):
                await runner.cleanup()

    # ------------------------------------------------------------ handlers

    @web.middleware
    async def _at_the_door(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """A request's head is in: its connection no longer waits at the door."""
        self.door.served(request.transport)
        response: web.StreamResponse = await handler(request)
        return response

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._file(request, "index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        return self._file(request, request.match_info["name"])

    def _file(self, request: web.Request, name: str) -> web.StreamResponse:
        found = self.files.get(name)
        if found is None:
            raise web.HTTPNotFound()
        if request.headers.get("If-None-Match") == found.etag:
            return web.Response(status=304, headers={"ETag": found.etag})
        return web.Response(body=found.body, content_type=found.content_type,
                            charset="utf-8" if found.content_type.startswith("text/") else None,
                            headers={"ETag": found.etag})

    async def _texts_json(self, request: web.Request) -> web.StreamResponse:
        language = request.match_info["language"]
        body = self._texts.get(language)
        if body is None:
            made = self.texts(language) if language.isalpha() and len(language) <= 3 else None
            if made is None:
                raise web.HTTPNotFound()
            body = self._texts.setdefault(language, made)
        return web.Response(body=body, content_type="application/json")

    async def _evening(self, request: web.Request) -> web.StreamResponse:
        """The night's story (``evening``), read from the journal when asked."""
        language = request.match_info["language"]
        if self.evening is None or not (language.isalpha() and len(language) <= 3):
            raise web.HTTPNotFound()
        story = await asyncio.to_thread(self.evening, language)
        if story is None:
            raise web.HTTPNotFound()
        return web.Response(text=story, content_type="text/plain", charset="utf-8")

    async def _lesson(self, request: web.Request) -> web.StreamResponse:
        """Learn to play: one step of a lesson (``lesson``), worked out off the loop."""
        language = request.match_info["language"]
        if self.lesson is None or not (language.isalpha() and len(language) <= 3):
            raise web.HTTPNotFound()
        if not origin_allowed(request.headers.get("Origin"), request.headers.get("Host"),
                              self.names):
            raise web.HTTPForbidden()
        if (request.content_length or 0) > LESSON_BODY_MAX:
            raise web.HTTPRequestEntityTooLarge(max_size=LESSON_BODY_MAX,
                                                actual_size=request.content_length or 0)
        body = await request.content.read(LESSON_BODY_MAX + 1)
        if len(body) > LESSON_BODY_MAX:
            raise web.HTTPRequestEntityTooLarge(max_size=LESSON_BODY_MAX,
                                                actual_size=len(body))
        async with self._lessons:
            answer = await asyncio.to_thread(self.lesson, language, body)
        if answer is None:
            raise web.HTTPBadRequest()
        return web.Response(body=answer, content_type="application/json")

    async def _tables(self, request: web.Request) -> web.StreamResponse:
        tables = [{"id": table.options.table_id, "name": table.options.name,
                   "seats": len(table.seats), "taken": table.taken, "started": table.started,
                   "over": table.over, "pin": bool(table.options.pin)}
                  for table in self.host.tables.values()]
        return web.Response(body=json.dumps(tables).encode(), content_type="application/json")

    async def _table_texts(self, request: web.Request) -> web.StreamResponse:
        table = self.host.tables.get(request.match_info["table"])
        body = None if table is None else self.table_texts(table, request.match_info["language"])
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(body=body, content_type="application/json")

    async def _tv(self, request: web.Request) -> web.StreamResponse:
        return self._file(request, "tv.html")

    async def _tv_json(self, request: web.Request) -> web.StreamResponse:
        tables = self.host.tables
        named = request.query.get("table")
        table = tables.get(named) if named else next(
            (t for t in tables.values() if not t.over), next(iter(tables.values()), None))
        language = request.query.get("lang") or self.language
        local = _loopback(request.remote or "")
        body = None if table is None else self.tv_texts(
            table, language, f"http://{request.host}/#key={self._short_key()}", local)
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(body=body, content_type="application/json")

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        if not origin_allowed(request.headers.get("Origin"), request.headers.get("Host"),
                              self.names):
            log.info("websocket refused: origin %r, host %r", request.headers.get("Origin"),
                     request.headers.get("Host"))
            raise web.HTTPForbidden()
        ws = web.WebSocketResponse(max_msg_size=READ_CHUNK, compress=False, autoping=True)
        await ws.prepare(request)
        stream = WebSocketStream(ws, request)
        self._streams.add(stream)
        try:
            await self.host.serve_connection(stream, stream)
        finally:
            stream.close()
            await stream.wait_closed()
            self._streams.discard(stream)
        return ws


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.partition("%")[0]).is_loopback
    except ValueError:
        return False


def page_url(address: str, port: int) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


@web.middleware
async def _security_headers(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        response: web.StreamResponse = await handler(request)
    except web.HTTPException as error:
        error.headers.update(SECURITY_HEADERS)
        raise
    if not response.prepared:
        response.headers.update(SECURITY_HEADERS)
    return response

"""The client's way to the network: connect, host, browse, parse addresses.

A thin adapter over ``president.net``: ``NetConnection`` is a ``Client`` that
keeps trying a host that is not there yet.
``$PRESIDENT_INTERFACES`` (comma list of addresses) limits where a hosted table
listens and where zeroconf runs; tests set it to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from president.actions import Action
from president.bots import DEFAULT_BUDGET, DEFAULT_LEVEL
from president.cli import hosting
from president.cli.seats import SeatClaim, SeatStore, table_key
from president.cli.trust import KnownHosts, load_host_key
from president.errors import JoinRefused, ProtocolError
from president.net.client import Client, ClientEvent, EventCallback, StatusChanged
from president.net.discovery import (
    TableBrowser,
    format_address,
    reachable_addresses,
)
from president.net.discovery import parse_address as _parse_address
from president.net.host import Host
from president.net.journal import Journal
from president.net.persist import TableJournal
from president.net.protocol import HOST, Decoder, Ping, Reply, encode
from president.net.session import Closed, Joined, JoinFailed, Status
from president.net.table import Table, TableOptions

if TYPE_CHECKING:
    from president.net.web import WebServer
from president.rules import PRESETS, check_player_count

ENV_INTERFACES = "PRESIDENT_INTERFACES"
SEAT_REQUEST_SECONDS = 1.0  # how often a seat asked for by name asks again
BOT_DELAY = 0.8            # seconds a bot waits, so that a human can follow the game
RETRY_SECONDS = 2.0
PROBE_SECONDS = 3.0        # for a port to answer as a table


async def answers_as_table(host: str, port: int, timeout: float = PROBE_SECONDS) -> bool:
    """Whether a President host listens at ``host:port``: it answers a ping with a frame
    of ours (no hello, no PIN tried). False for a closed port, the page's HTTP port or
    anything else that does not speak the protocol within ``timeout`` seconds."""
    writer = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(encode(Ping(nonce=1)))
            decoder = Decoder(HOST)
            while True:
                data = await reader.read(4096)
                if not data:
                    return False
                if decoder.feed(data):
                    return True
    except (OSError, TimeoutError, ProtocolError):
        return False
    finally:
        if writer is not None:
            writer.transport.abort()


def interfaces() -> list[str] | None:
    raw = os.environ.get(ENV_INTERFACES, "").strip()
    return [part.strip() for part in raw.split(",") if part.strip()] or None


def parse_address(text: str) -> tuple[str, int]:
    return _parse_address(text)


class NetConnection:
    """A seat at a table over the network, for the UI: a ``Client`` that keeps trying
    to reach a host that is not there yet, and where others join a table we host.

    With ``seats`` (a ``SeatStore``) the seat's token is kept on disk while we hold the
    seat, so that a killed or restarted client comes back to it: the next connection to
    the same table starts with the stored token (a token the table no longer knows is
    forgotten, and we join as new)."""

    def __init__(self, host: str, port: int, name: str, language: str,
                 pin: str | None = None, spectate: bool = False, *,
                 table: str | None = None, seats: SeatStore | None = None,
                 token: str | None = None, host_key: str | None = None,
                 known: KnownHosts | None = None) -> None:
        self.key = table_key(host, port, table, name)
        self.seats = None if spectate else seats
        self.known = known
        claim = self.seats.get(self.key) if self.seats is not None else None
        self.token = token or (claim.token if claim is not None else None)
        if claim is not None and claim.host_key:  # our token is proved to that host alone
            host_key = claim.host_key
        self.host_key = host_key
        self.client = Client(host, port, name, language, pin=pin, spectate=spectate,
                             token=self.token, table=table, host_key=host_key)
        self.owner = False                     # we opened the table: we may start early
        self.address: str | None = None        # shown in the waiting room of a hosted table
        self.web_url: str | None = None        # ... with the page for phones
        self.unadvertised = False               # ... that could not be advertised on the LAN
        self._closed = False
        self._on_event: EventCallback = lambda event: None

    async def start(self, on_event: EventCallback) -> None:
        """Connect (retrying while the host cannot be reached); events go to ``on_event``."""
        self._on_event = on_event
        self.client.on_event = self._event
        on_event(StatusChanged(Status.CONNECTING))
        client = self.client
        if client.token is None and not await answers_as_table(client.host, client.port):
            # nobody to wait for (a seat's own table, restarting, is waited for below)
            where = format_address(client.host, client.port)
            on_event(JoinFailed("not_a_table", {"address": where}, final=True))
            return
        while not self._closed:
            try:
                await self.client.connect()
                return
            except JoinRefused as refusal:
                if refusal.code == "bad_token" and self.client.token is not None:
                    self._forget()  # another session at that address: sit down as new
                    self.client = self._fresh_client()
                    continue
                if refusal.code == "no_pin" and self.client.session.pin:
                    self.client = self._fresh_client(keep_pin=False)  # a PIN typed for nothing
                    continue
                if refusal.code == "host_full":  # a flood, or a crowd: try again soon
                    on_event(StatusChanged(Status.RECONNECTING, refusal.code))
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                if refusal.code == "seat_request_sent":  # the owner decides: ask again
                    on_event(JoinFailed(refusal.code, refusal.params, final=False))
                    await asyncio.sleep(SEAT_REQUEST_SECONDS)
                    continue
                on_event(JoinFailed(refusal.code, refusal.params, final=True))
                return
            except (OSError, TimeoutError, ProtocolError) as error:
                on_event(StatusChanged(Status.RECONNECTING, type(error).__name__))
                await asyncio.sleep(RETRY_SECONDS)

    async def retry_with_pin(self, pin: str | None, on_event: EventCallback) -> None:
        """After a wrong PIN: join again with the PIN typed again."""
        self.client = self._fresh_client(pin=pin or None)
        await self.start(on_event)

    async def knock(self, on_event: EventCallback) -> None:
        """Past the table's PIN budget: ask its owner to let us in (no PIN), until answered."""
        old = self.client
        self.client = Client(old.host, old.port, old.session.name, old.session.language,
                             knock=True, table=old.session.table_id, host_key=self.host_key)
        await self.start(on_event)

    def _fresh_client(self, keep_pin: bool = True, pin: str | None = None) -> Client:
        """A new client for the same table, as a new player (without the PIN if not
        ``keep_pin``; with ``pin`` if given)."""
        old = self.client
        session = old.session
        client = Client(old.host, old.port, session.name, session.language,
                        pin=pin or (session.pin if keep_pin else None),
                        spectate=session.spectate, table=session.table_id,
                        host_key=self.host_key)
        if keep_pin and pin is None:  # the same typed PIN: its one guess goes with it
            client.session.pin_tried = session.pin_tried
        client.on_event = self._event
        return client

    def _event(self, event: ClientEvent) -> None:
        """Keep the seat's claim on disk while we hold the seat, remember the host's key,
        then tell the UI."""
        key = self.client.session.host_key
        if isinstance(event, Joined) and self.known is not None and key is not None:
            known = self.known.get(event.table.name)
            if known is not None and known != key:
                event = replace(event, key_was=known)
            with contextlib.suppress(OSError):
                self.known.remember(event.table.name, key)
        if self.seats is not None:
            match event:
                case Joined(seat=seat, table=info) if seat is not None and self.client.token:
                    self._keep(info.name)
                case Closed(code=code) if code in FORGET_ON:
                    self._forget()
                case JoinFailed(code="bad_token"):
                    self._forget()
        self._on_event(event)

    def _keep(self, table_name: str) -> None:
        token = self.client.token
        assert self.seats is not None and token is not None
        self.token = token
        with contextlib.suppress(OSError):
            self.seats.put(self.key, SeatClaim(token, self.client.name, table_name,
                                               time.time(), self.client.session.host_key or ""))

    def _forget(self) -> None:
        if self.seats is not None:
            with contextlib.suppress(OSError):
                self.seats.forget(self.key)

    async def act(self, action: Action | None) -> Reply:
        """Ask for ``action`` (None: start the game now, bots in the free seats)."""
        return await self.client.act(action)

    async def chat(self, text: str) -> None:
        """Say ``text`` to everyone at the table."""
        await self.client.chat(text)

    async def answer_seat_request(self, seat: int, give: bool) -> Reply:
        return await self.client.answer_seat_request(seat, give)

    async def change_rules(self, preset: str, rules: Any) -> Reply:
        return await self.client.change_rules(preset, rules)

    async def end_session(self) -> Reply:
        """As the owner: end the session for everyone (after this hand)."""
        return await self.client.end_session()

    async def play_again(self) -> Reply:
        """As the owner, at the end of the session: a new one, the same players."""
        return await self.client.play_again()

    async def play_duplicate(self) -> Reply:
        """As the owner, at the end of the session: the same deals, everyone one seat on."""
        return await self.client.play_duplicate()

    async def step_away(self) -> None:
        """Go without a goodbye: the host's stand-in bot plays and the seat's claim stays
        on disk for the next ``join``."""
        self._closed = True
        self.client.reconnect = False
        await self.client.drop()

    async def close(self) -> None:
        """Leave the table for good: the seat is given up and its claim forgotten."""
        self._closed = True
        await self.client.close()
        self._forget()


# Goodbyes after which the seat's token is worth nothing any more.
FORGET_ON = frozenset({"session_over", "left", "table_closed", "host_stopping"})


def connect(address: str, name: str, language: str, pin: str | None,
            spectate: bool = False, host_key: str | None = None) -> NetConnection:
    """A connection to a table; ``host_key``: the fingerprint it advertised, if any."""
    host, port = parse_address(address)
    return NetConnection(host, port, name, language, pin, spectate, seats=SeatStore(),
                         host_key=host_key, known=KnownHosts())


def holds_seat(address: str, name: str) -> bool:
    """Whether a seat's token at ``address`` is kept for ``name`` (no PIN needed: the
    token proves the seat)."""
    host, port = parse_address(address)
    return SeatStore().get(table_key(host, port, None, name)) is not None


class HostedTable:
    """A host running in this process (``play --bots``; the tests' tables): it ends with
    the window."""

    def __init__(self, host: Host, table: Table, journal: Journal | None = None,
                 web: WebServer | None = None) -> None:
        self.host, self.table = host, table
        self.journal = journal
        self.web = web

    async def stop(self) -> None:
        await self.host.stop()
        if self.web is not None:
            await self.web.stop()
        if self.journal is not None:
            self.journal.close()


async def _serve(options: TableOptions, listen: list[str] | None,
                 journal: Journal | None = None, web: bool = False) -> tuple[HostedTable, int]:
    hook = TableJournal(journal) if journal is not None else None
    table = Table(options, journal=hook)
    host = Host([table], key=load_host_key())
    port = await host.start(listen, 0)
    if hook is not None:
        hook.host["port"] = port  # president host --resume listens there again
    server = None
    if web:  # the page for phones; a table that cannot serve it still plays
        from president.cli.web import web_server  # aiohttp: only for a table that serves

        server = web_server(host)
        try:
            await server.start(listen, 0)
        except OSError:
            server = None
        else:
            if hook is not None:
                hook.host["web_port"] = server.port
    return HostedTable(host, table, journal, server), port


async def local_table(name: str, language: str, *, bots: int, preset: str, rules: Any,
                      seed: int | None, bot_delay: float = BOT_DELAY,
                      levels: Sequence[str] = (), level: str = DEFAULT_LEVEL,
                      bot_budget: float = DEFAULT_BUDGET, again_wait: float = 0.0
                      ) -> tuple[HostedTable, NetConnection]:
    """``play --bots N``: a table on 127.0.0.1 that is not advertised, joined at once.
    ``levels``: of the bots one by one (the others play at ``level``); ``again_wait``:
    seconds the finished session waits for us to play again (0: it closes)."""
    rules = rules or PRESETS[preset]
    check_player_count(rules, bots + 1)
    # a human alone with bots: wait for them between hands, never replace them
    owner = secrets.token_hex(16)
    options = TableOptions(name=name, preset=preset, rules=rules, seats=bots + 1, bots=bots,
                           seed=seed, bot_delay=bot_delay, ready_timeout=0.0, grace=3600.0,
                           bot_kind=level, bot_levels=tuple(levels), bot_budget=bot_budget,
                           owner_token=owner, again_wait=again_wait)
    hosted, port = await _serve(options, ["127.0.0.1"])
    connection = NetConnection("127.0.0.1", port, name, language, token=owner)
    connection.owner = True
    return hosted, connection


async def host_table(setup: Any, name: str, language: str
                     ) -> tuple[None, NetConnection]:
    """The set-up screen's table, in a host process of its own (``cli.hosting``): it
    outlives this window; we sit down at it as its owner."""
    table = await hosting.open_table(setup, interfaces())
    return None, join_my_table(table, name, language)


def my_tables() -> list[Any]:
    """The tables this user opened from the lobby whose host still runs, then those
    whose host is gone in the middle of a session (``session``: to resume)."""
    return [*hosting.my_tables(), *hosting.unfinished_tables()]


def stop_my_table(table: Any) -> bool:
    """End a running table for everyone (True: after the hand in play); forget an
    unfinished one."""
    if table.session is not None:
        hosting.forget(table)
        return False
    playing = hosting.in_play(table)
    hosting.stop(table)
    return playing


async def resume_my_table(table: Any) -> Any:
    return await hosting.resume(table, interfaces())


def join_my_table(table: Any, name: str, language: str) -> NetConnection:
    """Sit down (again) at one of ``hosting.my_tables()`` as its owner."""
    host, port = parse_address(table.address)
    connection = NetConnection(host, port, name, language, table.pin, token=table.owner_token)
    connection.owner = True
    connection.address = table.shown
    connection.web_url = table.web_url
    connection.unadvertised = not table.advertised
    return connection


async def host_in_process(setup: Any, name: str, language: str, seed: int | None = None, *,
                          bot_delay: float = BOT_DELAY, journal: Journal | None = None,
                          again_wait: float = hosting.AGAIN_WAIT
                          ) -> tuple[HostedTable, NetConnection]:
    """The set-up screen's table in this process, not advertised (the tests' seeded
    tables): it ends with the window."""
    options = TableOptions(name=setup.name, preset=setup.preset, rules=setup.rules,
                           seats=setup.players, bots=setup.bots, pin=setup.pin, seed=seed,
                           bot_delay=bot_delay, turn_timer=float(setup.turn_timer),
                           bot_kind=setup.level, bot_levels=tuple(setup.levels),
                           owner_token=secrets.token_hex(16), again_wait=again_wait,
                           hints=getattr(setup, "hints", True),
                           late_arrivals=getattr(setup, "late_arrivals", "take"))
    listen = interfaces()
    # Journaled like `president host`: after a crash, `president host --resume` brings
    # the table back where it was and the players' clients return by themselves.
    hosted, port = await _serve(options, listen, journal=journal or Journal(), web=True)
    address = "127.0.0.1" if listen is None else listen[0]
    connection = NetConnection(address, port, name, language, setup.pin,
                               token=options.owner_token)
    connection.owner = True
    connection.address = format_address(address, port)
    if hosted.web is not None:
        connection.web_url = hosted.web.urls(reachable_addresses(listen))[0]
    return hosted, connection


def browser(on_change: Any) -> TableBrowser:
    return TableBrowser(interfaces(), on_change=on_change)

"""The client's way to the network: connect, host, browse, parse addresses.

A thin adapter over ``president.net``: ``NetConnection`` gives the UI the
``TableConnection`` shape over ``president.net.client.Client``.
``$PRESIDENT_INTERFACES`` (comma list of addresses) limits where a hosted table
listens and where zeroconf runs; tests set it to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

from president.errors import PresidentError
from president.net.client import Client
from president.net.discovery import TableAdvertiser, TableBrowser, format_address
from president.net.discovery import parse_address as _parse_address
from president.net.errors import ClientError, JoinRefused, ProtocolError
from president.net.host import Host
from president.net.journal import Journal
from president.net.persist import TableJournal
from president.net.protocol import PROTOCOL_VERSION
from president.net.table import Table, TableOptions
from president.rules import PRESETS

ENV_INTERFACES = "PRESIDENT_INTERFACES"
BOT_DELAY = 0.8            # seconds a bot waits, so that a human can follow the game
RETRY_SECONDS = 2.0


class LocalTableError(PresidentError):
    """A local table that cannot be made (``bad_player_count``)."""


def interfaces() -> list[str] | None:
    raw = os.environ.get(ENV_INTERFACES, "").strip()
    return [part.strip() for part in raw.split(",") if part.strip()] or None


def parse_address(text: str) -> tuple[str, int]:
    return _parse_address(text)


class NetConnection:
    """A seat at a table over the network, for the UI (see ``cli/connection.py``)."""

    def __init__(self, host: str, port: int, name: str, language: str,
                 pin: str | None = None, spectate: bool = False) -> None:
        self.client = Client(host, port, name, language, pin=pin, spectate=spectate,
                             on_update=self._update)
        self.listener: Any = None
        self.extra_info: dict[str, Any] = {}   # what this client knows besides the host
        self._closed = False

    @property
    def seat(self) -> int | None:
        return self.client.seat

    @property
    def info(self) -> dict[str, Any]:
        return {**table_info(self.client.info or {}), **self.extra_info}

    async def start(self, listener: Any) -> None:
        """Connect (retrying while the host cannot be reached) and feed ``listener``."""
        self.listener = listener
        listener.status_changed("connecting")
        while not self._closed:
            try:
                await self.client.connect()
                break
            except JoinRefused as refusal:
                listener.status_changed("refused", refusal.code)
                return
            except (OSError, TimeoutError, ProtocolError) as error:
                listener.status_changed("lost", type(error).__name__)
                await asyncio.sleep(RETRY_SECONDS)
        if self.client.view is not None:
            listener.view_changed(self.client.view)

    def _update(self, kind: str, payload: dict[str, Any]) -> None:
        listener = self.listener
        if listener is None:
            return
        if kind == "state":
            listener.view_changed(payload)
        elif kind == "event":
            listener.event(payload)
        elif kind == "table":
            listener.status_changed(self._status())
        elif kind == "status":
            status = {"reconnecting": "lost"}.get(payload["status"], payload["status"])
            listener.status_changed(status, payload.get("code"))

    def _status(self) -> str:
        return {"reconnecting": "lost", "new": "connecting"}.get(self.client.status,
                                                                 self.client.status)

    async def send_action(self, action: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = await self.client.send_action(action)
        except ClientError as error:
            return {"accepted": False, "reason": error.code}
        if reply.get("type") == "accepted":
            return {"accepted": True}
        return {"accepted": False, "reason": reply.get("code", "refused")}

    async def start_now(self) -> dict[str, Any]:
        return await self.send_action({"type": "start"})

    async def close(self) -> None:
        self._closed = True
        await self.client.close()


def table_info(raw: dict[str, Any]) -> dict[str, Any]:
    """The host's table info with the names the UI reads."""
    info = dict(raw)
    info.setdefault("seats_total", raw.get("seats"))
    return info


def connect(address: str, name: str, language: str, pin: str | None,
            spectate: bool = False) -> NetConnection:
    host, port = parse_address(address)
    return NetConnection(host, port, name, language, pin, spectate)


class HostedTable:
    """A host running in this process, maybe advertised; ``stop`` ends both."""

    def __init__(self, host: Host, table: Table, advertiser: TableAdvertiser | None,
                 journal: Journal | None = None) -> None:
        self.host, self.table, self.advertiser = host, table, advertiser
        self.journal = journal
        self._updates: set[asyncio.Task[Any]] = set()
        if advertiser is not None:
            table.on_change = self._changed

    def _changed(self, table: Table) -> None:
        assert self.advertiser is not None
        task = asyncio.ensure_future(self.advertiser.update(txt(table)))
        self._updates.add(task)
        task.add_done_callback(self._updates.discard)

    async def stop(self) -> None:
        if self.advertiser is not None:
            with contextlib.suppress(Exception):
                await self.advertiser.stop()
        await self.host.stop()
        if self.journal is not None:
            self.journal.close()


def txt(table: Table) -> dict[str, str]:
    return {"seats": f"{table.taken}/{len(table.seats)}", "preset": table.options.preset,
            "proto": str(PROTOCOL_VERSION), "pin": "1" if table.options.pin else "0"}


async def _serve(options: TableOptions, listen: list[str] | None, advertise: bool,
                 journal: Journal | None = None) -> tuple[HostedTable, int]:
    hook = TableJournal(journal) if journal is not None else None
    table = Table(options, journal=hook)
    host = Host([table])
    port = await host.start(listen, 0)
    if hook is not None:
        hook.host["port"] = port  # president host --resume listens there again
    advertiser = None
    if advertise:
        advertiser = TableAdvertiser(options.name, port, [], txt(table), interfaces=listen)
        try:
            await advertiser.start()
        except Exception:
            await host.stop()
            raise
    return HostedTable(host, table, advertiser, journal), port


async def local_table(name: str, language: str, *, bots: int, preset: str, rules: Any,
                      seed: int | None) -> tuple[HostedTable, NetConnection]:
    """``play --bots N``: a table on 127.0.0.1 that is not advertised, joined at once."""
    rules = rules or PRESETS[preset]
    if not rules.min_players <= bots + 1 <= rules.max_players:
        raise LocalTableError("bad_player_count", value=bots + 1,
                              allowed=f"{rules.min_players}..{rules.max_players}")
    # a human alone with bots: wait for them between hands, never replace them
    options = TableOptions(name=name, preset=preset, rules=rules, seats=bots + 1, bots=bots,
                           seed=seed, bot_delay=BOT_DELAY, ready_timeout=0.0, grace=3600.0)
    hosted, port = await _serve(options, ["127.0.0.1"], advertise=False)
    return hosted, NetConnection("127.0.0.1", port, name, language)


async def host_table(setup: Any, name: str, language: str,
                     seed: int | None = None) -> tuple[HostedTable, NetConnection]:
    """The set-up screen's table: listened on and advertised on the LAN."""
    options = TableOptions(name=setup.name, preset=setup.preset, rules=setup.rules,
                           seats=setup.players, bots=setup.bots, pin=setup.pin, seed=seed,
                           bot_delay=BOT_DELAY, turn_timer=float(setup.turn_timer))
    listen = interfaces()
    # Journaled like `president host`: after a crash, `president host --resume` brings
    # the table back where it was and the players' clients return by themselves.
    hosted, port = await _serve(options, listen, advertise=True, journal=Journal())
    address = "127.0.0.1" if listen is None else listen[0]
    connection = NetConnection(address, port, name, language, setup.pin)
    shown = hosted.advertiser.addresses if hosted.advertiser else [address]
    if setup.turn_timer:
        connection.extra_info["turn_timer"] = setup.turn_timer
    connection.extra_info["address"] = ", ".join(format_address(a, port) for a in shown)
    return hosted, connection


def browser(on_change: Any) -> TableBrowser:
    return TableBrowser(interfaces(), on_change=on_change)

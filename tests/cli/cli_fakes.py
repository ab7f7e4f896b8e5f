"""A bridge for the terminal's tests: real hosts on 127.0.0.1 and real connections;
only the LAN browser is scripted and bots move at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from president.cli import netbridge
from president.net.host import Host
from president.net.table import Table, TableOptions
from president.rules import HouseRules
from president.state import State


@dataclass
class FakeInfo:
    instance: str
    name: str
    addresses: list[str]
    port: int
    seats_taken: int
    seats_total: int
    preset: str
    protocol: int = 1
    pin_required: bool = False
    key: str | None = None
    late_seat: bool = False
    late_ask: bool = False

    @property
    def full(self) -> bool:
        return self.seats_taken >= self.seats_total

    @property
    def watch_only(self) -> bool:
        return self.full and not self.late_seat


class FakeBrowser:
    def __init__(self, on_change: Any) -> None:
        self.on_change = on_change
        self.tables: dict[str, FakeInfo] = {}
        self.started = False

    async def start(self) -> None:
        self.started = True

    async def stop(self) -> None:
        self.started = False

    def set(self, tables: dict[str, FakeInfo]) -> None:
        self.tables = dict(tables)
        self.on_change()


class LaterConnection:
    """A connection to a table started when the UI sits down (a join by address)."""

    def __init__(self, bridge: TestBridge, name: str, language: str) -> None:
        self.bridge, self.name, self.language = bridge, name, language
        self.address: str | None = None
        self.inner: netbridge.NetConnection | None = None

    async def start(self, on_event: Any) -> None:
        _, self.inner = await self.bridge.local_table(
            self.name, self.language, bots=3, preset="classic", rules=None, seed=None)
        await self.inner.start(on_event)

    async def act(self, action: Any) -> Any:
        assert self.inner is not None
        return await self.inner.act(action)

    async def close(self) -> None:
        if self.inner is not None:
            await self.inner.close()


@dataclass
class TestBridge:
    """``president.cli.netbridge`` with the test's table: ``rules`` and ``bots`` for the
    next table, or ``state`` to sit down at a session already under way (seat 0)."""

    seed: int = 3
    rules: HouseRules | None = None
    state: State | None = None
    browsers: list[FakeBrowser] = field(default_factory=list)
    joined: list[tuple[str, str | None]] = field(default_factory=list)
    host_keys: list[str | None] = field(default_factory=list)  # the key each join expects
    watching: list[bool] = field(default_factory=list)          # ... and whether to watch
    hosted: list[Any] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    connections: list[netbridge.NetConnection] = field(default_factory=list)
    background: bool = False        # host_table: a real background host (cli.hosting)
    answering: bool = True          # a table answers at any address typed
    parse_address = staticmethod(netbridge.parse_address)
    my_tables = staticmethod(netbridge.my_tables)
    stop_my_table = staticmethod(netbridge.stop_my_table)
    join_my_table = staticmethod(netbridge.join_my_table)
    resume_my_table = staticmethod(netbridge.resume_my_table)
    holds_seat = staticmethod(netbridge.holds_seat)

    async def local_table(self, name: str, language: str, *, bots: int, preset: str,
                          rules: Any, seed: int | None, **bot_options: Any) -> tuple[Any, Any]:
        if self.state is not None:
            return await self._resumed(name, language)
        hosted, connection = await netbridge.local_table(
            name, language, bots=bots, preset=preset, rules=self.rules or rules,
            seed=self.seed, bot_delay=0.0, **bot_options)
        self.tables.append(hosted.table)
        self.connections.append(connection)
        return hosted, connection

    async def _resumed(self, name: str, language: str) -> tuple[Any, Any]:
        state = self.state
        assert state is not None
        seats = [{"name": player, "token": "ab" * 16 if seat == 0 else None,
                  "kind": "human" if seat == 0 else "bot"}
                 for seat, player in enumerate(state.players)]
        options = TableOptions(name="Test table", rules=state.rules, seats=len(seats),
                               seed=state.seed, bot_delay=0.0, ready_timeout=0.0,
                               grace=3600.0)
        table = Table.restore(options, state, 0, seats)
        host = Host([table])
        port = await host.start(["127.0.0.1"], 0)
        connection = netbridge.NetConnection("127.0.0.1", port, name, language)
        connection.client.session.token = "ab" * 16
        self.tables.append(table)
        self.connections.append(connection)
        return netbridge.HostedTable(host, table), connection

    async def answers_as_table(self, host: str, port: int) -> bool:
        return self.answering

    def connect(self, address: str, name: str, language: str, pin: str | None,
                spectate: bool = False, host_key: str | None = None) -> Any:
        self.joined.append((address, pin))
        self.host_keys.append(host_key)
        self.watching.append(spectate)
        return LaterConnection(self, name, language)

    async def host_table(self, setup: Any, name: str, language: str) -> tuple[Any, Any]:
        self.hosted.append(setup)
        if self.background:
            return await netbridge.host_table(setup, name, language)
        return await netbridge.host_in_process(setup, name, language, seed=self.seed,
                                               bot_delay=0.0)

    def browser(self, on_change: Any) -> FakeBrowser:
        browser = FakeBrowser(on_change)
        self.browsers.append(browser)
        return browser


FakeBridge = TestBridge

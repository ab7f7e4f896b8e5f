"""A bridge that keeps everything in this process (no sockets)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from president.cli.connection import LocalTable
from president.cli.netbridge import parse_address
from president.rules import PRESETS


class NoHost:
    stopped = False

    async def stop(self) -> None:
        self.stopped = True


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


@dataclass
class FakeBridge:
    seed: int = 3
    table: LocalTable | None = None
    browsers: list[FakeBrowser] = field(default_factory=list)
    joined: list[tuple[str, str | None]] = field(default_factory=list)
    hosted: list[Any] = field(default_factory=list)
    parse_address = staticmethod(parse_address)

    def make_table(self, name: str, bots: int, preset: str = "classic", rules: Any = None
                   ) -> LocalTable:
        players = [name] + [f"Bot{i}" for i in range(1, bots + 1)]
        self.table = LocalTable(rules or PRESETS[preset], players, seed=self.seed,
                                name="Test table", preset=preset)
        return self.table

    async def local_table(self, name: str, language: str, *, bots: int, preset: str,
                          rules: Any, seed: int | None) -> tuple[Any, Any]:
        return NoHost(), self.table or self.make_table(name, bots, preset, rules)

    def connect(self, address: str, name: str, language: str, pin: str | None,
                spectate: bool = False) -> Any:
        self.joined.append((address, pin))
        return self.table or self.make_table(name, 3)

    async def host_table(self, setup: Any, name: str, language: str) -> tuple[Any, Any]:
        self.hosted.append(setup)
        return NoHost(), self.make_table(name, setup.bots, setup.preset, setup.rules)

    def browser(self, on_change: Any) -> FakeBrowser:
        browser = FakeBrowser(on_change)
        self.browsers.append(browser)
        return browser

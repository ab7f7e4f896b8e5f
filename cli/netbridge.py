"""The client's way to the network: connect, host, browse, parse addresses.

A thin adapter over ``president.net``; until a piece of it exists, a local
in-process table stands in for ``play --bots``.
"""

from __future__ import annotations

from typing import Any

from president.cli.connection import LocalTable
from president.rules import PRESETS

BOT_NAMES = ("Ada", "Bruno", "Chiara", "Dirk", "Ewa", "Femke", "Gino", "Hanna")


class _NoHost:
    async def stop(self) -> None:
        return None


async def local_table(name: str, language: str, *, bots: int, preset: str, rules: Any,
                      seed: int | None) -> tuple[Any, Any]:
    players = [name, *BOT_NAMES[:bots]]
    table = LocalTable(rules or PRESETS[preset], players, seed=seed or 0, bot_delay=0.6,
                       name=name, preset=preset)
    return _NoHost(), table


def parse_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(text)
    return host.strip("[]"), int(port)


def connect(address: str, name: str, language: str, pin: str | None,
            spectate: bool = False) -> Any:
    raise NotImplementedError("net client")


async def host_table(setup: Any, name: str, language: str) -> tuple[Any, Any]:
    raise NotImplementedError("net host")


def browser(on_change: Any) -> Any:
    raise NotImplementedError("discovery")

"""What the UI talks to: a table connection, and an in-process table for tests.

A connection tells a ``Listener`` about new views, events and its status
(``connecting``, ``connected``, ``lost``, ``closed``), and sends action dicts,
answering ``{"accepted": True}`` or ``{"accepted": False, "reason": code}``.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from president.actions import action_from_dict
from president.bots import make_bot
from president.engine import apply, new_session
from president.errors import PresidentError
from president.events import Event, project_event
from president.rules import HouseRules
from president.state import State
from president.view import view


class Listener(Protocol):
    def view_changed(self, view: dict[str, Any]) -> None: ...
    def event(self, event: dict[str, Any]) -> None: ...
    def status_changed(self, status: str, detail: str | None = None) -> None: ...


class TableConnection(Protocol):
    seat: int | None
    info: dict[str, Any]

    async def start(self, listener: Listener) -> None: ...
    async def send_action(self, action: dict[str, Any]) -> dict[str, Any]: ...
    async def close(self) -> None: ...


class LocalTable:
    """The engine in this process, seat 0 for the player and bots elsewhere.

    ``bot_delay`` seconds between bot moves (0 in tests); ``step`` lets a test
    run bots synchronously instead.
    """

    def __init__(self, rules: HouseRules, players: list[str], seed: int = 0,
                 bot_delay: float = 0.0, name: str = "Local", preset: str = "classic",
                 state: State | None = None) -> None:
        self.seat: int | None = 0
        self.rules = rules
        self.info: dict[str, Any] = {
            "name": name, "preset": preset, "rules": rules.to_dict(),
            "seats_total": len(players), "players": list(players),
        }
        events: list[Event] = []
        if state is None:
            state, events = new_session(rules, players, seed)
        self.state = state
        self.bots = {seat: make_bot("random", seed + seat) for seat in range(1, len(players))}
        self.bot_delay = bot_delay
        self.listener: Listener | None = None
        self._pending = list(events)
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    async def start(self, listener: Listener) -> None:
        self.listener = listener
        listener.status_changed("connected")
        self._publish(self._pending)
        self._pending = []
        self._task = asyncio.get_running_loop().create_task(self._bots_loop())

    def _publish(self, events: list[Any]) -> None:
        assert self.listener is not None
        for event in events:
            self.listener.event(project_event(event, self.seat).to_dict())
        self.listener.view_changed(view(self.state, self.seat).to_dict())

    def _apply(self, action_dict: dict[str, Any]) -> dict[str, Any]:
        try:
            action = action_from_dict(action_dict)
            self.state, events = apply(self.state, action)
        except PresidentError as error:
            return {"accepted": False, "reason": error.code}
        except (KeyError, TypeError):
            return {"accepted": False, "reason": "bad_action"}
        self._publish(events)
        self._wake.set()
        return {"accepted": True}

    def bot_step(self) -> bool:
        """Let one bot act if one may; whether it did."""
        for seat, bot in self.bots.items():
            seat_view = view(self.state, seat)
            options = [a for a in seat_view.legal if type(a).__name__ != "Decree"]
            if options:
                self.state, events = apply(self.state, bot.choose(seat_view))
                self._publish(events)
                return True
        return False

    async def _bots_loop(self) -> None:
        while True:
            if self.bot_step():
                await asyncio.sleep(self.bot_delay)
                continue
            self._wake.clear()
            await self._wake.wait()

    async def send_action(self, action: dict[str, Any]) -> dict[str, Any]:
        return self._apply({**action, "seat": self.seat})

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self.listener is not None:
            self.listener.status_changed("closed")

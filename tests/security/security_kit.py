"""Helpers for the journal, abuse and failure tests: deterministic bot clients, raw sockets."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from rawpeer import LOCAL, Raw, frame, hello  # noqa: F401  (re-exported)

from president.actions import action_from_dict
from president.engine import apply, new_session
from president.net.client import Client
from president.rules import HouseRules, preset
from president.state import Phase
from president.view import View, view

T = TypeVar("T")


def run(coroutine: Awaitable[T], timeout: float = 60.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(coroutine, timeout)
    return asyncio.run(bounded())


def short_rules(name: str = "classic", hands: int = 3, **changes: Any) -> HouseRules:
    return HouseRules.from_dict({"session_end": "hands", "session_length": hands, **changes},
                                preset(name))


# ---------------------------------------------------------------- a deterministic player


def my_move(v: dict[str, Any] | None, salt: int = 0) -> dict[str, Any] | None:
    """The move this seat makes now, from its view alone, or None (not its move).

    When several seats may act (tax returns, ready) only the lowest such seat moves,
    so a whole table of these players plays one fixed sequence of actions, however
    the frames are timed, dropped or replayed after a reconnect.
    """
    if v is None or v["seat"] is None:
        return None
    legal = [a for a in v["legal"] if a["type"] != "decree"]
    if not legal:
        return None
    seat = v["seat"]
    if v["phase"] == "tax" and v["tax_pending"] and seat != min(v["tax_pending"]):
        return None
    if v["phase"] == "hand_over":
        waiting = [s for s in range(len(v["players"])) if s not in v["ready"]]
        if seat != min(waiting):
            return None
    digest = hashlib.sha256(json.dumps([salt, v], sort_keys=True).encode()).digest()
    return random.Random(digest).choice(legal)


def uninterrupted(rules: HouseRules, players: list[str], seed: int,
                  salt: int = 0) -> list[dict[str, Any]]:
    """The actions a table of ``my_move`` players takes, straight through the engine."""
    state, _ = new_session(rules, players, seed)
    taken = []
    while state.phase is not Phase.SESSION_OVER:
        moves = [(seat, my_move(view(state, seat).to_dict(), salt)) for seat in state.seats]
        movers = [(seat, move) for seat, move in moves if move is not None]
        assert len(movers) == 1, movers
        seat, move = movers[0]
        action = {**move, "seat": seat}
        state, _ = apply(state, action_from_dict(action))
        taken.append(action)
    return taken


def wire(view: View | None) -> dict[str, Any] | None:
    """The view as it came over the wire (what ``my_move`` hashes)."""
    return view.to_dict() if view is not None else None


async def play_steadily(client: Client, salt: int = 0,
                        stop: Callable[[Client], bool] = lambda c: False,
                        pause: float = 0.0) -> int:
    """Play ``my_move`` until the client is closed (or ``stop``); the refusals seen.
    ``pause``: seconds to think before each move."""
    refusals = 0

    def ready(c: Client) -> bool:
        return c.status == "closed" or stop(c) or (
            c.status == "connected" and my_move(wire(c.view), salt) is not None)

    while True:
        await client.wait_for(ready, timeout=60)
        if client.status == "closed" or stop(client):
            return refusals
        if pause:
            await asyncio.sleep(pause)
            if client.status != "connected" or my_move(wire(client.view), salt) is None:
                continue
        move = my_move(wire(client.view), salt)
        assert move is not None
        seen = client.view
        reply = await client.act(action_from_dict({**move, "seat": client.seat}), timeout=10)
        if reply.code in ("disconnected", "not_connected", "timeout", "closed"):
            await asyncio.sleep(0.05)  # dropped meanwhile: the client returns, a snapshot follows
            continue
        if not reply.accepted:
            refusals += 1
            if client.view is seen:  # nothing new: wait for the next frame
                await client.wait_for(
                    lambda c, seen=seen: c.view is not seen or c.status != "connected",
                    timeout=60)


async def wait_until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    async def polling() -> None:
        while not predicate():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(polling(), timeout)

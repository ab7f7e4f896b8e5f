"""Helpers for the host tests: a table on 127.0.0.1 port 0, recording clients, checks."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

from rawpeer import LOCAL, Raw  # noqa: F401  (re-exported for the tests)

from president.actions import Decree
from president.cards import Card
from president.errors import NotationError
from president.net.client import Client
from president.net.host import Host
from president.net.protocol import Message, Reply
from president.net.table import Table, TableOptions

T = TypeVar("T")


def run(coroutine: Awaitable[T], timeout: float = 30.0) -> T:
    """Run a test coroutine with a generous overall timeout."""
    async def bounded() -> T:
        return await asyncio.wait_for(coroutine, timeout)
    return asyncio.run(bounded())


async def start_table(host_options: dict[str, Any] | None = None,
                      **options: Any) -> tuple[Host, Table, int]:
    options.setdefault("ready_timeout", 0)
    options.setdefault("seed", 7)
    table = Table(TableOptions(**options))
    host = Host([table], **(host_options or {}))
    port = await host.start([LOCAL])
    return host, table, port


class Recorder(Client):
    """A client that keeps every message it decodes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.frames: list[dict[str, Any]] = []

    def _receive(self, msg: Message) -> None:
        self.frames.append(msg.to_wire())  # as sent on the wire
        super()._receive(msg)


def whole_views(frames: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """The whole view (``View.to_dict()``) a client holds after each ``state`` or
    ``view_delta`` among ``frames`` (with no gap), with the frame's index."""
    views: list[tuple[int, dict[str, Any]]] = []
    held: dict[str, Any] = {}
    for index, msg in enumerate(frames):
        if msg["type"] in ("state", "view_delta"):
            held = dict(msg["view"]) if msg["type"] == "state" else {**held, **msg["view"]}
            views.append((index, held))
    return views


def wants_to_act(client: Client) -> bool:
    view = client.view
    return view is not None and any(not isinstance(a, Decree) for a in view.legal)


async def autoplay(client: Client, seed: int,
                   until: Callable[[Client], bool] = lambda c: False) -> list[Reply]:
    """Random legal actions until the client is closed (or ``until``); the refusals seen."""
    rng = random.Random(seed)
    refusals = []
    while client.status != "closed" and not until(client):
        await client.wait_for(lambda c: c.status == "closed" or until(c) or wants_to_act(c))
        if client.status == "closed" or until(client):
            break
        assert client.view is not None
        legal = [a for a in client.view.legal if not isinstance(a, Decree)]
        reply = await client.act(rng.choice(legal), timeout=10)
        if reply.code in ("disconnected", "closed", "not_connected", "timeout"):
            continue  # closed meanwhile; the loop condition decides
        if not reply.accepted:
            # A stale view (a state frame still in flight) may refuse; never twice in a row.
            refusals.append(reply)
            await asyncio.sleep(0)
    return refusals


async def wait_until(predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    """Poll a host-side condition (the table runs in this loop)."""
    async def polling() -> None:
        while not predicate():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(polling(), timeout)


# ---------------------------------------------------------------- hidden cards


def card_tokens(value: Any) -> Iterator[Card]:
    """Every card named anywhere in ``value`` (strings split on spaces), but what a legal
    play's wild jokers may stand for (its ``declared``: a card named, not a card held)."""
    if isinstance(value, str):
        for token in value.split():
            try:
                yield Card.parse(token)
            except NotationError:
                pass
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "declared":
                yield from card_tokens(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_tokens(item)


PUBLIC_VIEW_KEYS = {"pile", "top_rank", "top", "players", "discards"}  # discards: face up


def check_no_hidden_cards(frames: list[dict[str, Any]], seat: int | None) -> int:
    """Every card a seat is shown outside the public pile and plays must have been its own
    (dealt to it, or handed to it in a tax exchange or a 7-pass it took part in). Returns
    frames checked."""
    allowed: set[Card] = set()
    checked = 0
    for msg in frames:
        if msg["type"] == "event":
            event = msg["event"]
            assert "hands" not in event
            kind = event["type"]
            if kind == "deal":
                assert ("cards" in event) == (seat is not None)
                allowed = set(card_tokens(event.get("cards", "")))
                continue
            if kind in ("tax", "give") and "cards" in event:  # a tax transfer, a 7-pass
                assert seat in (event["from"], event["to"]), event
                if event["to"] == seat:
                    allowed |= set(card_tokens(event["cards"]))
            if kind in ("play", "discard"):
                continue  # public
            assert set(card_tokens(event)) <= allowed, (seat, event)
            checked += 1
        elif msg["type"] in ("state", "view_delta"):  # a whole view, or what changed
            view = msg["view"]
            assert view.get("seat", seat) == seat
            if seat is None:
                assert all(view.get(key, empty) == empty for key, empty in
                           (("hand", ""), ("legal", []), ("tax_mine", [])))
            elif "hand" in view and "counts" in view:
                assert len(view["hand"].split()) == view["counts"][seat]
            private = {k: v for k, v in view.items() if k not in PUBLIC_VIEW_KEYS}
            assert set(card_tokens(private)) <= allowed, (seat, view)
            checked += 1
    return checked

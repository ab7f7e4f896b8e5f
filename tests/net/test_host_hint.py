"""Hints from the host (issue 28, the page's Hint button): a player asks, the host answers
with the medium bot's ideas for that seat's own view, as codes; a spectator, a table not
started or one whose owner turned hints off is refused. Real host on 127.0.0.1."""

from __future__ import annotations

import asyncio
from typing import Any

from president.bots.advice import REASONS, suggestion_from_dict
from president.bots.medium import MediumBot
from president.net.client import Client
from president.net.host import Host
from president.net.table import Table, TableOptions

LOCAL = "127.0.0.1"


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 60))


async def ask(hints: bool) -> dict[str, Any]:
    table = Table(TableOptions(name="Kitchen", seats=4, bots=3, seed=5, bot_delay=0,
                               ready_timeout=0, hints=hints))
    host = Host([table])
    port = await host.start([LOCAL])
    anna = Client(LOCAL, port, "Anna", reconnect=False)
    seen: dict[str, Any] = {}
    try:
        await anna.connect()
        await anna.wait_for(lambda c: c.table is not None and c.view is not None
                            and c.view.turn == c.seat and c.view.phase == "play")
        seen["info"] = anna.table
        seen["view"] = anna.view
        seen["reply"] = await anna.hint()
        watcher = Client(LOCAL, port, "Wes", spectate=True, reconnect=False)
        await watcher.connect()
        seen["spectator"] = await watcher.hint()
        await watcher.close()
    finally:
        await host.stop()
    return seen


def test_the_host_answers_a_hint_with_the_bots_ideas_for_the_seats_view() -> None:
    seen = run(ask(True))
    reply, view = seen["reply"], seen["view"]
    assert reply.accepted and seen["info"].hints
    ideas = [suggestion_from_dict(data) for data in reply.params["hints"]]
    assert ideas and all(idea.action in view.legal and idea.reason in REASONS for idea in ideas)
    assert ideas[0].action == MediumBot().suggest(view)[0].action
    assert seen["spectator"].code == "spectator"


def test_a_table_without_hints_refuses_them() -> None:
    seen = run(ask(False))
    assert not seen["info"].hints
    assert seen["reply"].code == "hints_off"

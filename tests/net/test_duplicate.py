"""The duplicate game: the owner plays the same deals again with everyone one seat on,
and at its end every seat's two players (before, now) are compared. Real host."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace
from typing import Any

from netkit import autoplay, wait_until

from president.net.client import Client
from president.net.host import Host
from president.net.session import GameEvent
from president.net.table import Table, TableOptions
from president.rules import PRESETS

LOCAL = "127.0.0.1"


def test_the_same_deals_again_one_seat_on_and_the_comparison() -> None:
    owner = secrets.token_hex(16)
    rules = replace(PRESETS["classic"], session_end="hands", session_length=1)

    async def scenario() -> dict[str, Any]:
        table = Table(TableOptions(name="Kitchen", seats=3, ready_timeout=0, rules=rules,
                                   owner_token=owner, again_wait=60, grace=600))
        host = Host([table])
        port = await host.start([LOCAL])
        seen: list[Any] = []
        try:
            ann = Client(LOCAL, port, "Ann", token=owner, reconnect=False,
                         on_event=seen.append)
            others = [Client(LOCAL, port, name, reconnect=False) for name in ("Bea", "Cy")]
            await ann.connect()
            for client in others:
                await client.connect()
            await wait_until(lambda: table.state is not None)
            first = table.state.hands
            everyone = [ann, *others]
            over = lambda c: c.view is not None and c.view.phase == "session_over"  # noqa: E731
            await asyncio.gather(*(autoplay(c, n, until=over) for n, c in enumerate(everyone)))
            await wait_until(lambda: table.awaiting_again)
            before = list(table.state.players)
            reply = await ann.play_duplicate()
            await wait_until(lambda: table.state is not None and table.state.hand_number == 1
                             and table.state.phase.value != "session_over")
            second, players = table.state.hands, list(table.state.players)
            await asyncio.gather(*(autoplay(c, n + 7, until=over) for n, c in enumerate(everyone)))
            await ann.wait_for(lambda c: any(isinstance(e, GameEvent)
                                             and e.event.code == "duplicate" for e in seen))
            told = next(e.event.params for e in seen if isinstance(e, GameEvent)
                        and e.event.code == "duplicate")
            for client in everyone:
                await client.close()
            return dict(reply=reply.code, first=first, second=second, before=before,
                        players=players, told=told, final=list(table.state.scores))
        finally:
            await host.stop()

    seen = asyncio.run(asyncio.wait_for(scenario(), 90))
    assert seen["reply"] is None
    assert seen["second"] == seen["first"]                      # the same deal, seat by seat
    assert seen["before"] == ["Ann", "Bea", "Cy"] and seen["players"] == ["Cy", "Ann", "Bea"]
    told = seen["told"]
    assert told["before"] == seen["before"] and told["players"] == seen["players"]
    assert told["scores"] == seen["final"]

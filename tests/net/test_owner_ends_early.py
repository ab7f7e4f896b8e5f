"""A session its owner ends early is not the end of the table: the others stay seated,
the owner may change the rules and play again with the same people (a table that waits
for its owner, as one opened from the lobby does). Real host on 127.0.0.1."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace
from typing import Any

from netkit import autoplay, wait_until

from president.net.client import Client
from president.net.host import Host
from president.net.table import Table, TableOptions
from president.rules import PRESETS

LOCAL = "127.0.0.1"


def test_the_owner_ends_early_changes_the_rules_and_plays_again() -> None:
    owner = secrets.token_hex(16)
    other_rules = replace(PRESETS["classic"], session_length=3)

    async def scenario() -> dict[str, Any]:
        table = Table(TableOptions(name="Kitchen", seats=3, bots=1, ready_timeout=0,
                                   owner_token=owner, again_wait=60, bot_delay=0.0,
                                   rules=PRESETS["classic"]))
        host = Host([table])
        port = await host.start([LOCAL])
        try:
            anna = Client(LOCAL, port, "Anna", token=owner, reconnect=False)
            await anna.connect()
            bea = Client(LOCAL, port, "Bea", reconnect=False)
            await bea.connect()
            await anna.wait_for(lambda c: c.view is not None)
            early_rules = await anna.change_rules("classic", other_rules)  # in play: no
            ended = await anna.end_session()
            players = [asyncio.ensure_future(autoplay(c, n, until=lambda c: c.view is not None
                                                      and c.view.phase == "session_over"))
                       for n, c in enumerate((anna, bea))]
            await asyncio.gather(*players)
            await wait_until(lambda: table.awaiting_again)
            seen = {"early_rules": early_rules.code, "ended": ended.code,
                    "hands": table.state.hand_number if table.state else None,
                    "over": table.over, "bea": bea.status, "waiting": bea.table.again}
            guest_rules = await bea.change_rules("classic", other_rules)
            rules = await anna.change_rules("classic", other_rules)
            again = await anna.play_again()
            await bea.wait_for(lambda c: c.view is not None and c.view.phase != "session_over")
            seen.update(guest_rules=guest_rules.code, rules=rules.code, again=again.code,
                        new_rules=table.rules, bea_seat=bea.seat, sessions=table.sessions)
            await anna.close()
            await bea.close()
            return seen
        finally:
            await host.stop()

    seen = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert seen["early_rules"] == "already_started" and seen["ended"] is None
    assert seen["hands"] == 1 and not seen["over"]           # ended after the hand in play
    assert seen["bea"] == "connected" and seen["waiting"]    # the others stay seated
    assert seen["guest_rules"] == "not_owner" and seen["rules"] is None
    assert seen["again"] is None and seen["new_rules"] == other_rules
    assert seen["bea_seat"] == 1 and seen["sessions"] == 2

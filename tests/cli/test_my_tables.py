"""A table belongs to its host, not to a window: a table opened from the lobby runs in a
background ``president host`` (real processes, on 127.0.0.1); its owner leaves, comes
back from "my tables", and ends it for everyone."""

from __future__ import annotations

import asyncio
import os
import signal
from types import SimpleNamespace

import pytest
from cli_fakes import FakeBridge
from netkit import autoplay, wait_until

from president.cli import hosting, netbridge
from president.net.client import Client
from president.rules import PRESETS, load_rules

ESC = "\x1b"

pytestmark = pytest.mark.slow


def setup(**changes: object) -> SimpleNamespace:
    values = dict(name="Garden", preset="classic", rules=PRESETS["classic"], players=3, bots=0,
                  pin=None, turn_timer=0, level="easy", levels=())
    return SimpleNamespace(**{**values, **changes})


def test_the_rules_file_given_to_the_host_holds_the_set_up_rules() -> None:
    from dataclasses import replace
    rules = replace(PRESETS["bga"], session_length=3, decree=True)
    assert load_rules(hosting.rules_toml("bga", rules)) == ("bga", rules)


def test_the_owner_crashes_the_table_plays_on_and_the_owner_comes_back() -> None:
    async def scenario():
        _, owner = await netbridge.host_table(setup(bots=1, levels=("easy",)), "Ada", "en")
        (mine,) = hosting.my_tables()
        events: list = []
        await owner.start(events.append)
        guest = Client("127.0.0.1", mine.port, "Bea", reconnect=False)
        await guest.connect()
        await guest.wait_for(lambda c: c.view is not None)     # every seat taken: dealt
        seat = owner.client.seat
        await owner.step_away()                     # no goodbye, no reconnecting: a crash
        await guest.wait_for(lambda c: c.table.states[seat] in ("disconnected", "away"))
        again = netbridge.join_my_table(mine, "Ada", "en")
        await again.start(events.append)
        await guest.wait_for(lambda c: c.table.states[seat] == "playing")
        back = again.client.seat, again.client.view is not None
        hosting.stop(mine)                                       # after this hand
        players = [asyncio.ensure_future(autoplay(c, n)) for n, c in
                   enumerate((guest, again.client))]
        await guest.wait_for(lambda c: c.status == "closed", timeout=120)
        await asyncio.gather(*players)
        await again.close()
        return seat, back, guest.bye.code, mine

    seat, back, bye, mine = asyncio.run(scenario())
    assert back == (seat, True)
    assert bye == "session_over"
    asyncio.run(wait_until(lambda: not hosting.my_tables()))


def test_my_tables_in_the_lobby_sit_down_again_and_end_it(run_ui) -> None:
    bridge = FakeBridge(background=True)
    seen: dict[str, object] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.open_set_up()
        d.keys("\ry")                                           # Open the table
        await d.until(lambda: ui.screen == "table" and ui.table.table is not None, "the table")
        (mine,) = hosting.my_tables()
        seen["pid"] = mine.pid
        d.keys(ESC)                                             # back to the lobby
        screen = await d.screen_shows("your table")
        assert "★ Tester's table" in screen
        assert os.kill(mine.pid, 0) is None                     # the host runs on
        guest = Client("127.0.0.1", mine.port, "Bea", reconnect=False)
        await guest.connect()
        d.keys("\r")                                            # sit down at it again
        await d.screen_shows("2 of 3 seats taken")
        assert ui.table.owner
        d.keys(ESC)
        await d.screen_shows("your table")
        d.keys("x")
        await d.screen_shows("for everyone? y yes")
        d.keys("y")
        await d.screen_shows("“Tester's table” is closed.")    # no hand was dealt yet
        await guest.wait_for(lambda c: c.status == "closed")
        seen["bye"] = guest.bye.code
        await d.until(lambda: not hosting.my_tables(), "the table to end")
        await d.until(lambda: not any(e[0] == "mine" for e in ui.lobby.entries()), "the lobby")

    run_ui(scenario, bridge=bridge)
    assert seen["bye"] == "host_stopping"


def test_a_host_that_dies_mid_session_is_resumed_from_my_tables() -> None:
    """The background host is SIGKILLed in the middle of a hand: the table is listed as
    unfinished; resuming it starts its host again from the journal on the same port,
    the guest's client comes back by itself with the same hand, the owner too."""
    async def scenario():
        _, owner = await netbridge.host_table(setup(bots=1, levels=("easy",)), "Ada", "en")
        (mine,) = hosting.my_tables()
        await owner.start(lambda event: None)
        guest = Client("127.0.0.1", mine.port, "Bea")            # reconnects by itself
        await guest.connect()
        await guest.wait_for(lambda c: c.view is not None)
        seat, hand = owner.client.seat, guest.view.hand
        await owner.step_away()
        os.kill(mine.pid, signal.SIGKILL)                          # the host's laptop dies
        await wait_until(lambda: not hosting.my_tables())
        (unfinished,) = hosting.unfinished_tables()
        again = await hosting.resume(unfinished, ["127.0.0.1"])
        await guest.wait_for(lambda c: c.status == "connected" and c.view is not None)
        back = netbridge.join_my_table(again, "Ada", "en")
        await back.start(lambda event: None)
        await back.client.wait_for(lambda c: c.view is not None)
        ended = await back.end_session()
        result = (unfinished.session, again.port == mine.port, guest.view.hand == hand,
                  back.client.seat == seat, ended.code, hosting.unfinished_tables())
        hosting.stop(again, now=True)
        await guest.close()
        await back.close()
        return result

    session, same_port, same_hand, same_seat, ended, unfinished = asyncio.run(scenario())
    assert session is not None and same_port and same_hand and same_seat
    assert ended is None and unfinished == []     # the owner is still the owner


def test_the_lobby_offers_to_resume_an_unfinished_table(run_ui) -> None:
    async def crashed() -> None:
        _, owner = await netbridge.host_table(setup(name="Garden", bots=2,
                                                    levels=("easy", "easy")), "Tester", "en")
        (mine,) = hosting.my_tables()
        await owner.start(lambda event: None)
        await owner.client.wait_for(lambda c: c.view is not None)
        await owner.step_away()
        os.kill(mine.pid, signal.SIGKILL)
        await wait_until(lambda: not hosting.my_tables())

    asyncio.run(crashed())

    async def scenario(d) -> None:
        ui = d.ui
        screen = await d.screen_shows("unfinished: Enter resume · x forget")
        assert "☆ Garden" in screen
        d.keys("\r")
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "the table")
        assert ui.table.owner and ui.table.view.hand_number == 1
        await d.screen_shows("hand 1")

    run_ui(scenario, bridge=FakeBridge(background=True))

"""Coming back tells the story: no PIN asked of a seat's own token, the whole score
sheet, and what the bot did while we were away."""

from __future__ import annotations

import time

import pytest
from cli_fakes import FakeBridge, FakeInfo

from president.cli.seats import SeatClaim, SeatStore, table_key


def test_a_found_table_where_we_hold_a_seat_asks_no_pin(run_ui) -> None:
    SeatStore().put(table_key("127.0.0.1", 4242, None, "Tester"),
                    SeatClaim("ab" * 16, "Tester", "Kitchen", time.time()))
    bridge = FakeBridge()

    async def scenario(d) -> None:
        await d.until(lambda: bridge.browsers, "browsing")
        bridge.browsers[0].set({"k": FakeInfo("Kitchen._president._tcp.local.", "Kitchen",
                                              ["127.0.0.1"], 4242, 3, 4, "classic",
                                              pin_required=True)})
        await d.screen_shows("Kitchen")
        d.keys("\r")
        await d.until(lambda: bridge.joined, "the join")
        assert bridge.joined == [("127.0.0.1:4242", None)]      # the token, not a PIN

    run_ui(scenario, bridge=bridge)


def test_a_player_who_sat_down_again_sees_the_whole_score_sheet() -> None:
    """Back at the table with no event seen before (a new window): every hand's totals
    (the view's results), not only those since the return."""
    from screens import make_ui, moments, table_info

    from president.cli.terminal.layout import score_sheet_lines
    from president.cli.terminal.model import TableModel
    from president.net.session import Joined, ViewChanged
    from president.view import view

    ui = make_ui("en", 80, 24)
    moment = moments(3)["session_over"]
    model = TableModel(ui.tr, ui.text)
    model.on_event(Joined(seat=0, table=table_info(moment.state)))
    model.on_event(ViewChanged(view(moment.state, 0)))          # no hand_end seen here
    totals = [event.params["scores"] for event in moment.events if event.code == "hand_end"]
    assert len(totals) == 2
    assert model.score_sheet == [(hand, list(scores)) for hand, scores in enumerate(totals, 1)]
    assert len([line for line in score_sheet_lines(model) if line.startswith("hand")]) == 2


@pytest.mark.slow
def test_a_return_after_the_bot_played_tells_the_story_and_the_log(run_ui) -> None:
    """Step away (Ctrl-Q, a), a bot plays three turns and more for us, come back from
    the same window: the catch-up line, the log of what happened, the whole score sheet."""
    import re
    from dataclasses import replace

    from president.cli import netbridge
    from president.net.host import Host
    from president.net.table import Table, TableOptions
    from president.rules import PRESETS

    rules = replace(PRESETS["classic"], session_end="hands", session_length=6)
    table = Table(TableOptions(name="Kitchen", seats=3, bots=2, ready_timeout=0.05,
                               bot_delay=0.02, grace=0.05, rules=rules))

    async def scenario(d) -> None:
        ui = d.ui
        host = Host([table])
        port = await host.start(["127.0.0.1"])
        try:
            await ui.join_address(f"127.0.0.1:{port}", None)
            await d.until(lambda: ui.table.view is not None, "the deal")
            d.keys("\x11")
            await d.screen_shows("a step away")
            d.keys("a")
            await d.until(lambda: ui.screen == "lobby", "the lobby")
            seat = table.seats[0]
            await d.until(lambda: seat.away_moves >= 3 and table.state.hand_number >= 2,
                          "three turns of the bot and a hand over")
            ui.spawn(ui.join_address(f"127.0.0.1:{port}", None))   # the claim: no PIN
            await d.until(lambda: ui.table is not None and any(
                "While you were away" in entry for entry in ui.table.log), "the story")
            line = next(entry for entry in ui.table.log if "While you were away" in entry)
            moves = int(re.search(r"the bot played (\d+) times for you", line).group(1))
            assert moves >= 3
            assert "you are now " in line
            assert any("A bot plays for you" in entry for entry in ui.table.log)
            hands = ui.table.view.hand_number - 1 if ui.table.view.phase != "hand_over" \
                else ui.table.view.hand_number
            assert len(ui.table.score_sheet) >= max(1, hands)
            assert seat.away_moves == 0 and not seat.missed        # told once
            assert ui.connection.client.gaps == 0    # the catch-up follows the view in sequence
        finally:
            await host.stop()

    run_ui(scenario, bridge=netbridge)


def test_join_by_address_where_we_hold_a_seat_asks_no_pin(run_ui) -> None:
    from president.cli.terminal.lobby import MENU

    SeatStore().put(table_key("127.0.0.1", 4000, None, "Tester"),
                    SeatClaim("cd" * 16, "Tester", "Kitchen", time.time()))
    bridge = FakeBridge()

    async def scenario(d) -> None:
        await d.screen_shows("Join by address")
        d.keys("\x1b[B" * MENU.index("join") + "\r")
        await d.screen_shows("Address (host:port):")
        d.keys("127.0.0.1:4000\r")
        await d.until(lambda: bridge.joined, "the join")
        assert bridge.joined == [("127.0.0.1:4000", None)]      # no PIN asked

    run_ui(scenario, bridge=bridge)

"""Coming back tells the story: no PIN asked of a seat's own token, the whole score
sheet, and what the bot did while we were away."""

from __future__ import annotations

import time

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

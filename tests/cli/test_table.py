"""The table screen driven by keys against an in-process engine with bots."""

from __future__ import annotations

from cli_fakes import FakeBridge

from president.actions import Play
from president.bots import make_bot
from president.cards import format_cards
from president.engine import apply, new_session
from president.rules import PRESETS
from president.view import view


def test_a_whole_hand_against_bots(run_ui) -> None:
    bridge = FakeBridge(seed=5)
    seen: dict[str, str] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table = ui.table
        first = await d.rendered()
        seen["first"] = first
        assert "Tester (you)" in first and "Bot 3" in first
        assert "13 cards" in first
        plays = 0
        while table.phase == "play":
            await d.until(lambda: (table.my_turn and not table.busy) or table.phase != "play",
                          "my turn")
            if table.phase != "play":
                break
            before = table.view
            if table.legal_of(Play):
                d.keys("l")
                await d.until(lambda: table.selected, "a selection")
                legal = {a.cards for a in table.legal_of(Play)}
                assert table.selected_cards() in legal
                d.keys("l")
                plays += 1
            else:
                d.keys("p")
            await d.until(lambda b=before: table.view is not b, "the table to move on")
        assert plays > 0
        assert table.phase == "hand_over"
        screen = await d.screen_shows("is over. Finishing order")
        seen["end"] = screen
        for name in table.view.players:
            assert name in screen
        assert "Next hand:" in screen  # the tax that will follow
        d.keys("\r")
        await d.until(lambda: table.view.hand_number == 2, "the next hand")

    run_ui(scenario, bridge=bridge,
           start=lambda ui: ui.play_bots(3, "classic", None))
    assert "Pile:" in seen["first"]
    assert any(title in seen["end"] for title in ("President", "Scum"))


def test_illegal_selection_says_why_and_sends_nothing(run_ui) -> None:
    bridge = FakeBridge(seed=5)
    sent: list = []

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.my_turn, "my turn")
        real_act = ui.connection.act

        async def spy(action):
            sent.append(action)
            return await real_act(action)

        ui.connection.act = spy
        model = ui.table
        hand = model.hand_cards()
        ranks = {card.rank for card in hand}
        assert len(ranks) >= 2
        # select the first card and one of another rank: a mixed set
        other = next(i for i, card in enumerate(hand) if card.rank != hand[0].rank)
        d.keys(" ")
        d.keys("\x1b[C" * other + " ")
        await d.until(lambda: len(model.selected) == 2, "two cards selected")
        d.keys("\r")
        screen = await d.screen_shows(ui.text.reason("mixed_ranks"))
        assert "▲" in screen
        assert sent == []
        # leading: passing is not allowed either
        if not model.view.pile:
            d.keys("p")
            await d.screen_shows(ui.text.reason("must_lead"))
            assert sent == []

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))


def _tax_state(players: int = 4):
    """A session at the start of hand 2, seat 0 owing cards back (found by seed)."""
    for seed in range(200):
        state, _ = new_session(PRESETS["classic"], [f"P{i}" for i in range(players)], seed)
        bots = [make_bot("random", seed * 10 + i) for i in range(players)]
        while state.hand_number == 1:
            for seat in range(players):
                seat_view = view(state, seat)
                if seat_view.legal:
                    state, _ = apply(state, bots[seat].choose(seat_view))
                    break
        if state.phase.value == "tax" and view(state, 0).tax_owed:
            return state
    raise AssertionError("no seed gives seat 0 a tax to return")


def test_the_tax_return_is_a_real_choice(run_ui) -> None:
    state = _tax_state()
    owed = view(state, 0).tax_owed
    bridge = FakeBridge(state=state)

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        model = ui.table
        screen = await d.screen_shows("to give back")
        assert "choosing tax cards" in screen
        hand_before = model.view.hand
        # too few cards: refused locally with the reason
        d.keys(" \r")
        await d.screen_shows(ui.text.reason("wrong_count"))
        assert model.view.hand == hand_before
        # choose the highest cards (not the lowest, which a shortcut would pick)
        model.clear_selection()
        last = len(model.hand_cards()) - 1
        chosen = [str(model.hand_cards()[last - k]) for k in range(owed)]
        d.keys("\x1b[D" * (model.cursor + 1))  # wrap to the last card
        for _ in range(owed):
            d.keys(" \x1b[D")
        await d.until(lambda: len(model.selected) == owed, "the tax cards selected")
        d.keys("\r")
        await d.until(lambda: model.view.tax_owed == 0, "the tax return")
        mine = " ".join(format_cards(entry[2]) for entry in model.view.tax_mine)
        for card in chosen:
            assert card in mine
        await d.until(lambda: model.phase == "play", "play to start")

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))


def test_eight_players_fit_in_80x24_and_a_resize_redraws(run_ui) -> None:
    bridge = FakeBridge(seed=2)

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        screen = await d.rendered()
        rows = screen.splitlines()
        assert len(rows) == 24
        for name in ui.table.view.players:
            assert any(name in row for row in rows[:10]), name
        first_card = ui.text.card(str(ui.table.hand_cards()[0]))
        last_card = ui.text.card(str(ui.table.hand_cards()[-1]))
        hand_row = next(row for row in rows if first_card in row)
        assert last_card in hand_row  # the whole hand on one row
        assert "?" in rows[-1]  # the key line
        # a narrower terminal: the hand wraps onto two rows, nothing is lost
        ui.app.output.size = type(ui.app.output.size)(rows=24, columns=40)
        ui.app._on_resize()
        narrow = await d.rendered()
        hand_row = next(row for row in narrow.splitlines() if first_card in row)
        assert last_card not in hand_row and last_card in narrow

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(7, "classic", None))


def test_a_mouse_click_selects_a_card(run_ui) -> None:
    bridge = FakeBridge(seed=5)

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        model = ui.table
        screen = (await d.rendered()).splitlines()
        third = ui.text.card(str(model.hand_cards()[2]))
        y = next(i for i, row in enumerate(screen) if row.startswith(" ")
                 and ui.text.card(str(model.hand_cards()[0])) in row)
        x = screen[y].index(third)
        # SGR mouse: press and release at (x, y), 1-based
        d.keys(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")
        await d.until(lambda: model.selected == {2}, "the clicked card selected")
        screen = await d.rendered()
        assert f"[{third}]" in screen

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))


def _hand_over_with_president_at(seat: int = 0):
    from dataclasses import replace as _replace
    for seed in range(300):
        rules = _replace(PRESETS["classic"], decree=True)
        state, _ = new_session(rules, [f"P{i}" for i in range(4)], seed)
        bots = [make_bot("random", seed * 10 + i) for i in range(4)]
        while state.phase.value != "hand_over":
            for s in range(4):
                seat_view = view(state, s)
                options = [a for a in seat_view.legal if type(a).__name__ != "Decree"]
                if options:
                    state, _ = apply(state, bots[s].choose(seat_view))
                    break
        if state.roles[seat].value == "president":
            return state
    raise AssertionError("no seed makes seat 0 the President")


def test_the_president_writes_a_decree(run_ui) -> None:
    state = _hand_over_with_president_at(0)
    bridge = FakeBridge(state=state)

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        d.keys("d")
        await d.until(lambda: ui.editor is not None, "the decree editor")
        d.keys("Everyone sings\r")
        await d.until(lambda: ui.table.view.decree == "Everyone sings", "the decree")
        await d.screen_shows("Everyone sings")

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))


def test_the_session_ends_with_the_standings(run_ui) -> None:
    from dataclasses import replace as _replace

    bridge = FakeBridge(seed=11, rules=_replace(PRESETS["classic"], session_length=1))

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table = ui.table
        await d.play_the_hand_out()
        await d.until(lambda: table.phase == "session_over", "the end of the session")
        screen = await d.screen_shows(ui.tr.gettext("The session is over. Standings:"))
        assert "★" in screen
        winner = table.view.players[table.session_summary["winners"][0]]
        assert any(row.startswith("1.") and winner in row for row in screen.splitlines())

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))


def test_big_terminals_draw_boxed_cards_and_raise_the_selection(run_ui) -> None:
    bridge = FakeBridge(seed=5)

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        count = len(ui.table.hand_cards())
        rows = (await d.rendered()).splitlines()
        tops = [i for i, row in enumerate(rows) if "┌───┐" in row]
        assert len(tops) == 1 and rows[tops[0]].count("┌───┐") == count
        d.keys(" ")
        await d.until(lambda: ui.table.selected == {0}, "the first card selected")
        rows = (await d.rendered()).splitlines()
        raised = [i for i, row in enumerate(rows) if row.count("┌───┐") == 1]
        assert raised and rows[raised[0] + 1].count("┌───┐") == count - 1
        assert rows[raised[0]].startswith("┌───┐")
        # a click on the last card's box selects it too
        y = raised[0] + 2
        x = rows[y].rindex("│") - 2
        d.keys(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")
        await d.until(lambda: ui.table.selected == {0, count - 1}, "the clicked card")

    run_ui(scenario, bridge=bridge, columns=200, rows=50,
           start=lambda ui: ui.play_bots(3, "classic", None))


def test_the_end_of_a_local_game_comes_back_to_the_lobby(run_ui) -> None:
    """`president play`: Ctrl-Q, y closes the table with the bots and shows the lobby
    (the program stays open; Ctrl-Q there quits)."""
    bridge = FakeBridge(seed=5)

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        (table,) = bridge.tables
        d.keys("\x11")
        await d.screen_shows("Close this table and go back to the lobby? y yes")
        d.keys("y")
        await d.until(lambda: ui.screen == "lobby" and ui.table is None, "the lobby")
        await d.screen_shows("Play against bots")
        await d.until(lambda: table.over, "the local table to close")
        assert ui.app.is_running and ui.hosted is None
        d.keys("\x11")
        await d.until(lambda: not ui.app.is_running, "the program to end")

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))

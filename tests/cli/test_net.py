"""The client against the real host on 127.0.0.1: play, lose the connection, come back."""

from __future__ import annotations

import asyncio

import pytest

from president.cli import netbridge


def test_lost_connection_is_shown_and_the_client_comes_back(run_ui, monkeypatch) -> None:
    monkeypatch.setattr(netbridge, "BOT_DELAY", 0.0)

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        model = ui.table
        assert model.status == "connected"
        hand = model.view.hand
        await ui.connection.client.drop()
        await d.screen_shows(ui.tr.gettext("Connection lost: reconnecting…"))
        await d.until(lambda: model.status == "connected", "the reconnection")
        await d.until(lambda: "Connection lost" not in d.safe_screen(), "the banner to go")
        assert model.view.hand == hand or model.view.hand_number > 1
        # the seat is ours again: an action goes through
        await d.until(lambda: model.my_turn, "my turn")
        before = model.view
        d.keys("l")
        await d.until(lambda: model.selected, "a selection")
        d.keys("l")
        await d.until(lambda: model.view is not before, "the play")
        assert model.message is None

    run_ui(scenario, bridge=netbridge, start=lambda ui: ui.play_bots(3, "classic", None, seed=7))


@pytest.mark.parametrize("language", ["it", "nl", "pl", "en"])
def test_a_wrong_pin_is_asked_again_in_place(run_ui, language) -> None:
    async def scenario(d) -> None:
        ui = d.ui
        hosted, connection = await netbridge.local_table(
            "Host", "en", bots=2, preset="classic", rules=None, seed=1)
        try:
            port = connection.client.port
            hosted.table.options.pin = "9999"
            await ui.join_address(f"127.0.0.1:{port}", "1111")
            await d.until(lambda: ui.table.status == "refused", "the refusal")
            await d.screen_shows(ui.tr.gettext("Wrong PIN. Type it again:"))
            assert ui.screen == "table"
            d.keys("9999\r")
            await d.until(lambda: ui.table.status == "connected", "the seat")
            assert ui.table.seat is not None
            await d.screen_shows(ui.tr.gettext("(you)"))
        finally:
            await hosted.stop()

    run_ui(scenario, bridge=netbridge, language=language)


def test_a_wrong_pin_then_esc_says_why_and_the_way_back(run_ui) -> None:
    async def scenario(d) -> None:
        ui = d.ui
        hosted, connection = await netbridge.local_table(
            "Host", "en", bots=2, preset="classic", rules=None, seed=1)
        try:
            hosted.table.options.pin = "9999"
            await ui.join_address(f"127.0.0.1:{connection.client.port}", "1111")
            await d.screen_shows("Wrong PIN. Type it again:")
            d.keys("\x1b")
            await d.screen_shows(ui.text.reason("wrong_pin"))
            await d.screen_shows("Press Esc to go back to the lobby.")
            d.keys("\x1b")
            await d.until(lambda: ui.screen == "lobby", "the lobby")
        finally:
            await hosted.stop()

    run_ui(scenario, bridge=netbridge)


def test_a_spectator_sees_the_table_but_no_hand(run_ui) -> None:
    async def scenario(d) -> None:
        ui = d.ui
        hosted, player = await netbridge.local_table(
            "Host", "en", bots=3, preset="classic", rules=None, seed=1)
        hosted.table.options.bot_delay = 0.0
        try:
            port = player.client.port
            hosted.table.request_start()
            await ui.join_address(f"127.0.0.1:{port}", None, spectate=True)
            await d.until(lambda: ui.table.view is not None, "the public view")
            assert ui.table.view.seat is None and ui.table.view.hand == ()
            await d.screen_shows(ui.tr.gettext("You are watching this table."))
        finally:
            await hosted.stop()

    run_ui(scenario, bridge=netbridge)


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("language", ["it", "nl", "pl", "en"])
def test_a_closed_port_says_so_at_once_and_esc_goes_back(run_ui, language) -> None:
    """`president join 127.0.0.1:PORT` where nothing listens: one sentence, no retrying."""
    port = _closed_port()

    async def scenario(d) -> None:
        ui = d.ui
        ui.spawn(ui.join_address(f"127.0.0.1:{port}", None))
        sentence = ui.text.reason("not_a_table", {"address": f"127.0.0.1:{port}"})
        assert f"127.0.0.1:{port}" in sentence
        await d.screen_shows(sentence[:60])
        assert ui.table.status == "refused"
        await d.screen_shows(ui.tr.gettext("Press Esc to go back to the lobby.")[:40])
        d.keys("\x1b")
        await d.until(lambda: ui.screen == "lobby" and ui.table is None, "the lobby")
        await d.screen_shows(ui.tr.gettext("Join by address…"))

    run_ui(scenario, bridge=netbridge, language=language)


def test_join_by_address_knocks_before_the_pin(run_ui) -> None:
    """The lobby asks for the PIN only where a table answers; the page's port does not."""
    from president.cli.terminal.lobby import MENU

    async def scenario(d) -> None:
        ui = d.ui
        hosted, _ = await netbridge.host_in_process(_setup(), "Ada", "en", bot_delay=0.0)
        try:
            assert hosted.web is not None
            page = hosted.web.port
            closed = _closed_port()
            await d.screen_shows("Join by address")
            d.keys("\x1b[B" * MENU.index("join") + "\r")
            for port in (closed, page):
                await d.screen_shows("Address (host:port):")
                d.keys("\x7f" * 30 + f"127.0.0.1:{port}\r")
                await d.screen_shows(f"Nothing at 127.0.0.1:{port} answers as a President table.")
                assert ui.editor is None and ui.screen == "lobby"
                d.keys("\r")                     # Join by address… again: the address typed
                await d.until(lambda: ui.editor is not None, "the address field")
                assert ui.editor.text == f"127.0.0.1:{port}"
        finally:
            await hosted.stop()

    run_ui(scenario, bridge=netbridge)


def test_answers_as_table_tells_a_table_from_the_page_and_a_closed_port() -> None:
    async def scenario() -> tuple[bool, bool, bool]:
        hosted, connection = await netbridge.host_in_process(_setup(), "Ada", "en",
                                                             bot_delay=0.0)
        try:
            assert hosted.web is not None
            return (await netbridge.answers_as_table("127.0.0.1", connection.client.port),
                    await netbridge.answers_as_table("127.0.0.1", hosted.web.port),
                    await netbridge.answers_as_table("127.0.0.1", _closed_port()))
        finally:
            await hosted.stop()

    assert asyncio.run(scenario()) == (True, False, False)


def _setup() -> object:
    from types import SimpleNamespace

    from president.rules import PRESETS

    return SimpleNamespace(name="Garden", preset="classic", rules=PRESETS["classic"],
                           players=3, bots=0, pin=None, turn_timer=0, level="easy", levels=())


def test_a_guest_waits_for_the_owner_and_an_early_start_is_refused(run_ui) -> None:
    from president.cli.terminal.layout import waiting_fragments
    from president.net.host import Host
    from president.net.table import Table, TableOptions

    async def scenario(d) -> None:
        ui = d.ui
        table = Table(TableOptions(name="Kitchen", seats=4, ready_timeout=0))
        host = Host([table])
        port = await host.start(["127.0.0.1"])
        try:
            await ui.join_address(f"127.0.0.1:{port}", None)
            await d.screen_shows(ui.tr.gettext("Waiting for the owner to start."))
            assert ui.tr.gettext("Press s to start now") not in d.safe_screen()
            d.keys("s")
            await d.screen_shows(ui.text.reason("owner_only"))
            assert not table.started
            ui.table.owner = True        # the owner's screen tells how to start
            shown = "".join(text for _, text, *_ in waiting_fragments(ui.table))
            assert ui.tr.gettext("Press s to start now: bots take the free seats.") in shown
        finally:
            await host.stop()

    run_ui(scenario, bridge=netbridge)


def _table_in_play() -> tuple[object, object]:
    from president.net.host import Host
    from president.net.table import Table, TableOptions

    table = Table(TableOptions(name="Kitchen", seats=3, bots=2, ready_timeout=0,
                               bot_delay=3600.0))
    return Host([table]), table


def _at_the_leave_question(run_ui, ask: str, then) -> None:
    """Sit down at a table in play, press ``ask`` (Ctrl-C or Ctrl-Q), see the question,
    then ``await then(driver, table)``."""
    from president.cli.seats import SeatStore

    async def scenario(d) -> None:
        ui = d.ui
        host, table = _table_in_play()
        port = await host.start(["127.0.0.1"])
        try:
            await ui.join_address(f"127.0.0.1:{port}", None)
            await d.until(lambda: ui.table.view is not None, "the deal")
            await d.until(lambda: len(SeatStore().all()) == 1, "the claim")
            d.keys(ask)
            await d.screen_shows(ui.tr.gettext("l leave for good"))
            await then(d, table)
        finally:
            await host.stop()

    run_ui(scenario, bridge=netbridge)


def test_ctrl_c_at_a_table_asks_and_esc_stays(run_ui) -> None:
    async def then(d, table) -> None:
        assert d.ui.app.is_running and table.seats[0].conn is not None
        d.keys("\x1b")                                   # Esc: stay
        await d.until(lambda: not d.ui.table.leave_asked, "the question to go")
        await asyncio.sleep(0.1)
        assert d.ui.app.is_running and table.seats[0].conn is not None

    _at_the_leave_question(run_ui, "\x03", then)        # Ctrl-C


def test_stepping_away_keeps_the_seat_and_its_claim(run_ui) -> None:
    from president.cli.seats import SeatStore

    async def then(d, table) -> None:
        d.keys("a")                                      # step away: back to the lobby
        await d.until(lambda: d.ui.screen == "lobby" and d.ui.table is None, "the lobby")
        await d.until(lambda: table.seats[0].conn is None, "the connection to go")
        await asyncio.sleep(0.1)
        assert table.seats[0].name == "Tester" and table.seats[0].token
        assert len(SeatStore().all()) == 1               # the claim stays on disk
        assert d.ui.app.is_running                       # the program stays open
        d.keys("\x11")                                   # Ctrl-Q in the lobby: quit
        await d.until(lambda: not d.ui.app.is_running, "the client to quit")

    _at_the_leave_question(run_ui, "\x11", then)        # Ctrl-Q


def test_leaving_for_good_gives_the_seat_up(run_ui) -> None:
    from president.cli.seats import SeatStore

    async def then(d, table) -> None:
        d.keys("l")                                      # leave for good: the lobby
        await d.until(lambda: d.ui.screen == "lobby" and d.ui.table is None, "the lobby")
        await d.until(lambda: len(SeatStore().all()) == 0, "the claim to be forgotten")
        await d.screen_shows(d.ui.tr.gettext("Join by address…"))
        assert d.ui.app.is_running

    _at_the_leave_question(run_ui, "\x03", then)


@pytest.mark.slow
def test_a_seat_asked_for_by_name_on_both_screens(run_ui) -> None:
    """The owner's screen shows who asks for a seat and y gives it; the asker's screen
    says it waits for the owner, then shows the seat's hand."""
    import secrets

    from president.net.client import Client
    from president.net.host import Host
    from president.net.table import Table, TableOptions

    async def scenario(d) -> None:
        ui = d.ui
        owner = secrets.token_hex(16)
        table = Table(TableOptions(name="Kitchen", seats=3, bots=1, ready_timeout=0,
                                   owner_token=owner, grace=3600, bot_delay=3600))
        host = Host([table])
        port = await host.start(["127.0.0.1"])
        try:
            anna = netbridge.NetConnection("127.0.0.1", port, "Anna", "en", token=owner)
            anna.owner = True
            await ui.sit_down(anna)
            bea = Client("127.0.0.1", port, "Bea", reconnect=False)
            await bea.connect()
            await d.until(lambda: ui.table.view is not None, "the deal")
            seat, hand = bea.seat, bea.view.hand
            await bea.drop()                               # Bea's phone is gone
            await d.until(lambda: table.seats[seat].conn is None, "the drop")
            laptop = netbridge.NetConnection("127.0.0.1", port, "Bea", "en")
            asking: list = []
            task = asyncio.ensure_future(laptop.start(asking.append))
            await d.screen_shows("Bea asks for their seat from another device: y give it")
            assert any(getattr(e, "code", None) == "seat_request_sent" for e in asking)
            d.keys("y")
            await task
            await laptop.client.wait_for(lambda c: c.view is not None)
            assert laptop.client.seat == seat and laptop.client.view.hand == hand
            await d.until(lambda: "asks for their seat" not in d.safe_screen(), "the ask to go")
            await laptop.close()
        finally:
            await host.stop()

    run_ui(scenario, bridge=netbridge)


def test_the_asker_is_told_the_owner_decides() -> None:
    from president.cli.terminal import layout
    from president.cli.terminal.model import Seen, TableModel
    from president.cli.ui_text import load_texts

    for language in ("en", "it", "nl", "pl"):
        tr, text = load_texts(language)
        model = TableModel(tr, text)
        model.status_changed(Seen.LOST, "seat_request_sent")
        shown = layout.status_text(model)
        assert shown == tr.gettext("Asked the table's owner for your seat: waiting… (Esc: back)")
        assert language == "en" or "Asked" not in shown

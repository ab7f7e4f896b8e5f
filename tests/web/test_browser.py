"""The page in a real headless Chromium at phone size (360x640), against a real host on
127.0.0.1: it plays with a terminal client, comes back after a reload, shows its own
language, and never receives another seat's cards."""

from __future__ import annotations

import asyncio
import gettext
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    PHONE,
    HostThread,
    browser_test_marks,
    by_id,
    checked_browser,
    close_browser,
    hand_on_page,
    join,
    make_browser,
    my_turn,
    play_turn,
    text_of,
    wait,
    ws_frames,
    ws_sent,
)
from netkit import check_no_hidden_cards

from president.actions import Decree, Ready
from president.cli.terminal.layout import players_fragments, summary_fragments
from president.cli.terminal.model import TableModel
from president.cli.text import text_for
from president.cli.ui_text import load_texts
from president.net.client import Client

pytestmark = browser_test_marks()


@pytest.fixture
def browser() -> Iterator[Any]:
    with checked_browser(frames=True) as driver:
        yield driver


async def terminal_player(client: Client, until: Any) -> None:
    """A terminal client's player: the lowest legal play (else pass, ready), until ``until``."""
    while not until():
        view = client.view
        if view is None or not [a for a in view.legal if not isinstance(a, Decree)]:
            await asyncio.sleep(0.01)
            continue
        action = next((a for a in view.legal if isinstance(a, Ready)), None) or \
            choose_for(client)
        await client.act(action, timeout=10)


def choose_for(client: Client) -> Any:
    assert client.view is not None
    return choose_view(client.view)


def choose_view(view: Any) -> Any:
    from president.actions import GiveBack, Pass, Play

    give = [a for a in view.legal if isinstance(a, GiveBack)]
    if give:
        return give[0]
    plays = [a for a in view.legal if isinstance(a, Play)]
    if not plays:
        return next(a for a in view.legal if isinstance(a, Pass))
    return plays[0]


def play_page_until(driver: Any, host: HostThread, seat: int, done: Any) -> int:
    """The page plays its turns until ``done``; the number of moves it made."""
    moves = 0
    while not done():
        if my_turn(host, seat):
            play_turn(driver, host, seat)
            moves += 1
        else:
            wait(lambda: done() or my_turn(host, seat), what="the page's turn or the end")
    return moves


def hand_over(host: HostThread) -> bool:
    state = host.table.state
    return state is not None and state.phase.value in ("hand_over", "session_over")


def test_a_phone_page_and_a_terminal_client_play_a_whole_hand_each_in_their_language(
        browser: Any) -> None:
    host = HostThread(name="Kitchen", seats=3, bots=1, bot_delay=0.0)
    try:
        join(browser, host.url, "Ola", "pl")
        wait(lambda: host.seat_of("Ola") is not None, what="the page's seat")
        page_seat = host.seat_of("Ola")
        tr, text = load_texts("it")
        model = TableModel(tr, text)
        client = Client("127.0.0.1", host.port, "Gianni", "it", on_event=model.on_event)
        host.call(client.connect())
        playing = host.spawn(terminal_player(client, lambda: hand_over(host)))
        wait(lambda: host.table.started, what="the deal")
        # the page shows its own hand, as the host dealt it
        dealt = sorted(str(c) for c in host.table.state.hands[page_seat])
        wait(lambda: sorted(hand_on_page(browser)) == dealt, what="the dealt hand on the page")
        moves = play_page_until(browser, host, page_seat, lambda: hand_over(host))
        playing.result(10)
        assert moves > 0
        # the end of the hand, in each player's language
        roles = host.table.state.roles
        assert roles is not None
        wait(lambda: by_id(browser, "summary").is_displayed(), what="the summary")
        polish, english, italian = text_for("pl"), text_for("en"), text_for("it")
        summary = text_of(browser, "summary")
        for role in roles:
            assert polish.role_title(role, "classic") in summary
        assert any(english.role_title(r, "classic") not in summary for r in roles)
        wait(lambda: model.hand_summary is not None, what="the terminal's summary")
        terminal = "".join(str(f[1]) for f in summary_fragments(model) + players_fragments(model))
        for role in roles:
            assert italian.role_title(role, "classic") in terminal
        assert any(polish.role_title(r, "classic") not in terminal for r in roles)
        # Ready on both sides deals the next hand
        assert by_id(browser, "act-main").text == polish.action("ready")
        by_id(browser, "act-main").click()
        host.call(client.act(Ready(client.seat or 0)))
        wait(lambda: host.table.state.hand_number == 2, what="the second deal")
        host.call(client.close())
    finally:
        host.stop()


def test_a_page_reloaded_mid_hand_gets_its_seat_back(browser: Any) -> None:
    host = HostThread(name="Den", seats=3, bots=2, bot_delay=0.0)
    try:
        join(browser, host.url, "Kasia", "nl")
        wait(lambda: host.table.started, what="the deal")
        seat = host.seat_of("Kasia")
        assert seat is not None
        token = host.table.seats[seat].token
        moves = 0
        while moves < 2 and not hand_over(host):
            wait(lambda: my_turn(host, seat) or hand_over(host))
            if my_turn(host, seat):
                play_turn(browser, host, seat)
                moves += 1
        stored = browser.execute_script("return localStorage.getItem('president.seat.main')")
        assert token in stored
        browser.refresh()
        wait(lambda: by_id(browser, "table-screen").is_displayed(), what="the table again")
        wait(lambda: host.table.seats[seat].conn is not None, what="the seat reclaimed")
        assert host.seat_of("Kasia") == seat and host.table.seats[seat].token == token
        assert host.table.taken == 3 and host.table.seats[seat].standin is None
        held = sorted(str(c) for c in host.table.state.hands[seat])
        wait(lambda: sorted(hand_on_page(browser)) == held, what="the same hand after reload")
        assert "(ik)" in text_of(browser, "seats") or "Kasia" in text_of(browser, "seats")
        if not hand_over(host):  # and it plays on
            wait(lambda: my_turn(host, seat) or hand_over(host))
            if my_turn(host, seat):
                play_turn(browser, host, seat)
    finally:
        host.stop()


def test_no_websocket_frame_to_the_page_holds_another_seats_hidden_card(browser: Any) -> None:
    host = HostThread(name="Hall", seats=4, bots=2, bot_delay=0.0)
    try:
        join(browser, host.url, "Eva", "en")
        client = Client("127.0.0.1", host.port, "Tom", "it")
        host.call(client.connect())
        playing = host.spawn(terminal_player(client, lambda: hand_over(host)))
        wait(lambda: host.table.started, what="the deal")
        seat = host.seat_of("Eva")
        others = {str(card) for s, hand in enumerate(host.table.state.hands) if s != seat
                  for card in hand}
        play_page_until(browser, host, seat, lambda: hand_over(host))
        playing.result(10)
        wait(lambda: by_id(browser, "summary").is_displayed(), what="the summary")
        frames = ws_frames(browser)
        assert [f["type"] for f in frames[:3]] == ["challenge", "confirm", "welcome"]
        assert check_no_hidden_cards(frames, seat) > 20
        # and the raw view never names a card another seat was dealt, outside the pile
        for frame in frames:
            if frame["type"] in ("state", "view_delta"):  # a whole view, or what changed
                view = frame["view"]
                assert not others & set(view.get("hand", "").split())
                assert not others & {c for a in view.get("legal", [])
                                     for c in a.get("cards", "").split()}
        host.call(client.close())
    finally:
        host.stop()


def test_the_pages_plural_rule_and_msgpack_agree_with_python(browser: Any) -> None:
    import msgpack

    from president.cli.web.texts import _catalog

    host = HostThread(name="Lab", seats=3)
    try:
        browser.get(host.url)
        wait(lambda: by_id(browser, "join-screen").is_displayed())
        for language in ("pl", "it"):
            catalog = _catalog(language)
            expected = [gettext.c2py(catalog.plural_expr)(n) for n in range(0, 230)]
            got = browser.execute_async_script("""
                const [expr, done] = arguments;
                import('/static/i18n.js').then((m) => {
                  const f = m.compilePlural(expr);
                  done([...Array(230).keys()].map(f));
                });""", catalog.plural_expr)
            assert got == expected, language
        sample = {"type": "hello", "version": 2, "name": "Zoë ♥", "n": [0, -1, 127, 128, -33,
                  255, 65535, 65536, -129, -40000, 2**32, 1.5, None, True, False],
                  "long": "x" * 300, "map": {str(i): i for i in range(20)}}
        encoded = browser.execute_async_script("""
            const [value, done] = arguments;
            import('/static/vendor.js').then((m) => {
              const bytes = m.encode(value);
              done([Array.from(bytes), m.decode(bytes), Array.from(m.encode(value.n))]);
            });""", sample)
        assert msgpack.unpackb(bytes(encoded[0])) == sample == encoded[1]
        # the same bytes as Python's msgpack, format by format (a list keeps its order)
        assert bytes(encoded[2]) == msgpack.packb(sample["n"], use_bin_type=True)
    finally:
        host.stop()


def test_the_page_does_what_a_terminal_player_does(browser: Any) -> None:
    """PIN, start early, chat both ways, the rules, watching, the decree, leaving."""
    import dataclasses

    from president.actions import Decree as DecreeAction
    from president.net.session import ChatReceived
    from president.rules import preset

    rules = dataclasses.replace(preset("classic"), decree=True)
    # seed 1: the page ends the hand as President (seed 2: the terminal client does)
    host = HostThread(name="Attic", seats=3, pin="1234", rules=rules, bot_delay=0.0,
                      bot_kind="random", seed=1)
    watcher = make_browser(frames=True)
    polish = text_for("pl")
    try:
        # a PIN: the form asks for it, a wrong one is refused in the player's language
        join(browser, host.url, "Ola", "pl", seated=False)  # no PIN typed
        wait(lambda: polish.reason("wrong_pin") in text_of(browser, "join-message"))
        assert by_id(browser, "join-pin-row").is_displayed()
        by_id(browser, "join-pin").send_keys("1234")
        by_id(browser, "join-play").click()
        wait(lambda: host.seat_of("Ola") is not None, what="seated with the PIN")
        sent, raw = ws_sent(browser)  # the PIN was proved, never sent
        assert [m["type"] for m in sent].count("proof") == 2 and b"1234" not in raw
        chats: list[Any] = []
        client = Client("127.0.0.1", host.port, "Gianni", "it", pin="1234",
                        on_event=lambda e: chats.append(e) if isinstance(e, ChatReceived) else None)
        host.call(client.connect())
        # start early: only the owner may (the terminal's words: a guest waits for them)
        wait(lambda: polish.tr.gettext("Waiting for the owner to start.")
             in text_of(browser, "prompt"), what="waiting for the owner")
        assert not by_id(browser, "act-main").is_displayed()
        assert not host.table.started
        host.loop.call_soon_threadsafe(host.table.request_start)
        wait(lambda: host.table.started, what="the early start")
        assert any(seat.is_bot for seat in host.table.seats)
        # chat both ways
        by_id(browser, "open-chat").click()
        by_id(browser, "chat-text").send_keys("Cześć!")
        browser.find_element("css selector", "#chat-form button").click()
        wait(lambda: any(c.text == "Cześć!" and c.name == "Ola" for c in chats), what="chat out")
        browser.find_element("css selector", "#chat-dialog form[method=dialog] button").click()
        host.call(client.chat("Ciao!"))
        wait(lambda: "Gianni: Ciao!" in text_of(browser, "log"), what="chat in")
        # the house rules, in Polish
        by_id(browser, "open-rules").click()
        wait(lambda: polish.rule_name("decree") in text_of(browser, "rules-dialog")
             and polish.rule_name("tax") in text_of(browser, "rules-dialog"), what="the rules")
        browser.find_element("css selector", "#rules-dialog form[method=dialog] button").click()
        # someone watches from another phone, in Dutch, and sees no hand
        join(watcher, host.url, "Wim", "nl", spectate=True, pin="1234")
        wait(lambda: host.table.spectators, what="the spectator")
        wait(lambda: text_for("nl").tr.gettext("You are watching this table.")
             in text_of(watcher, "prompt"), what="the spectator's prompt")
        assert hand_on_page(watcher) == []
        # the hand is played; the President decrees
        seat = host.seat_of("Ola")
        playing = host.spawn(terminal_player(client, lambda: hand_over(host)))
        play_page_until(browser, host, seat, lambda: hand_over(host))
        playing.result(10)
        state = host.table.state
        president = next(s for s in range(3) if state.roles and state.roles[s] == "president")
        if president == seat:
            wait(lambda: by_id(browser, "decree-form").is_displayed(), what="the decree form")
            by_id(browser, "decree-text").send_keys("Śpiewamy!")
            by_id(browser, "decree-send").click()
        else:
            assert not by_id(browser, "decree-form").is_displayed()
            if host.table.seats[president].is_bot:
                decree = None
            else:
                host.call(client.act(DecreeAction(president, "Cantiamo!")))
                decree = "Cantiamo!"
            if decree:
                wait(lambda: decree in text_of(browser, "log"), what="the decree on the page")
        if president == seat:
            wait(lambda: host.table.state.decree == "Śpiewamy!", what="the page's decree")
            wait(lambda: "Śpiewamy!" in text_of(watcher, "log"), what="the decree, watched")
        # the spectator never saw a card that was not on the pile
        assert check_no_hidden_cards(ws_frames(watcher), None) > 5
        # leaving for good: a bot plays the seat, the page forgets it
        by_id(browser, "open-rules").click()
        by_id(browser, "leave").click()
        browser.switch_to.alert.accept()
        wait(lambda: by_id(browser, "join-screen").is_displayed(), what="the join form")
        wait(lambda: host.table.seats[seat].standin is not None, what="a bot in the seat")
        assert browser.execute_script("return localStorage.getItem('president.seat.main')") is None
        host.call(client.close())
    finally:
        close_browser(watcher)
        host.stop()


def test_the_page_asks_what_a_wild_joker_stands_for(browser: Any) -> None:
    """A joker among the tapped cards: the page offers the legal values, most useful first,
    and plays the one tapped (Back returns to the hand)."""
    import dataclasses

    from president.cards import parse_cards
    from president.rules import HouseRules

    rules = HouseRules(jokers=1, joker_mode="wild", sequences=3)
    host = HostThread(name="Wild", seats=3, bots=2, rules=rules, bot_delay=0.0)
    italian = text_for("it")
    try:
        join(browser, host.url, "Ada", "it")
        wait(lambda: host.table.started, what="the deal")
        seat = host.seat_of("Ada")
        assert seat is not None
        wait(lambda: my_turn(host, seat), what="the page's turn")

        async def deal_a_joker() -> None:  # the page leads holding 5♣ 6♦ JK 9♥
            core = host.table.core
            assert core.state is not None
            hands = list(core.state.hands)
            hands[seat] = parse_cards("5C 6D JK 9H")
            core.state = dataclasses.replace(core.state, hands=tuple(hands), turn=seat,
                                             pile=(), top=None, last_player=None)
            core._broadcast([])
            host.table.perform(core.flush())

        host.call(deal_a_joker())
        wait(lambda: sorted(hand_on_page(browser)) == ["5C", "6D", "9H", "JK"], what="the joker")
        for card in ("5C", "6D", "JK"):
            browser.find_element("css selector", f"#hand [data-card='{card}']").click()
        by_id(browser, "act-main").click()
        wait(lambda: by_id(browser, "declare").is_displayed(), what="the chooser")
        values = [b.get_attribute("data-declared") for b in
                  browser.find_elements("css selector", "#declare [data-declared]")]
        assert values == ["7C", "4C"]  # the run 5-6-7 before 4-5-6, offered first
        assert "primary" in browser.find_element(
            "css selector", "#declare [data-declared='7C']").get_attribute("class")
        assert italian.tr.gettext("The joker stands for:") in text_of(browser, "declare")
        by_id(browser, "declare-back").click()
        wait(lambda: not by_id(browser, "declare").is_displayed(), what="back to the hand")
        version = host.table.version
        by_id(browser, "act-main").click()
        wait(lambda: by_id(browser, "declare").is_displayed(), what="the chooser again")
        browser.find_element("css selector", "#declare [data-declared='4C']").click()
        wait(lambda: host.table.version > version, what="the play")
        sent, _ = ws_sent(browser)
        plays = [m for m in sent if m["type"] == "play"]
        assert plays[-1]["cards"] == "5C 6D JK" and plays[-1]["declared"] == "4C"
        assert sorted(str(c) for c in host.table.state.hands[seat]) == ["9H"]
        wait(lambda: italian.played("5C 6D JK", "4C") in text_of(browser, "log"),
             what="the play in the log, the joker's value in words")
    finally:
        host.stop()


def test_the_hint_button_selects_the_hosts_idea_and_says_why(browser: Any) -> None:
    """Issue 28: the page's Hint button asks the host, which answers with the medium bot's
    ideas for the seat's own view as codes; the page selects the first and words it;
    a second press, the next idea. The page holds no bot of its own."""
    from president.bots.medium import MediumBot
    from president.cards import format_cards
    from president.view import view as view_of

    host = HostThread(name="Attic", seats=4, bots=3, bot_delay=0.0, seed=5)
    italian = text_for("it")
    try:
        join(browser, host.url, "Ola", "it")
        wait(lambda: host.seat_of("Ola") is not None, what="a seat")
        seat = host.seat_of("Ola")
        wait(lambda: my_turn(host, seat), what="the page's turn")
        state = host.table.state
        ideas = MediumBot(memory=host.table.seats[seat].memory).suggest(view_of(state, seat))
        wait(lambda: by_id(browser, "act-hint").is_displayed(), what="the Hint button")
        assert by_id(browser, "act-hint").text == italian.tr.gettext("Hint")
        # Italian's long "Suggerimento" beside Play and Pass: all three on the screen, whole
        assert browser.execute_script("""
            return [...document.querySelectorAll('#actions button')].filter((b) => !b.hidden)
              .every((b) => b.getBoundingClientRect().right <= arguments[0]
                            && b.scrollWidth <= b.clientWidth)""", PHONE["width"])
        by_id(browser, "act-hint").click()
        prefix = italian.tr.gettext("Hint: {move}: {why}").split("{")[0]
        wait(lambda: text_of(browser, "message").startswith(prefix), what="the hint")
        chosen = browser.execute_script(
            "return [...document.querySelectorAll('#hand [aria-pressed=true]')]"
            ".map(b => b.dataset.card)")
        first = ideas[0].action
        assert sorted(chosen) == sorted(format_cards(getattr(first, "cards", ())).split())
        assert [m["type"] for m in ws_sent(browser)[0]].count("hint_request") == 1
    finally:
        host.stop()


def test_the_pile_keeps_its_plays_in_view_when_a_hint_takes_two_lines(browser: Any) -> None:
    """A pile of three plays wraps to two rows on a small phone; a hint's two lines below
    the hand took their room from the pile, cutting the newest play (the one to beat).
    The log gives way instead, and where even that is not enough the page scrolls."""
    from president.rules import preset

    host = HostThread(name="Attic", seats=4, bots=3, bot_delay=0.0, seed=5,
                      rules=preset("daihinmin_local"))
    try:
        join(browser, host.url, "Ola", "nl")
        wait(lambda: host.seat_of("Ola") is not None, what="a seat")
        seat = host.seat_of("Ola")
        assert seat is not None
        for _ in range(60):   # our turns, until one follows three plays
            wait(lambda: my_turn(host, seat) or hand_over(host), what="our turn")
            if hand_over(host):
                pytest.fail("no turn of ours after three plays in the first hand")
            if len(host.table.state.pile) >= 3:
                break
            play_turn(browser, host, seat)
        wait(lambda: len(browser.find_elements("css selector", "#pile .play"))
             == len(host.table.state.pile), what="the pile drawn")
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {**PHONE, "width": 320, "height": 520})   # a small phone
        by_id(browser, "act-hint").click()
        wait(lambda: text_of(browser, "message") != "", what="the hint")
        cut = """
            const pile = document.getElementById('pile');
            const box = pile.getBoundingClientRect();
            const middle = document.getElementById('middle').getBoundingClientRect();
            const cards = [...pile.querySelectorAll('.card')].filter((card) =>
              card.getBoundingClientRect().bottom > Math.min(box.bottom, middle.bottom) + 0.5);
            return pile.scrollHeight > pile.clientHeight || cards.length > 0"""
        wait(lambda: not browser.execute_script(cut), timeout=3, what="the whole pile in view")
    finally:
        host.stop()


ALL_IN_VIEW = """
    const inside = (element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight + 0.5
        && box.left >= 0 && box.right <= window.innerWidth + 0.5;
    };
    const wanted = [...document.querySelectorAll(
      '#hand [data-card], #actions button:not([hidden]), #pile .play')];
    return {scrolls: document.documentElement.scrollHeight > window.innerHeight + 0.5,
            out: wanted.filter((element) => !inside(element)).map((element) =>
              element.id || element.dataset.card || element.textContent)}"""


@pytest.mark.parametrize(("seats", "width", "height", "language"),
                         [(4, 740, 360, "it"), (8, 640, 360, "pl")])
def test_a_phone_on_its_side_shows_the_hand_the_buttons_and_the_pile_without_scrolling(
        browser: Any, seats: int, width: int, height: int, language: str) -> None:
    """Held sideways, the stacked page was 560 pixels tall on a 360-pixel screen: the Play
    and Pass buttons lay 200 pixels below it. Now the table takes the left and the hand
    the right: every card of the hand, every button and the pile are on the screen, and
    the page does not scroll, through the hand."""
    host = HostThread(name="Kitchen table", seats=seats, bots=seats - 1, bot_delay=0.0, seed=5)
    try:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {**PHONE, "width": width, "height": height})
        join(browser, host.url, "Agnieszka", language)
        wait(lambda: host.seat_of("Agnieszka") is not None, what="a seat")
        seat = host.seat_of("Agnieszka")
        assert seat is not None
        for _ in range(3):   # three turns of ours, each checked before it is played
            wait(lambda: my_turn(host, seat) or hand_over(host), what="our turn")
            if hand_over(host):
                break
            held = len(host.table.state.hands[seat])
            wait(lambda held=held: len(browser.find_elements(
                "css selector", "#hand [data-card]")) == held, what="the hand drawn")
            seen = browser.execute_script(ALL_IN_VIEW)
            assert seen == {"scrolls": False, "out": []}, seen
            play_turn(browser, host, seat)
    finally:
        host.stop()

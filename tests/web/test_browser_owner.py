"""A phone (Chromium at 360x640) and a terminal client play a whole session side by side
in Polish: the phone is the table's owner (it opened the owner's link), starts early,
feels its turns (vibration, sound, the tab's title and icon, observed through stubs of the
browser's APIs) and plays again at the end; both screens show the same standings."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    HostThread,
    browser_test_marks,
    by_id,
    checked_browser,
    join,
    my_turn,
    play_turn,
    text_of,
    wait,
)

from president import engine
from president.actions import Decree, GiveBack, Pass, Play, Ready
from president.cli.terminal.layout import summary_lines
from president.cli.terminal.model import TableModel
from president.cli.ui_text import load_texts
from president.net.client import Client
from president.rules import preset

pytestmark = browser_test_marks()

# The browser's APIs the turn signals use, replaced by recorders (window.__signals).
STUBS = """
window.__signals = [];
const record = (what) => window.__signals.push(what);
Object.defineProperty(navigator, "vibrate", { configurable: true,
  value: (pattern) => { record("vibrate"); return true; } });
window.AudioContext = class {
  constructor() {
    record("audio"); this.currentTime = 0; this.state = "running"; this.destination = {};
  }
  resume() { return Promise.resolve(); }
  createOscillator() {
    return { type: "", frequency: { setValueAtTime() {} }, connect() {},
      start() { record("sound"); }, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} };
  }
};
"""


@pytest.fixture
def browser() -> Iterator[Any]:
    with checked_browser() as driver:
        yield driver


async def terminal_player(client: Client, until: Any) -> None:
    """The terminal's player: gives back, plays the first legal play (else passes), is ready."""
    while not until():
        view = client.view
        legal = [a for a in view.legal if not isinstance(a, Decree)] if view else []
        if not legal:
            await asyncio.sleep(0.01)
            continue
        action = next((a for a in legal if isinstance(a, (Ready, GiveBack))), None) \
            or next((a for a in legal if isinstance(a, Play)), None) \
            or next(a for a in legal if isinstance(a, Pass))
        try:
            await client.act(action, timeout=10)
        except Exception:  # the view moved on meanwhile: look again  # noqa: BLE001
            await asyncio.sleep(0.01)


def signals(driver: Any) -> list[str]:
    return list(driver.execute_script("return window.__signals || []"))


def test_the_owner_on_a_phone_and_a_terminal_play_a_session_and_the_phone_plays_again(
        browser: Any) -> None:
    owner = secrets.token_hex(16)
    rules = dataclasses.replace(preset("classic"), session_length=1)
    host = HostThread(name="Salon", seats=3, rules=rules, owner_token=owner, again_wait=120,
                      bot_delay=0.0, turn_timer=120)
    tr, text = load_texts("pl")
    model = TableModel(tr, text)
    try:
        # the owner's link: the page keeps the token and takes it out of the address
        join(browser, f"{host.url}#owner={owner}", "Ola", "pl", script=STUBS)
        assert "owner" not in browser.current_url
        client = Client("127.0.0.1", host.port, "Gianni", "pl", on_event=model.on_event)
        host.call(client.connect())
        # the owner starts early: a bot takes the free seat
        wait(lambda: by_id(browser, "act-main").is_displayed(), what="the owner's start")
        assert by_id(browser, "act-main").text == text.tr.gettext(
            "Start now (bots take the free seats)")
        by_id(browser, "act-main").click()
        wait(lambda: host.table.started, what="the early start")
        seat = host.seat_of("Ola")
        assert seat is not None
        over = lambda: host.table.state is not None and (  # noqa: E731
            host.table.state.phase.value == "session_over")
        playing = host.spawn(terminal_player(client, over))
        turns = 0
        while not over():
            if not my_turn(host, seat):
                wait(lambda: over() or my_turn(host, seat), what="the page's turn or the end")
                continue
            # the turn is felt: vibration, sound, title, icon, the timer's bar
            # (the signals were cleared after the last turn: they mark this one, where the
            # title alone may still be the last turn's when the others played quickly)
            felt = lambda: {"vibrate", "sound"} <= set(signals(browser))  # noqa: E731
            try:
                wait(felt, what="the turn's vibration and sound")
            except AssertionError as missing:
                raise AssertionError(browser.execute_script(
                    "return {touched: navigator.userActivation.hasBeenActive, stubs: "
                    "!!window.__signals, loads: performance.getEntriesByType('navigation')"
                    ".map(e => e.type)}")) from missing
            assert browser.title.startswith("▶")
            assert text.tr.gettext("Your turn!") in browser.title
            icon = browser.execute_script("return document.querySelector('link[rel=icon]').href")
            assert icon.startswith("data:image/svg+xml")
            assert by_id(browser, "turn-timer").is_displayed()
            # Pass is offered only where the legal actions hold it (not on a lead)
            can_pass = Pass(seat) in engine.legal_actions(host.table.state, seat)
            wait(lambda c=can_pass: (by_id(browser, "act-pass").get_attribute("disabled")
                                     is None) == c, what="Pass as the legal actions say")
            browser.execute_script("window.__signals = []")
            play_turn(browser, host, seat)
            turns += 1
        playing.result(20)
        assert turns > 0
        wait(lambda: not browser.title.startswith("▶"), what="the title without the turn")
        # the standings: the terminal's lines, on both screens
        wait(lambda: model.session_summary is not None, what="the terminal's standings")
        terminal = [line for _, line in summary_lines(model)][:4]
        wait(lambda: all(line in text_of(browser, "summary") for line in terminal),
             what=f"the page's standings {terminal}")
        # the evening's story, as the host tells it, in the page's language
        by_id(browser, "open-rules").click()
        wait(lambda: by_id(browser, "open-evening").is_displayed(), what="the rules dialog")
        by_id(browser, "open-evening").click()
        wait(lambda: by_id(browser, "evening-dialog").is_displayed(), what="the evening's story")
        assert host.web.evening is not None
        told = host.web.evening  # the user's journal: other hosts may add to it meanwhile
        none = text.tr.gettext("No session tonight yet.")
        wait(lambda: by_id(browser, "evening-text").get_attribute("textContent")
             == (told("pl") or none), what="the story's text")
        browser.execute_script(
            "for (const d of document.querySelectorAll('dialog[open]')) d.close()")
        # the owner plays again, from the phone
        play_again = text.tr.gettext("Play again with the same players")
        wait(lambda: by_id(browser, "act-main").text == play_again, what="play again")
        same_deals = text.tr.gettext("The same deals, everyone one seat on")  # (a duplicate)
        assert by_id(browser, "act-pass").text == same_deals
        by_id(browser, "act-main").click()
        wait(lambda: host.table.sessions == 2 and host.table.state is not None
             and host.table.state.phase.value != "session_over", what="the second session")
        host.call(client.close())
    finally:
        host.stop()

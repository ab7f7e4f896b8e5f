"""The coach's tip on the page (issue 28), in a real headless Chromium at phone size: the
terminal's footer teaches the rank keys in the first hands ("2 selects your 2s"); a phone
has no keys, so a long press on a card selects its rank's cards as the rank key does
(as many as the pile asks for, again: one fewer), and the first hands' tip says so."""

from __future__ import annotations

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
    text_of,
    wait,
)

from president.cli.i18n import Translator
from president.cli.web.texts import LABELS

pytestmark = browser_test_marks()


@pytest.fixture
def browser() -> Iterator[Any]:
    with checked_browser() as driver:
        yield driver


def selected(driver: Any) -> list[str]:
    return list(driver.execute_script(
        "return [...document.querySelectorAll('#hand [aria-pressed=true]')]"
        ".map(b => b.dataset.card)"))


def long_press(driver: Any, card: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    button = driver.find_element("css selector", f"#hand [data-card='{card}']")
    ActionChains(driver).click_and_hold(button).pause(0.8).release().perform()


def test_a_long_press_selects_a_rank_as_the_terminals_rank_key_and_the_tip_says_so(
        browser: Any) -> None:
    host = HostThread(name="Tip", seats=3, bots=2, seed=5)
    try:
        join(browser, host.url, "Ola", "nl")
        wait(lambda: host.seat_of("Ola") is not None, what="a seat")
        seat = host.seat_of("Ola")
        assert seat is not None
        wait(lambda: my_turn(host, seat), timeout=30, what="our turn")
        wait(lambda: browser.execute_script(
            "return document.body.classList.contains('my-turn')"), what="our turn, shown")
        tip = Translator("nl").gettext(LABELS["rank_tip"])
        wait(lambda: text_of(browser, "tip") == tip, what="the tip")
        state = host.table.state
        hand = state.hands[seat]
        ranks = [card.rank for card in hand]
        rank = max(set(ranks), key=ranks.count)     # the rank we hold most of
        cards = [str(card) for card in hand if card.rank == rank]
        pile = len(state.pile[-1].cards) if state.pile else 0
        want = min(pile or len(cards), len(cards))
        long_press(browser, cards[-1])
        wait(lambda: len(selected(browser)) == want, what=f"{want} of {cards} selected")
        assert set(selected(browser)) <= set(cards)
        assert text_of(browser, "tip") == ""         # something is selected
        long_press(browser, cards[0])                # again: one fewer (from one: all)
        again = want - 1 or len(cards)
        wait(lambda: len(selected(browser)) == again, what=f"then {again}")
        assert set(selected(browser)) <= set(cards)
        browser.execute_script("document.querySelector('#hand [aria-pressed=true]').click()")
        wait(lambda: len(selected(browser)) == again - 1, what="a tap taking one off")
        assert by_id(browser, "act-main").is_displayed()
    finally:
        host.stop()

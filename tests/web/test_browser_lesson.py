"""Learn to play on the page (issue 28) in a real headless Chromium at phone size: from the
home's "Learn to play", the terminal's guided hand (cli/lesson.py) stepped by the host,
each step's line in the page's words, a move the step does not ask for refused, the
roles, the tax, then the hand played out; a reload takes it up again; the lesson is listed
nowhere."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    HostThread,
    browser_test_marks,
    by_id,
    checked_browser,
    hand_on_page,
    text_of,
    wait,
)

from president import to_act
from president.actions import Action, Pass, Play, action_from_dict
from president.cli.i18n import Translator
from president.cli.lesson import DONE_PAGE, STEPS, Lesson
from president.cli.text import Text
from president.cli.web.texts import LABELS
from president.combos import strengths
from president.engine import legal_actions

pytestmark = browser_test_marks()


@pytest.fixture(scope="module")
def host() -> Iterator[HostThread]:
    served = HostThread(name="Kitchen")
    yield served
    served.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    with checked_browser() as driver:
        yield driver


def tap(driver: Any, selector: str) -> None:
    """Tap what ``selector`` finds (found and tapped in one script: the page redraws)."""
    wait(lambda: driver.execute_script(
        "const b = document.querySelector(arguments[0]);"
        " if (!b || b.disabled) return false; b.click(); return true;", selector),
        what=selector)


def tap_cards(driver: Any, cards: list[str]) -> None:
    for card in cards:
        tap(driver, f"#hand [data-card='{card}'][aria-pressed='false']")


def unplayable(driver: Any) -> list[str]:
    return list(driver.execute_script(
        "return [...document.querySelectorAll('#hand .unplayable')].map(b => b.dataset.card)"))


def next_move(moves: list[dict[str, Any]]) -> Action | None:
    """Our next move in the lesson after ``moves`` (a pass, else the lowest play), None
    while a bot is to move."""
    lesson = Lesson("Ola")
    for move in moves:
        lesson.play(action_from_dict({**move, "seat": 0}))
        while lesson.bot_to_act() is not None:
            lesson.bot_move()
    legal = legal_actions(lesson.state, 0)
    if to_act(lesson.state) != 0 or not legal:
        return None
    return next((a for a in legal if isinstance(a, Pass)), None) or min(
        (a for a in legal if isinstance(a, Play)),
        key=lambda a: strengths(lesson.state.rules.rank_order, lesson.state.reversed)[
            a.cards[0].rank])


def my_turn(driver: Any) -> bool:
    return bool(driver.execute_script("return document.body.classList.contains('my-turn')"))


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_lesson_is_played_on_the_page_to_its_end(host: HostThread, browser: Any,
                                                      language: str) -> None:
    from selenium.webdriver.support.ui import Select

    tr = Translator(language)
    fields = Lesson("Ola").fields(Text(tr))

    def line(step: int) -> str:
        return str(tr.gettext(STEPS[step].page).format(**fields))

    def at_step(step: int) -> None:
        wait(lambda: text_of(browser, "lesson-line") == line(step), what=f"step {step + 1}")

    browser.get(host.url)
    wait(lambda: by_id(browser, "join-screen").is_displayed(), what="the home")
    Select(by_id(browser, "join-language")).select_by_value(language)
    wait(lambda: by_id(browser, "join-learn").text == tr.gettext("Learn to play"))
    by_id(browser, "join-name").send_keys("Ola")
    by_id(browser, "join-learn").click()
    wait(lambda: by_id(browser, "table-screen").is_displayed(), what="the lesson's table")

    at_step(0)                                           # leading
    wait(lambda: my_turn(browser), what="the first turn")
    assert hand_on_page(browser) == ["4C", "4D", "9S", "KH", "2S"]
    assert not by_id(browser, "act-hint").is_displayed()  # the lesson says what to do
    assert unplayable(browser) == []                     # a lead: every card may be played
    tap_cards(browser, ["9S"])
    tap(browser, "#act-main")                            # not what the step asks
    refusal = tr.gettext(LABELS["lesson_step"])
    wait(lambda: text_of(browser, "message") == refusal, what="the refusal")
    assert text_of(browser, "lesson-line") == line(0)
    tap(browser, "#hand [data-card='9S'][aria-pressed='true']")
    tap_cards(browser, ["4C", "4D"])
    tap(browser, "#act-main")

    at_step(1)                                           # following: pass
    wait(lambda: my_turn(browser), what="the turn after the bots' pairs")
    assert unplayable(browser) == ["9S", "KH", "2S"]    # no pair beats the 6s: all dimmed
    tap(browser, "#act-pass")
    at_step(2)                                           # a clear: Bob leads a 3
    wait(lambda: my_turn(browser), what="the turn after the clear")
    browser.refresh()                                    # a reload takes the lesson up again
    at_step(2)
    wait(lambda: my_turn(browser), what="the turn after the clear, again")
    assert hand_on_page(browser) == ["9S", "KH", "2S"]
    tap_cards(browser, ["9S"])
    tap(browser, "#act-main")
    at_step(3)
    wait(lambda: my_turn(browser), what="the turn after Ann's jack")
    tap_cards(browser, ["KH"])
    tap(browser, "#act-main")
    at_step(4)                                           # going out
    wait(lambda: my_turn(browser), what="the lead again")
    tap_cards(browser, ["2S"])
    tap(browser, "#act-main")

    at_step(5)                                           # the roles, between hands
    wait(lambda: by_id(browser, "summary").is_displayed(), what="the hand's summary")
    wait(lambda: not by_id(browser, "act-main").get_attribute("disabled"), what="Ready")
    assert "Ola" in text_of(browser, "summary")
    tap(browser, "#act-main")

    at_step(6)                                           # the tax: Bob's two best, marked
    wait(lambda: len(browser.find_elements("css selector", "#hand .received")) == 2,
         what="the tax received, marked")
    tap_cards(browser, hand_on_page(browser)[:2])
    tap(browser, "#act-main")

    done = tr.gettext(DONE_PAGE)
    wait(lambda: text_of(browser, "lesson-line") == done, what="the lesson's end")
    over = Text(tr).phase("session_over")

    def played_out() -> bool:
        """One move of ours if it is our turn: a pass, else the lowest legal play, as
        the lesson replayed from the moves the page keeps says."""
        if text_of(browser, "title").endswith(over):
            return True
        assert text_of(browser, "message") == "", text_of(browser, "message")
        if not my_turn(browser):
            return False
        moves = browser.execute_script(
            "return JSON.parse(sessionStorage.getItem('president.lesson')).moves")
        move = next_move(moves)
        if move is None:
            return False
        if isinstance(move, Pass):
            tap(browser, "#act-pass")
        else:
            tap_cards(browser, [str(card) for card in move.cards])
            tap(browser, "#act-main")
        wait(lambda: browser.execute_script(
            "return JSON.parse(sessionStorage.getItem('president.lesson')).moves.length")
            > len(moves), what=f"{move} taken")
        return False

    wait(played_out, timeout=120, what="the session's end")
    assert text_of(browser, "lesson-line") == done
    with urllib.request.urlopen(host.url + "tables.json") as answer:  # listed nowhere
        assert [table["id"] for table in json.load(answer)] == ["main"]
    assert list(host.host.tables) == ["main"]

"""The page's 7-pass and 10-discard (issue 11) in a real headless Chromium at phone size,
against a real host on 127.0.0.1: the prompt names how many cards go to whom, the cards
are tapped, Give (Discard) sends them; the page receives no card it should not see."""

from __future__ import annotations

from typing import Any

from browser_kit import (
    HostThread,
    browser_test_marks,
    by_id,
    close_browser,
    join,
    make_browser,
    my_turn,
    play_turn,
    text_of,
    wait,
    ws_frames,
)
from netkit import check_no_hidden_cards

from president import engine
from president.actions import Discard, Give
from president.cli.text import text_for
from president.rules import HouseRules

pytestmark = browser_test_marks()


def tap(driver: Any, cards: Any) -> None:
    """Tap each of ``cards`` in the hand (a card not yet chosen, for a second copy), each
    found and tapped in one script: the page redraws the hand on every frame."""
    for card in cards:
        wait(lambda card=card: driver.execute_script(
            "const b = document.querySelector(arguments[0]); if (b) b.click(); return !!b;",
            f"#hand [data-card='{card}'][aria-pressed='false']"), what=f"the card {card}")


def choose_on_page(driver: Any, host: HostThread, seat: int) -> Give | Discard:
    """Tap the cards of the first listed choice, check the button, tap it."""
    state = host.table.state
    due = state.giving[0]
    action = engine.legal_actions(state, seat)[0]
    assert isinstance(action, (Give, Discard))
    english = text_for("en")
    if due.to is not None:
        hint = english.tr.ngettext(
            "7-pass: choose {n} card to give to {name}, then tap Give.",
            "7-pass: choose {n} cards to give to {name}, then tap Give.", due.count,
        ).format(n=due.count, name=state.players[due.to])
    else:
        hint = english.tr.ngettext(
            "10-discard: choose {n} card to discard, then tap Discard.",
            "10-discard: choose {n} cards to discard, then tap Discard.", due.count,
        ).format(n=due.count)
    wait(lambda: text_of(driver, "prompt") == hint, what=f"the prompt {hint!r}")
    main = by_id(driver, "act-main")
    assert main.text == english.action("give" if due.to is not None else "discard")
    assert main.get_attribute("disabled")  # nothing chosen yet
    version = host.table.version
    tap(driver, action.cards)
    wait(lambda: not main.get_attribute("disabled"), what="the button, once chosen")
    main.click()
    wait(lambda: host.table.version > version, what=f"the host to take {action}")
    return action


def give_back(driver: Any, host: HostThread, seat: int) -> None:
    """The tax: tap the cards of the first listed return, then Give back."""
    action = engine.legal_actions(host.table.state, seat)[0]
    version = host.table.version
    tap(driver, action.cards)
    main = by_id(driver, "act-main")
    wait(lambda: not main.get_attribute("disabled"), what="Give back")
    main.click()
    wait(lambda: host.table.version > version, what=f"the host to take {action}")


def test_the_page_gives_and_discards_with_a_seven_and_a_ten() -> None:
    rules = HouseRules(seven_pass=True, ten_discard=True, session_end="hands",
                       session_length=6)
    host = HostThread(name="Porch", seats=3, bots=2, bot_delay=0.0, rules=rules,
                      bot_kind="random", seed=2)
    driver = make_browser(frames=True)
    try:
        join(driver, host.url, "Ann", "en")
        wait(lambda: host.seat_of("Ann") is not None and host.table.started,
             what="the deal")
        seat = host.seat_of("Ann")
        made: set[type] = set()
        while made != {Give, Discard}:
            state = host.table.state
            assert state.phase.value != "session_over", made
            if state.phase.value == "play" and state.giving and state.giving[0].seat == seat:
                made.add(type(choose_on_page(driver, host, seat)))
            elif my_turn(host, seat):
                play_turn(driver, host, seat)
            elif state.phase.value == "tax" and any(d.receiver == seat for d in state.tax_due):
                give_back(driver, host, seat)
            elif state.phase.value == "hand_over" and seat not in state.ready:
                wait(lambda: not by_id(driver, "act-main").get_attribute("disabled"))
                by_id(driver, "act-main").click()
                wait(lambda: seat in host.table.state.ready
                     or host.table.state.phase.value != "hand_over", what="ready")
            else:
                wait(lambda before=state: host.table.state is not before, timeout=20,
                     what=f"a move ({state.phase.value}, turn {state.turn}, seat {seat})")
        assert check_no_hidden_cards(ws_frames(driver), seat) > 5
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], errors
    finally:
        close_browser(driver)
        host.stop()

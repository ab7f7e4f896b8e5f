"""The terminal's 7-pass and 10-discard screen: the header says how many cards go to
whom, the keys choose them and Enter sends the Give or Discard; the receiver's hand
marks what it got (issue 11)."""

from __future__ import annotations

import pytest
from screens import Acting, Moment, after_play, make_ui, press, render, seat_at

from president.actions import Discard, Give
from president.cards import parse_cards
from president.engine import apply


def test_the_seven_pass_screen_names_the_receiver_and_enter_gives_the_selection() -> None:
    ui = make_ui("en", 80, 24)
    moment = after_play("7C 7D", ["7C 7D 3C 4D 9H", "8D 4S", "9C KC"])
    model = seat_at(ui, moment)
    ui.connection = connection = Acting()
    text = render(ui).text
    assert "7-pass: choose 2 cards to give to Anna (one per 7 you played), then Enter." in text
    assert "Enter give" in render(ui).rows[-1]
    press(ui, "3", "4", "\r")
    assert connection.sent == [Give(0, parse_cards("3C 4D"))]
    assert model.message is None


def test_the_seven_pass_screen_refuses_the_wrong_number_of_cards() -> None:
    ui = make_ui("en", 80, 24)
    model = seat_at(ui, after_play("7C 7D", ["7C 7D 3C 4D 9H", "8D 4S", "9C KC"]))
    ui.connection = connection = Acting()
    press(ui, "3", "\r")
    assert connection.sent == []
    assert model.message == ui.text.reason("wrong_give_count")
    press(ui, "p")  # no pass while the choice is due
    assert connection.sent == [] and model.message == ui.text.reason("must_give")


def test_the_ten_discard_screen_in_italian() -> None:
    ui = make_ui("it", 80, 24)
    model = seat_at(ui, after_play("10C", ["10C 3C 4D", "8D 4S", "9C KC"]))
    ui.connection = connection = Acting()
    assert ("Scarto del 10: scegli 1 carta da scartare (una per ogni 10), poi Invio."
            in render(ui).text)
    press(ui, "\r")   # nothing chosen: the discard's count, not the tax's
    assert connection.sent == []
    assert model.message == ("Scegli esattamente tante carte quante ne devi scartare: una per "
                             "ogni 10 giocato.")
    press(ui, "4", "\r")
    assert connection.sent == [Discard(0, parse_cards("4D"))]


def test_others_see_who_chooses_and_the_receiver_sees_what_it_got() -> None:
    moment = after_play("7C", ["7C 3C 4D 9H", "8D 4S", "9C KC"])
    watcher = make_ui("en", 80, 24)
    seat_at(watcher, moment, seat=2)
    assert "choosing to give" in render(watcher).text
    given, events = apply(moment.state, Give(0, parse_cards("3C")))
    receiver = make_ui("en", 80, 24)
    model = seat_at(receiver, Moment(given, [*moment.events, *events]), seat=1)
    hand = model.hand_cards()
    assert {hand[i] for i in model.received_indices()} == set(parse_cards("3C"))
    text = render(receiver).text
    assert "+ received in the tax or a 7-pass" in text
    assert "7-pass: Tester gives you 3♣." in text
    third = make_ui("en", 80, 24)
    seat_at(third, Moment(given, [*moment.events, *events]), seat=2)
    assert "7-pass: Tester gives 1 card to Anna." in render(third).text


def test_the_plain_client_reads_give_and_discard() -> None:
    from president.actions import GiveBack
    from president.cli.plain import parse_command

    assert parse_command("give 3c 4d", 1, giving=True) == Give(1, parse_cards("3C 4D"))
    assert parse_command("give 3c 4d", 1) == GiveBack(1, parse_cards("3C 4D"))
    assert parse_command("discard 9h", 2) == Discard(2, parse_cards("9H"))


@pytest.mark.parametrize("language", ["en", "it", "nl", "pl"])
def test_the_choice_prompts_fit_80_columns_whole_in_four_languages(language: str) -> None:
    """(The Dutch ones were cut before "Enter" at 80 columns.)"""
    seven = make_ui(language, 80, 24)
    seat_at(seven, after_play("7C 7D", ["7C 7D 3C 4D 9H", "8D 4S", "9C KC"]))
    prompt = seven.text.tr.ngettext(
        "7-pass: choose {n} card to give to {name} (one per 7 you played), then Enter.",
        "7-pass: choose {n} cards to give to {name} (one per 7 you played), then Enter.",
        2).format(n=2, name="Anna")
    assert prompt in render(seven).text
    long_name = make_ui(language, 80, 24)   # a long name: the prompt without the count
    seat_at(long_name, after_play("7C 7D", ["7C 7D 3C 4D 9H", "8D 4S", "9C KC"],
                                  names=("Tester", "Bartholomew-Jan", "Chiara")))
    prompt = long_name.text.tr.ngettext(
        "7-pass: choose {n} card to give to {name}, then Enter.",
        "7-pass: choose {n} cards to give to {name}, then Enter.",
        2).format(n=2, name="Bartholomew-Jan")
    assert prompt in render(long_name).text
    ten = make_ui(language, 80, 24)
    seat_at(ten, after_play("10C 10D", ["10C 10D 3C 4D 9H", "8D 4S", "9C KC"]))
    prompt = ten.text.tr.ngettext(
        "10-discard: choose {n} card to discard (one per 10 you played), then Enter.",
        "10-discard: choose {n} cards to discard (one per 10 you played), then Enter.",
        2).format(n=2)
    assert prompt in render(ten).text

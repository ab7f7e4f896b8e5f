"""What an independent check of the Daihinmin pack found (issue 31): one test per
finding, each failing on the engine before its fix."""

from __future__ import annotations

from engine_kit import assert_illegal, codes, play, plays, position, run

from president.actions import Play
from president.cards import parse_cards
from president.rules import HouseRules

# ------------------------------------------------------------ runs after the order turns


def test_a_run_after_an_eleven_back_is_compared_in_the_order_in_force() -> None:
    """A run that holds a jack turns the order: the same ranks are no longer higher."""
    rules = HouseRules(sequences=3, jack_back=True)
    state = position(["9D 10S JC 4C", "5D 6D", "9C 10C JH 8S 7S 6S"], rules)
    state, events = play(state, 0, "9D 10S JC")
    assert codes(events) == ["play", "back"]
    state, _ = run(state, (1, None))
    assert_illegal(state, Play(2, parse_cards("9C 10C JH")), "too_low")
    # Lower ranks are higher now: the runs whose top (their lowest card) is under 9.
    assert plays(state, 2) == {"6S 7S 8S", "7S 8S 9C", "8S 9C 10C"}


def test_a_run_after_a_run_revolution_is_compared_in_the_order_in_force() -> None:
    rules = HouseRules(sequences=4, run_revolution=True)
    state = position(["10C JH QH KS AC 4C", "10D JD QD KH AS 3D", "6S 7S 8S 9S 5D"], rules)
    state, events = play(state, 0, "10C JH QH KS AC")
    assert codes(events) == ["play", "revolution"]
    assert_illegal(state, Play(1, parse_cards("10D JD QD KH AS")), "too_low")
    assert plays(state, 1) == set()

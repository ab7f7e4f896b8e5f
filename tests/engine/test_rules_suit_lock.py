"""The suit lock (shibari, ``suit_lock``) and its step variant (issue 11): one test per
rule and per interaction worth a test."""

from __future__ import annotations

from engine_kit import assert_illegal, codes, find, play, plays, position, replayed_bot_session, run

from president.actions import Play
from president.cards import Suit, parse_cards
from president.locks import Lock
from president.moves import candidate_plays
from president.refusals import refusal
from president.rules import HouseRules
from president.view import View, view

SUITS = HouseRules(suit_lock="suits")
STEPS = HouseRules(suit_lock="suits_and_step")


def test_same_suits_twice_lock_the_pile_to_them() -> None:
    state = position(["5H 4C", "7H 8C 9D 9H", "6C KH QS"], SUITS)
    state, events = run(state, (0, "5H"), (1, "7H"))
    assert find(events, "lock") == [{"hand": 1, "suits": "H", "step": False}]
    assert state.lock == Lock((Suit.HEARTS,))
    assert plays(state, 2) == {"KH"}
    assert_illegal(state, Play(2, parse_cards("QS")), "suit_locked")


def test_other_suits_do_not_lock() -> None:
    state = position(["5H 4C", "7D 8C", "6C KH QS"], SUITS)
    state, events = run(state, (0, "5H"), (1, "7D"))
    assert "lock" not in codes(events) and state.lock is None
    assert plays(state, 2) == {"KH", "QS"}


def test_without_the_rule_same_suits_do_not_lock() -> None:
    state = position(["5H 4C", "7H 8C", "6C KH QS"])
    state, events = run(state, (0, "5H"), (1, "7H"))
    assert "lock" not in codes(events) and state.lock is None
    assert plays(state, 2) == {"KH", "QS"}


def test_a_pair_locks_to_its_two_suits() -> None:
    state = position(["5H 5S 3C", "7H 7S 7D 4C", "9H 9S 9D 9C 4D"], SUITS)
    state, events = run(state, (0, "5H 5S"), (1, "7H 7S"))
    assert find(events, "lock") == [{"hand": 1, "suits": "HS", "step": False}]
    assert plays(state, 2) == {"9H 9S"}
    assert_illegal(state, Play(2, parse_cards("9C 9D")), "suit_locked")


def test_every_choice_of_suits_of_a_set_is_listed_under_the_rule() -> None:
    hand = parse_cards("7C 7D 7H")
    assert len(candidate_plays(hand, SUITS, False)) == 3 + 3 + 1
    assert len(candidate_plays(hand, HouseRules(), False)) == 1 + 1 + 1
    state = position(["7C 7D 7H 3S", "4C", "4D"], SUITS)
    assert {"7C 7D", "7C 7H", "7D 7H"} <= plays(state, 0)


def test_the_lock_clears_with_the_pile() -> None:
    state = position(["5H 3C", "7H 4S", "6C KH QS"], SUITS)
    state, events = run(state, (0, "5H"), (1, "7H"), (2, "KH"), (0, None), (1, None))
    assert codes(events)[-1] == "clear" and state.lock is None and state.turn == 2
    assert plays(state, 2) == {"6C", "QS"}


def test_a_joker_fits_the_lock_and_starts_none() -> None:
    rules = HouseRules(suit_lock="suits", jokers=1)
    state = position(["5H 3C", "7H 4S", "6C JK QS"], rules)
    state, _ = run(state, (0, "5H"), (1, "7H"))
    assert plays(state, 2) == {"JK"}
    state, events = play(state, 2, "JK")
    assert state.lock == Lock((Suit.HEARTS,)) and "lock" not in codes(events)
    state = position(["5H 3C", "JK 4S", "6C 9H QS"], rules)
    state, events = run(state, (0, "5H"), (1, "JK"))
    assert state.lock is None


def test_the_step_lock_binds_plays_to_one_rank_up() -> None:
    state = position(["5H 3C", "6D 4S", "7C 8S QS"], STEPS)
    state, events = run(state, (0, "5H"), (1, "6D"))
    assert find(events, "lock") == [{"hand": 1, "suits": "", "step": True}]
    assert plays(state, 2) == {"7C"}
    assert_illegal(state, Play(2, parse_cards("8S")), "step_locked")


def test_the_step_lock_is_not_in_the_plain_suit_lock() -> None:
    state = position(["5H 3C", "6D 4S", "7C 8S QS"], SUITS)
    state, _ = run(state, (0, "5H"), (1, "6D"))
    assert state.lock is None and plays(state, 2) == {"7C", "8S", "QS"}


def test_suits_and_steps_lock_together() -> None:
    state = position(["5H 3C", "6H 4S", "7C 7H 8H"], STEPS)
    state, events = run(state, (0, "5H"), (1, "6H"))
    assert find(events, "lock") == [{"hand": 1, "suits": "H", "step": True}]
    assert plays(state, 2) == {"7H"}


def test_suit_lock_with_an_eight_cut_clears_the_lock() -> None:
    rules = HouseRules(suit_lock="suits", eight_cut=True)
    state = position(["5H 3C", "7H 4S", "8C 8H QS"], rules)
    state, _ = run(state, (0, "5H"), (1, "7H"))
    assert plays(state, 2) == {"8H"}  # the cut must keep the lock's suit too
    state, events = play(state, 2, "8H")
    assert codes(events) == ["play", "cut", "clear"]  # no lock on a cut pile
    assert state.lock is None and state.turn == 2


def test_suit_lock_holds_across_a_revolution() -> None:
    rules = HouseRules(suit_lock="suits", revolution="quad", set_size_rule="bigger_beats_any")
    state = position(["7C 7D 7H 7S 3C", "5C 5D 5H 5S 4S", "9C 9D 9H 9S 6S KS"], rules)
    state, events = run(state, (0, "7C 7D 7H 7S"), (1, "5C 5D 5H 5S"))
    assert codes(events).count("revolution") == 2 and state.lock is not None
    assert state.lock.suits == (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    assert plays(state, 2) == {"9C 9D 9H 9S"}


def test_suit_lock_under_an_eleven_back_keeps_its_suits_in_the_turned_order() -> None:
    rules = HouseRules(suit_lock="suits", jack_back=True)
    state = position(["5H 3C", "JH 4S", "9H QH 10S"], rules)
    state, events = run(state, (0, "5H"), (1, "JH"))
    assert state.back and state.lock == Lock((Suit.HEARTS,))
    assert plays(state, 2) == {"9H"}  # lower, in hearts; not QH (too low now), not 10S
    assert_illegal(state, Play(2, parse_cards("10S")), "suit_locked")


def test_the_lock_is_in_the_view_and_on_the_wire() -> None:
    state = position(["5H 5S 3C", "7H 7S 4C", "9H 9S 9D 4D"], STEPS)
    state, _ = run(state, (0, "5H 5S"), (1, "7H 7S"))
    seen = view(state, 2)
    assert seen.lock == Lock((Suit.HEARTS, Suit.SPADES))
    assert seen.to_dict()["lock"] == ["HS", False]
    assert View.from_dict(seen.to_dict(), state.rules) == seen
    assert refusal(seen, Play(2, parse_cards("9D 9H"))) == "suit_locked"


def test_a_session_with_locks_replays_from_its_history() -> None:
    rules = HouseRules(jokers=1, suit_lock="suits_and_step", eight_cut=True, jack_back=True,
                       session_length=3)
    assert "lock" in codes(replayed_bot_session(rules, 4, 5))


def test_the_rule_stays_out_of_records_of_older_rules() -> None:
    assert "suit_lock" not in HouseRules().to_dict()
    assert HouseRules.from_dict(STEPS.to_dict()) == STEPS


def test_the_step_lock_follows_the_order_an_eleven_back_turns() -> None:
    rules = HouseRules(suit_lock="suits_and_step", jack_back=True)
    state = position(["9H 3C", "10D 4S", "JC 5S", "10S QS 4D"], rules)
    state, events = run(state, (0, "9H"), (1, "10D"), (2, "JC"))
    assert state.back and state.lock == Lock((), True)
    assert plays(state, 3) == {"10S"}  # one step above the jack in the turned order
    assert_illegal(state, Play(3, parse_cards("QS")), "too_low")
    assert_illegal(state, Play(3, parse_cards("4D")), "step_locked")

"""Same-suit runs (kaidan, ``runs_same_suit``) and the run revolution (``run_revolution``),
issue 11: one test per rule and per interaction worth a test."""

from __future__ import annotations

from engine_kit import assert_illegal, codes, find, play, plays, position, run

from president.actions import Play
from president.cards import Suit, format_cards, parse_cards
from president.engine import legal_actions
from president.locks import Lock
from president.moves import candidate_plays
from president.rules import HouseRules

KAIDAN = HouseRules(sequences=3, runs_same_suit=True)


def test_a_run_of_one_suit_is_played_and_a_mixed_one_refused() -> None:
    state = position(["4S 5S 6S 3C", "8D 9D 10D 9C", "KC"], KAIDAN)
    state, _ = play(state, 0, "4S 5S 6S")
    assert plays(state, 1) == {"8D 9D 10D"}
    assert_illegal(state, Play(1, parse_cards("8D 9C 10D")), "mixed_suits")


def test_mixed_suit_runs_stay_as_they_were_without_the_rule() -> None:
    state = position(["4S 5S 6S 3C", "8D 9C 10D", "KC"], HouseRules(sequences=3))
    state, _ = play(state, 0, "4S 5S 6S")
    assert plays(state, 1) == {"8D 9C 10D"}


def test_runs_are_listed_in_each_suit() -> None:
    hand = parse_cards("4H 4S 5H 5S 6H 6C")
    runs = [cards for cards in candidate_plays(hand, KAIDAN, False)
            if cards[0].rank is not cards[-1].rank]
    assert runs == [parse_cards("4H 5H 6H")]
    mixed = HouseRules(sequences=3)
    assert len([c for c in candidate_plays(hand, mixed, False) if c[0].rank is not c[-1].rank]) == 1


def test_runs_of_three_or_more_in_a_long_suit() -> None:
    hand = parse_cards("3D 4D 5D 6D")
    runs = {" ".join(map(str, c)) for c in candidate_plays(hand, KAIDAN, False) if len(c) > 2}
    assert runs == {"3D 4D 5D", "4D 5D 6D", "3D 4D 5D 6D"}


def test_a_run_of_a_suit_on_a_run_of_that_suit_locks_the_pile() -> None:
    rules = HouseRules(sequences=3, runs_same_suit=True, suit_lock="suits")
    state = position(["4H 5H 6H 3C", "7H 8H 9H 3D", "10H JH QH 10S JS QS"], rules)
    state, events = run(state, (0, "4H 5H 6H"), (1, "7H 8H 9H"))
    assert find(events, "lock") == [{"hand": 1, "suits": "HHH", "step": False}]
    assert state.lock == Lock((Suit.HEARTS,) * 3)
    assert plays(state, 2) == {"10H JH QH"}
    assert_illegal(state, Play(2, parse_cards("10S JS QS")), "suit_locked")


def test_mixed_suit_runs_never_lock() -> None:
    rules = HouseRules(sequences=3, suit_lock="suits")
    state = position(["4H 5H 6H 3C", "7H 8H 9H 3D", "10S JS QS"], rules)
    state, events = run(state, (0, "4H 5H 6H"), (1, "7H 8H 9H"))
    assert "lock" not in codes(events) and plays(state, 2) == {"10S JS QS"}


def test_a_run_of_four_starts_a_revolution() -> None:
    rules = HouseRules(sequences=3, runs_same_suit=True, run_revolution=True)
    state = position(["6H 7H 8H 9H 3C", "4D 5D", "2S"], rules)
    state, events = play(state, 0, "6H 7H 8H 9H")
    assert find(events, "revolution") == [{"hand": 1, "reversed": True}]
    assert state.reversed


def test_a_run_of_three_or_the_rule_off_starts_none() -> None:
    rules = HouseRules(sequences=3, runs_same_suit=True, run_revolution=True)
    state = position(["6H 7H 8H 3C", "4D 5D", "2S"], rules)
    state, events = play(state, 0, "6H 7H 8H")
    assert "revolution" not in codes(events) and not state.reversed
    state = position(["6H 7H 8H 9H 3C", "4D 5D", "2S"], KAIDAN)
    state, events = play(state, 0, "6H 7H 8H 9H")
    assert "revolution" not in codes(events) and not state.reversed


def test_the_run_revolution_leaves_quads_to_the_revolution_rule() -> None:
    rules = HouseRules(sequences=3, run_revolution=True)
    state = position(["6C 6D 6H 6S 3C", "4D 5D", "2S"], rules)
    state, events = play(state, 0, "6C 6D 6H 6S")
    assert "revolution" not in codes(events)


def test_a_wild_joker_fills_a_same_suit_run_in_its_suit() -> None:
    rules = HouseRules(sequences=3, runs_same_suit=True, jokers=1, joker_mode="wild")
    state = position(["4H 6H JK 3C", "9S 10S JS", "KD"], rules)
    runs = {(format_cards(a.cards), format_cards(a.declared)) for a in legal_actions(state, 0)
            if isinstance(a, Play) and a.declared and len(a.cards) == 3
            and a.declared[0].rank is not a.cards[0].rank}
    assert runs == {("4H 6H JK", "5H")}
    assert_illegal(state, Play(0, parse_cards("4H 6H JK"), parse_cards("5C")), "bad_declaration")

"""Where the rule books can be read two ways, the engine's reading, pinned down; the
rules documents in the four languages state each one with the same example (issue 18)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_kit import assert_illegal, find, play, plays, position, run

from president.actions import Play
from president.cards import Rank, Suit, parse_cards
from president.rules import HouseRules

DOCS = Path(__file__).resolve().parents[2] / "rules-docs"


def test_transparent_threes_beat_threes_that_took_another_rank() -> None:
    # Seed 002: "a set of 3s may beat a set of any rank" - 3s showing queens included.
    rules = HouseRules(transparent_threes=True)
    state = position(["QC QD 9C", "3C 3D 9D", "3H 3S 9H"], rules)
    state, _ = run(state, (0, "QC QD"), (1, "3C 3D"))
    assert state.top is not None and state.top.rank is Rank.QUEEN
    assert "3H 3S" in plays(state, 2)


def test_transparent_threes_led_are_threes_and_equal_threes_need_equal_rank() -> None:
    rules = HouseRules(transparent_threes=True)
    state = position(["3C 3D 9C", "3H 3S 9D", "5D"], rules)
    state, _ = play(state, 0, "3C 3D")
    assert_illegal(state, Play(1, parse_cards("3H 3S")), "too_low")


def test_four_in_a_row_a_transparent_three_counts_as_the_rank_it_shows() -> None:
    rules = HouseRules(transparent_threes=True, equal_rank="allowed",
                       revolution="quad_or_four_in_a_row")
    state = position(["4C 4S 9C", "3D 9D", "4D 9H", "4H 9S"], rules)
    # The 3 (showing a 4) starts the count again: 4C 3D 4D 4H is three in a row ...
    state, events = run(state, (0, "4C"), (1, "3D"), (2, "4D"), (3, "4H"))
    assert find(events, "revolution") == []
    # ... and the fourth card showing a 4 starts the revolution.
    _, events = play(state, 0, "4S")
    assert find(events, "revolution") == [{"hand": 1, "reversed": True}]


def test_four_in_a_row_threes_showing_another_rank_never_make_a_revolution() -> None:
    rules = HouseRules(decks=2, transparent_threes=True, equal_rank="allowed",
                       revolution="quad_or_four_in_a_row")
    state = position(["QC 3C 3D 9C", "3H 3S 9D", "3C 3D 9H"], rules)
    state, events = run(state, (0, "QC"), (1, "3H"), (2, "3C"), (0, "3D"), (1, "3S"),
                        (2, "3D"), (0, "3C"))
    assert find(events, "revolution") == [] and not state.reversed
    assert state.top is not None and state.top.rank is Rank.QUEEN


def test_big_two_transparent_three_takes_the_suit_of_the_card_it_beat() -> None:
    rules = HouseRules(transparent_threes=True, suit_tiebreak="big_two")
    state = position(["KH 9C", "3C 9D", "KD KS 9H"], rules)
    state, _ = run(state, (0, "KH"), (1, "3C"))
    assert state.top is not None and (state.top.rank, state.top.suit) == (Rank.KING, Suit.HEARTS)
    assert_illegal(state, Play(2, parse_cards("KD")), "too_low")
    assert "KS" in plays(state, 2)


def test_big_two_suit_order_does_not_turn_over_in_a_revolution() -> None:
    rules = HouseRules(suit_tiebreak="big_two", revolution="quad")
    state = position(["7H 9C", "7S 7C 9D", "5D"], rules, reversed=True)
    state, _ = play(state, 0, "7H")
    assert "7S" in plays(state, 1)
    assert_illegal(state, Play(1, parse_cards("7C")), "too_low")


def test_big_two_a_higher_suit_single_beats_and_does_not_skip() -> None:
    # Seed 003 "Salta": the same value skips; a higher suit beats, it is not the same.
    rules = HouseRules(suit_tiebreak="big_two", equal_rank="skip")
    state = position(["7H 9C", "7S 9D", "8D 9H", "8H 9S"], rules)
    state, _ = play(state, 0, "7H")
    state, events = play(state, 1, "7S")
    assert find(events, "skip") == [] and state.turn == 2


def test_skip_not_with_best_the_best_card_may_follow_its_equal_without_a_skip() -> None:
    # The other reading of seed 003 (the play forbidden) is not offered: one value.
    rules = HouseRules(equal_rank="skip", skip_not_with_best=True)
    state = position(["2C 3D", "2D 4D", "5D 9D", "6D 9H"], rules)
    state, _ = play(state, 0, "2C")
    assert "2D" in plays(state, 1)
    state, events = play(state, 1, "2D")
    assert find(events, "skip") == [] and state.turn == 2


def test_trump_joker_on_a_trump_joker_is_refused() -> None:
    rules = HouseRules(jokers=2, joker_mode="trump")
    state = position(["JK 3D", "JK 4D", "5D"], rules)
    state, _ = play(state, 0, "JK")
    assert_illegal(state, Play(1, parse_cards("JK")), "too_low")


# Each language's document states each choice above with the same example in card codes.
EXAMPLES = {
    "transparent_threes beat 3s showing another rank": "QC QD, 3C 3D, 3H 3S",
    "four in a row, a 3 counts as the rank it shows": "4C 3D 4D 4H 4S",
    "big_two, the 3 takes the suit": "KH, 3C",
    "big_two, suits in a revolution": "7H, 7S",
    "skip_not_with_best": "2C, 2D",
    "trump joker on a trump joker": "JK, JK",
}


@pytest.mark.parametrize("language", ["en", "it", "nl", "pl"])
@pytest.mark.parametrize("choice", sorted(EXAMPLES))
def test_every_rules_document_states_the_choice(language: str, choice: str) -> None:
    text = (DOCS / f"rules.{language}.md").read_text(encoding="utf-8")
    assert f"`{EXAMPLES[choice]}`" in text, f"rules.{language}.md: {choice}"

"""Behaviour the house-rules page leaves open: the engine's choices, pinned down."""

from __future__ import annotations

from engine_kit import assert_illegal, find, play, plays, position, run

from president.actions import Play
from president.cards import parse_cards
from president.rules import HouseRules


def test_jokers_stay_above_everything_during_revolution() -> None:
    rules = HouseRules(jokers=1, revolution="quad")
    state = position(["3C 8D", "JK 4D", "5D"], rules, reversed=True)
    state, _ = play(state, 0, "3C")  # the best suited card during a revolution
    assert "JK" in plays(state, 1)


def test_sequences_run_through_ace_to_two_but_never_wrap() -> None:
    state = position(["QC KD AH 2S 5D", "4D", "6D"], HouseRules(sequences=3))
    assert {"QC KD AH", "KD AH 2S", "QC KD AH 2S"} <= plays(state, 0)
    state = position(["AC 2D 3H 5D", "4D", "6D"], HouseRules(sequences=3))
    assert_illegal(state, Play(0, parse_cards("3H AC 2D")), "mixed_ranks")
    state = position(["2C 3D 4H 9D", "4D", "6D"], HouseRules(sequences=3, rank_order="ace_high"))
    assert "3D 4H 2C" in plays(state, 0)  # cards sort by rank identity: the 2 last


def test_bigger_beats_lower_needs_a_strictly_higher_rank() -> None:
    rules = HouseRules(set_size_rule="bigger_beats_lower")
    state = position(["7C 3D", "7D 7H 4D", "5D"], rules)
    state, _ = play(state, 0, "7C")
    assert_illegal(state, Play(1, parse_cards("7D 7H")), "too_low")


def test_revolution_any_set_of_four_or_more_never_a_run() -> None:
    rules = HouseRules(decks=2, revolution="quad", sequences=4)
    state = position(["9C 9C 9D 9H 9S 3D", "4D", "5D"], rules)
    state, events = play(state, 0, "9C 9C 9D 9H 9S")
    assert state.reversed and find(events, "revolution")
    state = position(["5C 6D 7H 8S 3D", "4D", "5D"], rules)
    state, events = play(state, 0, "5C 6D 7H 8S")
    assert not state.reversed and not find(events, "revolution")


def test_four_in_a_row_one_player_may_contribute_twice_with_three_players() -> None:
    rules = HouseRules(revolution="quad_or_four_in_a_row", equal_rank="allowed", decks=2)
    state = position(["7C 7D 3D", "7H 4D", "7S 5D"], rules)
    state, events = run(state, (0, "7C"), (1, "7H"), (2, "7S"), (0, "7D"))
    assert find(events, "revolution") == [{"hand": 1, "reversed": True}]


def test_four_in_a_row_with_suit_tiebreak_singles() -> None:
    rules = HouseRules(revolution="quad_or_four_in_a_row", suit_tiebreak="big_two")
    state = position(["7C 3D", "7D 4D", "7H 5D", "7S 6D"], rules)
    _, events = run(state, (0, "7C"), (1, "7D"), (2, "7H"), (3, "7S"))
    assert find(events, "revolution") == [{"hand": 1, "reversed": True}]


def test_suit_tiebreak_identical_twins_tie_and_equal_rank_decides() -> None:
    # Two identical cards (two decks) have no suit difference: the tie stands.
    for equal_rank in ("allowed", "skip"):
        rules = HouseRules(decks=2, suit_tiebreak="big_two", equal_rank=equal_rank)
        state = position(["8D 3D", "8D 4D", "5D"], rules)
        state, _ = play(state, 0, "8D")
        assert "8D" in plays(state, 1)
        _, events = play(state, 1, "8D")
        assert bool(find(events, "skip")) == (equal_rank == "skip")
    rules = HouseRules(decks=2, suit_tiebreak="big_two", equal_rank="off")
    state = position(["8D 3D", "8D 4D", "5D"], rules)
    state, _ = play(state, 0, "8D")
    assert_illegal(state, Play(1, parse_cards("8D")), "too_low")


def test_bomb_two_or_joker_also_during_revolution() -> None:
    rules = HouseRules(bomb="two_or_joker", revolution="quad")
    state = position(["9C 9D 3D", "2S 4D", "5D"], rules, reversed=True)
    state, _ = play(state, 0, "9C 9D")
    assert "2S" in plays(state, 1)


def test_skipped_seat_not_locked_out() -> None:
    rules = HouseRules(equal_rank="skip", pass_locks_out=True)
    state = position(["8C 3D", "8D 4D", "5D 9D", "6D 10H"], rules)
    state, _ = run(state, (0, "8C"), (1, "8D"), (3, "10H"))
    assert state.locked == frozenset() and state.turn == 0
    state, _ = run(state, (0, None), (1, None))
    assert state.turn == 2  # the seat skipped earlier may play again


def test_equal_runs_do_not_beat() -> None:
    rules = HouseRules(sequences=3, equal_rank="skip")
    state = position(["5C 6D 7H 3D", "5D 6H 7S 4D", "9D"], rules)
    state, _ = play(state, 0, "5C 6D 7H")
    assert_illegal(state, Play(1, parse_cards("5D 6H 7S")), "too_low")


def test_clear_after_out_follows_the_direction_of_play() -> None:
    rules = HouseRules(revolution="quad", revolution_reverses_direction=True)
    state = position(["9C 9D 9H 9S", "4D 5D", "5C 6D", "6C 7D"], rules)
    state, _ = play(state, 0, "9C 9D 9H 9S")  # out, and play now runs anticlockwise
    state, events = run(state, (3, None), (2, None), (1, None))
    assert find(events, "clear")[0]["leader"] == 3


def test_transparent_three_beats_a_high_joker_single() -> None:
    rules = HouseRules(transparent_threes=True, jokers=1, joker_mode="high")
    state = position(["JK 8D", "3C 4D", "5D"], rules)
    state, _ = play(state, 0, "JK")
    assert "3C" in plays(state, 1)
    state, _ = play(state, 1, "3C")
    assert state.top.is_joker  # it now counts as a joker: nothing beats it


def test_two_wraps_a_two_beats_a_high_joker() -> None:
    state = position(["JK 8D", "2C 4D", "5D"], HouseRules(two_wraps=True, jokers=1))
    state, _ = play(state, 0, "JK")
    assert "2C" in plays(state, 1)


def test_pile_stays_visible_after_the_hand_until_the_next_deal() -> None:
    state = position(["7C", "8C", "9C 3D"])
    state, _ = run(state, (0, "7C"), (1, "8C"))
    assert state.phase.value == "hand_over"
    assert [str(c) for entry in state.pile for c in entry.cards] == ["7C", "8C"]

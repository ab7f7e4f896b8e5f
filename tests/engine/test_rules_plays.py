"""House rules about what beats what (house-rules.md, the table), one test per rule."""

from __future__ import annotations

from engine_kit import assert_illegal, find, play, plays, position, run

from president.actions import Pass, Play
from president.cards import parse_cards
from president.rules import HouseRules

# ------------------------------------------------------------ decks and jokers


def test_decks_one_and_two_forced() -> None:
    from engine_kit import session

    assert sum(map(len, session(HouseRules(decks=2), players=4).hands)) == 104
    assert sum(map(len, session(HouseRules(decks=1), players=7).hands)) == 52


def test_two_decks_equal_cards_form_sets() -> None:
    state = position(["7C 7C 3D", "8C 8C 4D", "9D"], HouseRules(decks=2))
    assert "7C 7C" in plays(state, 0)
    state, _ = play(state, 0, "7C 7C")
    assert plays(state, 1) == {"8C 8C"}


def test_joker_mode_high_jokers_pair_only_with_jokers() -> None:
    rules = HouseRules(jokers=2, joker_mode="high")
    state = position(["JK JK 3D", "2C 2D 4D", "5D"], rules)
    assert "JK JK" in plays(state, 0)
    assert_illegal(state, Play(0, parse_cards("JK 3D")), "jokers_alone")
    state, _ = play(state, 0, "JK JK")
    assert_illegal(state, Play(1, parse_cards("2C 2D")), "too_low")


def test_joker_mode_high_joker_does_not_beat_a_pair() -> None:
    state = position(["2C 2D 3D", "JK 4D", "5D"], HouseRules(jokers=1, joker_mode="high"))
    state, _ = play(state, 0, "2C 2D")
    assert_illegal(state, Play(1, parse_cards("JK")), "wrong_size")


def test_joker_mode_trump_one_joker_beats_four_twos() -> None:
    rules = HouseRules(jokers=1, joker_mode="trump")
    state = position(["2C 2D 2H 2S 3D", "JK 4D", "5D"], rules)
    state, _ = play(state, 0, "2C 2D 2H 2S")
    assert "JK" in plays(state, 1)
    state, _ = play(state, 1, "JK")
    # nothing beats a trump joker
    assert plays(state, 2) == set()


def test_joker_mode_trump_jokers_play_alone() -> None:
    rules = HouseRules(jokers=2, joker_mode="trump")
    state = position(["JK JK 3D", "4D", "5D"], rules)
    assert "JK JK" not in plays(state, 0)
    assert_illegal(state, Play(0, parse_cards("JK JK")), "jokers_alone")


# ------------------------------------------------------------ rank order


def test_rank_order_ace_high_ace_beats_two_and_two_is_lowest() -> None:
    rules = HouseRules(rank_order="ace_high")
    state = position(["2C 9D", "3C AD", "KD"], rules)
    state, _ = play(state, 0, "2C")
    assert "3C" in plays(state, 1)  # the 2 is the lowest card: even a 3 beats it
    state = position(["KC 9D", "2D AD", "5D"], rules)
    state, _ = play(state, 0, "KC")
    assert plays(state, 1) == {"AD"}


def test_rank_order_two_high_two_beats_ace() -> None:
    state = position(["AC 9D", "2D 3D", "5D"])
    state, _ = play(state, 0, "AC")
    assert plays(state, 1) == {"2D"}


def test_two_wraps_two_beats_everything_and_everything_beats_two() -> None:
    rules = HouseRules(two_wraps=True, rank_order="ace_high")
    state = position(["AC 9D", "2D 3D", "5D"], rules)
    state, _ = play(state, 0, "AC")
    assert "2D" in plays(state, 1)
    state, _ = play(state, 1, "2D")
    assert "5D" in plays(state, 2)
    state = position(["2C 2H 9D", "3D 3S 4D", "5D"], HouseRules(two_wraps=True))
    state, _ = play(state, 0, "2C 2H")
    assert "3D 3S" in plays(state, 1)


def test_transparent_threes_beat_any_set_and_take_its_rank() -> None:
    rules = HouseRules(transparent_threes=True)
    state = position(["QC QD 9D", "3D 3S 4D", "KC KD 5D", "JC JD"], rules)
    state, _ = play(state, 0, "QC QD")
    assert "3D 3S" in plays(state, 1)
    state, _ = play(state, 1, "3D 3S")
    assert state.top.rank.symbol == "Q"  # the next player must beat a pair of queens
    assert "KC KD" in plays(state, 2)
    state2, _ = play(state, 2, "KC KD")
    assert state2.top.rank.symbol == "K"
    state, _ = run(state, (2, None))
    assert_illegal(state, Play(3, parse_cards("JC JD")), "too_low")


def test_transparent_threes_off_three_is_lowest() -> None:
    state = position(["QC 9D", "3D 4D", "5D"])
    state, _ = play(state, 0, "QC")
    assert_illegal(state, Play(1, parse_cards("3D")), "too_low")


def test_transparent_three_must_match_size() -> None:
    state = position(["QC QD 9D", "3D 4D", "5D"], HouseRules(transparent_threes=True))
    state, _ = play(state, 0, "QC QD")
    assert_illegal(state, Play(1, parse_cards("3D")), "wrong_size")


# ------------------------------------------------------------ passing


def test_pass_locks_out_on_player_who_passed_may_not_play_until_clear() -> None:
    rules = HouseRules(pass_locks_out=True)
    state = position(["5C 9C 3D", "6C 8C 3H", "7C 4D"], rules)
    state, _ = run(state, (0, "5C"), (1, None), (2, "7C"))
    assert state.locked == {1}
    # seat 0 may answer; seat 1 is skipped over
    state, _ = run(state, (0, None))
    # both 0 and 1 are locked: the trick clears, seat 2 leads
    assert state.top is None and state.turn == 2 and state.locked == frozenset()


def test_pass_locks_out_on_skips_a_seat_that_passed() -> None:
    rules = HouseRules(pass_locks_out=True)
    state = position(["5C 9C 3D", "6C 8C 3H", "7C 4D", "8D 4H"], rules)
    state, _ = run(state, (0, "5C"), (1, None), (2, "7C"))
    assert state.turn == 3
    state, _ = run(state, (3, "8D"))
    assert state.turn == 0  # 1 passed earlier in this trick: after 0 comes 2
    state, _ = run(state, (0, "9C"))
    assert state.turn == 2
    assert_illegal(state, Play(1, parse_cards("8C")), "locked_out")


def test_pass_locks_out_off_passer_plays_again() -> None:
    state = position(["5C 9C 3D", "6C 8C 3H", "7C 4D", "8D 4H"])
    state, _ = run(state, (0, "5C"), (1, None), (2, "7C"), (3, "8D"), (0, "9C"))
    assert state.turn == 1


# ------------------------------------------------------------ equal rank and skips


def test_equal_rank_off_equal_set_refused() -> None:
    state = position(["8C 3D", "8D 4D", "5D"])
    state, _ = play(state, 0, "8C")
    assert_illegal(state, Play(1, parse_cards("8D")), "too_low")


def test_equal_rank_allowed_equal_set_beats_without_skip() -> None:
    state = position(["8C 8H 3D", "8D 8S 4D", "5D 9D", "6D"], HouseRules(equal_rank="allowed"))
    state, _ = play(state, 0, "8C 8H")
    state, events = play(state, 1, "8D 8S")
    assert find(events, "skip") == [] and state.turn == 2


def test_equal_rank_skip_skips_next_player() -> None:
    state = position(["8C 3D", "8D 4D", "5D 9D", "6D 9H"], HouseRules(equal_rank="skip"))
    state, _ = play(state, 0, "8C")
    state, events = play(state, 1, "8D")
    assert find(events, "skip") == [{"hand": 1, "seat": 2}]
    assert state.turn == 3
    assert_illegal(state, Pass(2), "not_your_turn")


def test_equal_rank_skip_skipped_seat_counts_as_passed_for_the_clear() -> None:
    state = position(["8C 3D", "8D 4D", "5D 9D"], HouseRules(equal_rank="skip"))
    state, _ = run(state, (0, "8C"), (1, "8D"))
    assert state.turn == 0
    state, events = run(state, (0, None))
    assert find(events, "clear")[0]["leader"] == 1


def test_skip_not_with_best_no_skip_with_a_two() -> None:
    rules = HouseRules(equal_rank="skip", skip_not_with_best=True)
    state = position(["2C 3D", "2D 4D", "5D 9D", "6D 9H"], rules)
    state, _ = play(state, 0, "2C")
    state, events = play(state, 1, "2D")
    assert find(events, "skip") == [] and state.turn == 2


def test_skip_not_with_best_no_skip_with_a_joker() -> None:
    rules = HouseRules(equal_rank="skip", skip_not_with_best=True, jokers=2)
    state = position(["JK 3D", "JK 4D", "5D 9D", "6D 9H"], rules)
    state, _ = play(state, 0, "JK")
    state, events = play(state, 1, "JK")
    assert find(events, "skip") == []


def test_skip_not_with_best_no_skip_with_a_three_during_revolution() -> None:
    rules = HouseRules(equal_rank="skip", skip_not_with_best=True, revolution="quad")
    state = position(["3C 8D", "3D 4D", "5D 9D", "6D 9H"], rules, reversed=True)
    state, _ = play(state, 0, "3C")
    state, events = play(state, 1, "3D")
    assert find(events, "skip") == []
    # a two is not the best card during a revolution: it skips
    state = position(["2C 8D", "2D 4D", "5D 9D", "6D 9H"], rules, reversed=True)
    state, _ = play(state, 0, "2C")
    state, events = play(state, 1, "2D")
    assert find(events, "skip") == [{"hand": 1, "seat": 2}]


def test_skip_not_with_best_off_two_skips() -> None:
    state = position(["2C 3D", "2D 4D", "5D 9D", "6D 9H"], HouseRules(equal_rank="skip"))
    state, _ = play(state, 0, "2C")
    _, events = play(state, 1, "2D")
    assert find(events, "skip") == [{"hand": 1, "seat": 2}]


def test_skip_two_players_replay_the_equal_player_leads_again() -> None:
    rules = HouseRules(equal_rank="skip", skip_two_players_replay=True)
    state = position(["8C 3D", "8D 4D", ""], rules)
    state, _ = play(state, 0, "8C")
    state, events = play(state, 1, "8D")
    assert find(events, "skip") == [{"hand": 1, "seat": 0}]
    assert find(events, "clear")[0]["leader"] == 1 and state.turn == 1


def test_skip_two_players_replay_off_no_skip_between_two() -> None:
    rules = HouseRules(equal_rank="skip", skip_two_players_replay=False)
    state = position(["8C 3D", "8D 4D", ""], rules)
    state, _ = play(state, 0, "8C")
    state, events = play(state, 1, "8D")
    assert find(events, "skip") == [] and state.turn == 0 and state.top is not None


# ------------------------------------------------------------ set sizes


def test_set_size_rule_same_bigger_set_refused() -> None:
    state = position(["7C 3D", "9C 9D 4D", "5D"])
    state, _ = play(state, 0, "7C")
    assert_illegal(state, Play(1, parse_cards("9C 9D")), "wrong_size")


def test_set_size_rule_bigger_beats_lower() -> None:
    rules = HouseRules(set_size_rule="bigger_beats_lower")
    state = position(["7C 3D", "9C 9D 5C 5H 4D", "5D"], rules)
    state, _ = play(state, 0, "7C")
    assert "9C 9D" in plays(state, 1)
    assert_illegal(state, Play(1, parse_cards("5C 5H")), "too_low")
    state, _ = play(state, 1, "9C 9D")
    assert state.top.size == 2  # the pile now needs a pair (or bigger)


def test_set_size_rule_bigger_beats_any() -> None:
    rules = HouseRules(set_size_rule="bigger_beats_any")
    state = position(["AC 3D", "5C 5H 4D", "6D"], rules)
    state, _ = play(state, 0, "AC")
    assert "5C 5H" in plays(state, 1)


def test_set_size_rule_smaller_set_never_beats() -> None:
    rules = HouseRules(set_size_rule="bigger_beats_any")
    state = position(["5C 5D 3D", "AC 4D", "6D"], rules)
    state, _ = play(state, 0, "5C 5D")
    assert_illegal(state, Play(1, parse_cards("AC")), "wrong_size")


# ------------------------------------------------------------ sequences


def test_sequences_off_runs_refused() -> None:
    state = position(["5C 6D 7H 3D", "4D", "5D"])
    assert_illegal(state, Play(0, parse_cards("5C 6D 7H")), "mixed_ranks")


def test_sequences_run_of_min_length_beats_same_length_higher_top() -> None:
    rules = HouseRules(sequences=3)
    state = position(["5C 6D 7H 3D", "6C 7D 8H 9S 4D", "5D"], rules)
    assert "5C 6D 7H" in plays(state, 0)
    assert_illegal(state, Play(0, parse_cards("5C 6D")), "mixed_ranks")
    state, _ = play(state, 0, "5C 6D 7H")
    assert plays(state, 1) == {"6C 7D 8H", "7D 8H 9S"}
    assert_illegal(state, Play(1, parse_cards("6C 7D 8H 9S")), "wrong_size")


def test_sequences_run_and_set_do_not_mix() -> None:
    rules = HouseRules(sequences=3)
    state = position(["5C 6D 7H 3D", "9C 9D 9H 4D", "5D"], rules)
    state, _ = play(state, 0, "5C 6D 7H")
    assert_illegal(state, Play(1, parse_cards("9C 9D 9H")), "wrong_kind")


def test_sequences_min_length_four() -> None:
    rules = HouseRules(sequences=4)
    state = position(["5C 6D 7H 8S 3D", "4D", "5D"], rules)
    assert "5C 6D 7H" not in plays(state, 0)
    assert "5C 6D 7H 8S" in plays(state, 0)


# ------------------------------------------------------------ bombs


def test_bomb_two_or_joker_single_two_on_a_pair_or_triple() -> None:
    rules = HouseRules(bomb="two_or_joker", jokers=1)
    state = position(["9C 9D 3D", "2S JK 4D", "5D"], rules)
    state, _ = play(state, 0, "9C 9D")
    assert {"2S", "JK"} <= plays(state, 1)
    state = position(["9C 9D 9H 3D", "2S 4D", "5D"], rules)
    state, _ = play(state, 0, "9C 9D 9H")
    assert "2S" in plays(state, 1)
    state = position(["9C 9D 9H 9S 3D", "2S 4D", "5D"], rules)
    state, _ = play(state, 0, "9C 9D 9H 9S")
    assert_illegal(state, Play(1, parse_cards("2S")), "wrong_size")


def test_bomb_off_single_two_on_pair_refused() -> None:
    state = position(["9C 9D 3D", "2S 4D", "5D"])
    state, _ = play(state, 0, "9C 9D")
    assert_illegal(state, Play(1, parse_cards("2S")), "wrong_size")


def test_bomb_quad_beats_any_play() -> None:
    rules = HouseRules(bomb="quad")
    state = position(["2C 3D", "5C 5D 5H 5S 4D", "6D"], rules)
    state, _ = play(state, 0, "2C")
    assert "5C 5D 5H 5S" in plays(state, 1)
    state, _ = play(state, 1, "5C 5D 5H 5S")
    assert state.top.size == 4


def test_bomb_quad_higher_quad_beats_a_quad() -> None:
    rules = HouseRules(bomb="quad")
    state = position(["6C 6D 6H 6S 3D", "5C 5D 5H 5S 4D", "7C 7D 7H 7S"], rules)
    state, _ = play(state, 0, "6C 6D 6H 6S")
    assert_illegal(state, Play(1, parse_cards("5C 5D 5H 5S")), "too_low")
    state, _ = run(state, (1, None))
    assert "7C 7D 7H 7S" in plays(state, 2)


# ------------------------------------------------------------ suit tiebreak


def test_suit_tiebreak_big_two_higher_suit_beats_equal_single() -> None:
    rules = HouseRules(suit_tiebreak="big_two")
    state = position(["8D 3D", "8S 8C 4D", "5D"], rules)
    state, _ = play(state, 0, "8D")
    assert "8S" in plays(state, 1)
    assert_illegal(state, Play(1, parse_cards("8C")), "too_low")


def test_suit_tiebreak_off_suits_do_not_matter() -> None:
    state = position(["8D 3D", "8S 4D", "5D"])
    state, _ = play(state, 0, "8D")
    assert_illegal(state, Play(1, parse_cards("8S")), "too_low")


# ------------------------------------------------------------ revolution


def test_revolution_quad_reverses_rank_order() -> None:
    rules = HouseRules(revolution="quad")
    state = position(["9C 9D 9H 9S 3D KD", "4D 2D", "5D 2H", "6D"], rules)
    state, events = play(state, 0, "9C 9D 9H 9S")
    assert find(events, "revolution") == [{"hand": 1, "reversed": True}]
    assert state.reversed
    state, _ = run(state, (1, None), (2, None), (3, None))
    state, _ = play(state, 0, "KD")
    assert plays(state, 1) == {"4D"}  # lower now beats higher; the 2 is lowest


def test_counter_revolution_second_quad_restores_order() -> None:
    rules = HouseRules(revolution="quad")
    state = position(["9C 9D 9H 9S 3D", "8C 8D 8H 8S 4D", "5D", "6D"], rules)
    state, _ = play(state, 0, "9C 9D 9H 9S")
    state, events = play(state, 1, "8C 8D 8H 8S")  # lower beats higher while reversed
    assert find(events, "revolution") == [{"hand": 1, "reversed": False}]
    assert not state.reversed


def test_revolution_off_quad_changes_nothing() -> None:
    state = position(["9C 9D 9H 9S 3D", "4D", "5D"])
    state, events = play(state, 0, "9C 9D 9H 9S")
    assert find(events, "revolution") == [] and not state.reversed


def test_revolution_lasts_for_the_hand_only() -> None:
    rules = HouseRules(revolution="quad")
    state = position(["9C 9D 9H 9S", "4D", "5D 6D"], rules)
    state, _ = play(state, 0, "9C 9D 9H 9S")
    state, _ = run(state, (1, None), (2, None), (1, "4D"))
    assert state.phase.value == "hand_over"
    from engine_kit import all_ready

    state, _ = all_ready(state)
    assert not state.reversed


def test_revolution_four_in_a_row_four_equal_singles_in_turn() -> None:
    rules = HouseRules(revolution="quad_or_four_in_a_row", equal_rank="allowed")
    state = position(["7C 3D", "7D 4D", "7H 5D", "7S 6D"], rules)
    state, events = run(state, (0, "7C"), (1, "7D"), (2, "7H"))
    assert find(events, "revolution") == []
    state, events = run(state, (3, "7S"))
    assert find(events, "revolution") == [{"hand": 1, "reversed": True}]


def test_revolution_four_in_a_row_broken_by_a_pass() -> None:
    rules = HouseRules(revolution="quad_or_four_in_a_row", equal_rank="allowed")
    state = position(["7C 3D", "7D 4D", "7H 5D", "7S 6D", "8C"], rules)
    state, events = run(state, (0, "7C"), (1, "7D"), (2, "7H"), (3, None), (4, None),
                        (0, None), (1, None))
    assert find(events, "revolution") == []


def test_revolution_quad_only_no_four_in_a_row() -> None:
    rules = HouseRules(revolution="quad", equal_rank="allowed")
    state = position(["7C 3D", "7D 4D", "7H 5D", "7S 6D"], rules)
    _, events = run(state, (0, "7C"), (1, "7D"), (2, "7H"), (3, "7S"))
    assert find(events, "revolution") == []


def test_revolution_reverses_direction_on() -> None:
    rules = HouseRules(revolution="quad", revolution_reverses_direction=True)
    state = position(["9C 9D 9H 9S 3D", "4D", "5D", "6D"], rules)
    state, _ = play(state, 0, "9C 9D 9H 9S")
    assert state.direction == -1 and state.turn == 3


def test_revolution_reverses_direction_off() -> None:
    rules = HouseRules(revolution="quad")
    state = position(["9C 9D 9H 9S 3D", "4D", "5D", "6D"], rules)
    state, _ = play(state, 0, "9C 9D 9H 9S")
    assert state.direction == 1 and state.turn == 1


def test_skip_two_players_replay_off_skip_still_applies_when_equal_player_goes_out() -> None:
    # Three players in the trick: the equal player goes out, so the skip cannot give
    # them another turn; the next player is skipped as usual.
    rules = HouseRules(equal_rank="skip", skip_two_players_replay=False)
    state = position(["8C 3D", "8D", "5D 9D"], rules)
    state, _ = play(state, 0, "8C")
    state, events = play(state, 1, "8D")
    assert find(events, "skip") == [{"hand": 1, "seat": 2}]
    assert state.turn == 0


def test_skip_not_with_best_judged_in_the_order_the_play_was_made_in() -> None:
    # Two decks. The first quad of 2s starts a revolution: the 2 is now the lowest
    # card, so the equal quad of 2s is not the best set and it skips, even though it
    # also ends the revolution (making the 2 the best card again).
    rules = HouseRules(decks=2, equal_rank="skip", skip_not_with_best=True, revolution="quad")
    state = position(["2C 2D 2H 2S 3D", "2C 2D 2H 2S 4D", "5D 9D", "6D 9H"], rules)
    state, _ = play(state, 0, "2C 2D 2H 2S")
    assert state.reversed
    state, events = play(state, 1, "2C 2D 2H 2S")
    assert not state.reversed
    assert find(events, "skip") == [{"hand": 1, "seat": 2}]
    assert state.turn == 3

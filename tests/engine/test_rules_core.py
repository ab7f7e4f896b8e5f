"""The core game (house-rules.md, "Core game"): one test per rule."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_kit import (
    NAMES,
    assert_illegal,
    codes,
    find,
    play,
    plays,
    position,
    run,
    session,
)

from president.actions import GiveBack, Pass, Play, Ready
from president.cards import JOKER, Rank, make_deck, parse_cards
from president.engine import apply, legal_actions, new_session
from president.errors import RulesError
from president.rules import HouseRules, preset
from president.state import Phase

# ------------------------------------------------------------ rank order and sets


def test_rank_order_three_lowest_two_highest_single() -> None:
    order = "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C".split()
    for lower, higher in zip(order, order[1:], strict=False):
        state = position([lower + " 3H", higher + " 3S", "4D"])
        state, _ = play(state, 0, lower)
        assert higher in plays(state, 1)
        reverse = position([higher + " 3H", lower + " 3S", "4D"])
        reverse, _ = play(reverse, 0, higher)
        assert_illegal(reverse, Play(1, parse_cards(lower)), "too_low")


def test_jokers_rank_above_the_two() -> None:
    state = position(["2S 3C", "JK 4C", "5D"], HouseRules(jokers=1))
    state, _ = play(state, 0, "2S")
    assert "JK" in plays(state, 1)


def test_set_sizes_single_pair_triple_quad_may_lead() -> None:
    state = position(["7C 7D 7H 7S", "3C", "3D"])
    assert {"7C", "7C 7D", "7C 7D 7H", "7C 7D 7H 7S"} <= plays(state, 0)


def test_set_must_be_one_rank() -> None:
    state = position(["7C 8D", "3C", "3D"])
    assert_illegal(state, Play(0, parse_cards("7C 8D")), "mixed_ranks")


def test_follow_same_size_strictly_higher() -> None:
    state = position(["7C 7D 3C", "8C 8D 9S 7H 7S", "4D"])
    state, _ = play(state, 0, "7C 7D")
    assert plays(state, 1) == {"8C 8D"}
    assert_illegal(state, Play(1, parse_cards("9S")), "wrong_size")
    assert_illegal(state, Play(1, parse_cards("7H 7S")), "too_low")


def test_cards_not_in_hand_refused() -> None:
    state = position(["7C 3C", "8C", "9C"])
    assert_illegal(state, Play(0, parse_cards("7D")), "not_in_hand")
    assert_illegal(state, Play(0, ()), "empty_play")


# ------------------------------------------------------------ turns and passing


def test_not_your_turn_refused() -> None:
    state = position(["7C", "8C", "9C"])
    assert_illegal(state, Play(1, parse_cards("8C")), "not_your_turn")
    assert_illegal(state, Pass(2), "not_your_turn")


def test_leader_may_not_pass_on_empty_pile() -> None:
    state = position(["7C", "8C", "9C"])
    assert_illegal(state, Pass(0), "must_lead")


def test_player_may_always_pass() -> None:
    state = position(["7C 9C", "8C 2S", "10C 3D"])
    state, _ = play(state, 0, "7C")
    assert Pass(1) in legal_actions(state, 1)


def test_play_goes_clockwise() -> None:
    state = position(["7C 9C", "8C 2S", "10C 3D", "JC 4D"])
    state, _ = play(state, 0, "7C")
    assert state.turn == 1
    state, _ = run(state, (1, None))
    assert state.turn == 2


def test_pass_does_not_lock_out_by_default() -> None:
    state = position(["5C 9C 3D", "6C 8C 3H", "7C 4D"])
    state, _ = run(state, (0, "5C"), (1, None), (2, "7C"), (0, None))
    assert state.turn == 1 and "8C" in plays(state, 1)


def test_bad_seat_refused() -> None:
    state = position(["7C", "8C", "9C"])
    assert_illegal(state, Pass(7), "bad_seat")


def test_actions_of_another_phase_refused() -> None:
    state = position(["7C", "8C", "9C"])
    assert_illegal(state, Ready(0), "wrong_phase")
    assert_illegal(state, GiveBack(0, parse_cards("7C")), "wrong_phase")


# ------------------------------------------------------------ clears


def test_clear_when_all_others_pass_last_player_leads() -> None:
    state = position(["7C 3D", "8C 3H", "9C 4D"])
    state, events = run(state, (0, "7C"), (1, "8C"), (2, None), (0, None))
    assert find(events, "clear") == [{"hand": state.hand_number, "leader": 1}]
    assert state.top is None and state.pile == () and state.turn == 1


def test_clear_when_last_player_has_gone_out_next_clockwise_leads() -> None:
    # Seat 1 goes out with its last card; everyone passes; seat 2 (left of 1) leads.
    state = position(["7C 3D", "8C", "4C 4D", "5C 6D"])
    state, events = run(state, (0, "7C"), (1, "8C"))
    assert find(events, "out") == [{"hand": state.hand_number, "seat": 1, "place": 1}]
    state, events = run(state, (2, None), (3, None), (0, None))
    assert find(events, "clear")[0]["leader"] == 2
    assert state.turn == 2


def test_clear_after_last_player_out_skips_empty_seats() -> None:
    # Seat 1 went out earlier; seat 0 goes out; the next with cards after 0 is 2.
    state = position(["7C", "", "4C 4D", "5C 6D"])
    state, events = run(state, (0, "7C"), (2, None), (3, None))
    assert find(events, "clear")[0]["leader"] == 2


# ------------------------------------------------------------ going out, hand end


def test_hand_ends_when_one_player_holds_cards_that_player_is_scum() -> None:
    state = position(["7C", "8C", "9C 3D"])
    state, events = run(state, (0, "7C"), (1, "8C"))
    # seats 0 and 1 are out, seat 2 alone still holds cards: the hand is over
    assert state.phase is Phase.HAND_OVER
    end = find(events, "hand_end")[0]
    assert end["order"] == [0, 1, 2]
    assert end["roles"] == ["president", "neutral", "scum"]
    assert find(events, "out") == [
        {"hand": 1, "seat": 0, "place": 1}, {"hand": 1, "seat": 1, "place": 2},
        {"hand": 1, "seat": 2, "place": 3},
    ]


def test_hand_end_records_result_and_waits_for_ready() -> None:
    state = position(["7C", "8C", "9C 3D", "10C 4D"])
    state, events = run(state, (0, "7C"), (1, "8C"), (2, "9C"), (3, "10C"))
    assert state.phase is Phase.PLAY  # seats 2 and 3 still hold cards
    state, events = run(state, (2, None))
    assert find(events, "clear")[0]["leader"] == 3
    state, events = run(state, (3, "4D"))
    assert state.phase is Phase.HAND_OVER
    assert state.results[-1].order == (0, 1, 3, 2)
    assert [r.value for r in state.roles] == ["president", "vice_president", "scum", "vice_scum"]
    state, _ = apply(state, Ready(0))
    assert_illegal(state, Ready(0), "already_ready")
    assert_illegal(state, Play(0, parse_cards("7C")), "wrong_phase")


def test_out_player_may_not_act() -> None:
    state = position(["7C", "8C 3D", "9C 4D"])
    state, _ = play(state, 0, "7C")
    assert_illegal(state, Pass(0), "already_out")


# ------------------------------------------------------------ deal, dealer, first lead


@pytest.mark.parametrize("players", range(3, 9))
def test_deal_whole_deck_uneven_hands_differ_by_one(players: int) -> None:
    for name in ("classic", "bga"):
        rules = preset(name)
        if not rules.min_players <= players <= rules.max_players:
            continue
        state, events = new_session(rules, NAMES[:players], 5)
        sizes = [len(hand) for hand in state.hands]
        assert max(sizes) - min(sizes) <= 1
        dealt = Counter(card for hand in state.hands for card in hand)
        assert dealt == Counter(make_deck(rules.deck_count(players), rules.jokers))


def test_deal_one_at_a_time_from_dealers_left() -> None:
    # 5 players, 52 cards: the two seats left of the dealer get the extra cards.
    state = session(players=5, seed=3)
    order = state.order
    first = order[(order.index(state.dealer) + 1) % 5]
    second = order[(order.index(state.dealer) + 2) % 5]
    assert len(state.hands[first]) == len(state.hands[second]) == 11
    assert len(state.hands[state.dealer]) == 10


def test_first_hand_dealer_random_by_seed_and_no_tax() -> None:
    dealers = {session(seed=seed).dealer for seed in range(30)}
    assert dealers == {0, 1, 2, 3}
    state, events = new_session(HouseRules(), NAMES[:4], 9)
    assert "tax" not in codes(events) and state.phase is Phase.PLAY


def test_first_hand_left_of_dealer_leads() -> None:
    for seed in range(10):
        state, events = new_session(HouseRules(), NAMES[:5], seed)
        assert state.turn == (state.dealer + 1) % 5
        assert find(events, "lead")[0]["seat"] == state.turn


def test_deck_auto_two_decks_from_six_players() -> None:
    assert sum(map(len, session(players=5).hands)) == 52
    assert sum(map(len, session(players=6).hands)) == 104


@pytest.mark.parametrize("count", [2, 9])
def test_player_count_three_to_eight(count: int) -> None:
    with pytest.raises(RulesError) as caught:
        new_session(HouseRules(), ["x"] * count, 1)
    assert caught.value.code == "bad_player_count"


def test_jokers_per_deck() -> None:
    state = session(HouseRules(jokers=2), players=6)
    assert sum(hand.count(JOKER) for hand in state.hands) == 4
    assert Rank.JOKER not in {c.rank for h in session().hands for c in h}

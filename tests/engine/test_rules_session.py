"""Rules of the whole session: roles, tax, dealer, leads, seating, scores, end, decree."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest
from engine_kit import (
    all_ready,
    assert_illegal,
    between_hands,
    codes,
    find,
    position,
    run,
    session,
)

from president.actions import Decree, GiveBack, Pass, Play, Ready
from president.cards import Card, parse_cards
from president.combos import strengths
from president.engine import apply, end_session, legal_actions, new_session
from president.errors import IllegalAction
from president.rules import HouseRules, preset
from president.state import Phase

# ------------------------------------------------------------ roles


@pytest.mark.parametrize(("players", "expected"), [
    (3, ["president", "neutral", "scum"]),
    (4, ["president", "vice_president", "vice_scum", "scum"]),
    (5, ["president", "vice_president", "neutral", "vice_scum", "scum"]),
    (6, ["president", "vice_president", "upper_neutral", "lower_neutral", "vice_scum",
         "scum"]),
    (7, ["president", "vice_president", "upper_neutral", "neutral", "lower_neutral",
         "vice_scum", "super_scum"]),
    (8, ["president", "vice_president", "upper_neutral", "neutral", "neutral",
         "lower_neutral", "vice_scum", "super_scum"]),
])
def test_roles_by_finishing_place(players: int, expected: list[str]) -> None:
    # Seat i holds one card of rising rank: they go out in seat order.
    ranks = "3 4 5 6 7 8 9 10".split()
    hands = [f"{ranks[i]}C" for i in range(players)]
    hands[-1] += " 2S"
    state = position(hands)
    moves = [(seat, f"{ranks[seat]}C") for seat in range(players - 1)]
    state, events = run(state, *moves)
    assert find(events, "hand_end")[0]["roles"] == expected
    assert state.results[-1].order == tuple(range(players))


# ------------------------------------------------------------ tax


def _highest(cards: tuple[Card, ...], count: int) -> list[str]:
    table = strengths("two_high", False)
    ranked = sorted(cards, key=lambda c: (table[c.rank], c.key))
    return sorted(str(c) for c in ranked[len(ranked) - count:])


def _dealt(events: list, seat: int) -> tuple[Card, ...]:
    return parse_cards(find(events, "deal")[0]["hands"][seat])


def test_tax_2_1_scum_gives_two_highest_vice_scum_one() -> None:
    state = between_hands(None, [2, 0, 3, 1])  # P=2, VP=0, VS=3, S=1
    state, events = all_ready(state)
    taxes = find(events, "tax")
    assert [(t["from"], t["to"]) for t in taxes] == [(1, 2), (3, 0)]
    assert sorted(taxes[0]["cards"].split()) == _highest(_dealt(events, 1), 2)
    assert sorted(taxes[1]["cards"].split()) == _highest(_dealt(events, 3), 1)
    assert state.phase is Phase.TAX
    assert {(d.receiver, d.giver, d.count) for d in state.tax_due} == {(2, 1, 2), (0, 3, 1)}


def test_tax_receiver_free_choice_of_cards_returned() -> None:
    state = between_hands(None, [2, 0, 3, 1])
    state, _ = all_ready(state)
    options = [a for a in legal_actions(state, 2) if isinstance(a, GiveBack)]
    ranks = {tuple(card.rank for card in a.cards) for a in options}
    assert len(ranks) == len(options)  # listed once per choice of ranks (suits are equivalent)
    for pair in combinations(state.hands[2], 2):  # any two cards, even those just received
        apply(state, GiveBack(2, pair))
    best = tuple(sorted(state.hands[2])[-2:])
    state, events = apply(state, GiveBack(2, best))
    returned = " ".join(map(str, best))
    assert find(events, "tax") == [{"hand": 2, "from": 2, "to": 1, "cards": returned}]
    assert state.phase is Phase.TAX  # the Vice President still owes one card
    state, events = apply(state, GiveBack(0, state.hands[0][:1]))
    assert state.phase is Phase.PLAY
    assert state.turn == 2  # later_lead = president
    assert [len(h) for h in state.hands] == [13] * 4


def test_tax_illegal_returns_refused() -> None:
    state = between_hands(None, [2, 0, 3, 1])
    state, _ = all_ready(state)
    assert_illegal(state, GiveBack(2, state.hands[2][:1]), "wrong_count")
    assert_illegal(state, GiveBack(1, state.hands[1][:2]), "no_tax_due")
    foreign = state.hands[1][:2]
    assert_illegal(state, GiveBack(2, foreign), "not_in_hand")
    assert_illegal(state, Play(2, state.hands[2][:1]), "wrong_phase")
    assert_illegal(state, Pass(2), "wrong_phase")


def test_tax_3_players_only_president_and_scum() -> None:
    state = between_hands(None, [1, 2, 0])
    state, events = all_ready(state)
    assert [(t["from"], t["to"]) for t in find(events, "tax")] == [(0, 1)]
    assert len(find(events, "tax")[0]["cards"].split()) == 2


def test_tax_1_scum_gives_highest_card_president_returns_one() -> None:
    state = between_hands(HouseRules(tax="1"), [0, 1, 2, 3])
    state, events = all_ready(state)
    taxes = find(events, "tax")
    assert [(t["from"], t["to"]) for t in taxes] == [(3, 0)]
    assert sorted(taxes[0]["cards"].split()) == _highest(_dealt(events, 3), 1)
    assert [(d.receiver, d.count) for d in state.tax_due] == [(0, 1)]


def test_tax_3_2_1_one_more_card_each_step_inward() -> None:
    state = between_hands(HouseRules(tax="3-2-1"), [0, 1, 2, 3, 4, 5])
    state, events = all_ready(state)
    taxes = find(events, "tax")
    assert [(t["from"], t["to"], len(t["cards"].split())) for t in taxes] == [
        (5, 0, 3), (4, 1, 2), (3, 2, 1)]
    state = between_hands(HouseRules(tax="3-2-1"), [0, 1, 2, 3])
    _, events = all_ready(state)
    assert [(t["from"], t["to"]) for t in find(events, "tax")] == [(3, 0), (2, 1)]


def test_tax_none_play_starts_at_once() -> None:
    state = between_hands(HouseRules(tax="none"), [0, 1, 2, 3])
    state, events = all_ready(state)
    assert "tax" not in codes(events) and state.phase is Phase.PLAY


def test_tax_jokers_count_as_highest() -> None:
    for seed in range(40):
        state = between_hands(HouseRules(jokers=2), [0, 1, 2, 3], seed=seed)
        _, events = all_ready(state)
        scum = _dealt(events, 3)
        if scum.count(Card.parse("JK")) == 1:
            assert "JK" in find(events, "tax")[0]["cards"].split()
            return
    pytest.fail("no seed dealt the Scum a joker")


# ------------------------------------------------------------ dealer and leads


def test_dealer_scum_deals_later_hands() -> None:
    state, events = all_ready(between_hands(HouseRules(dealer="scum"), [2, 0, 3, 1]))
    assert find(events, "deal")[0]["dealer"] == 1 == state.dealer


def test_dealer_president_deals_later_hands() -> None:
    state, _ = all_ready(between_hands(HouseRules(dealer="president"), [2, 0, 3, 1]))
    assert state.dealer == 2


def test_dealer_rotate_moves_clockwise() -> None:
    rules = HouseRules(dealer="rotate")
    state = between_hands(rules, [2, 0, 3, 1], dealer=3)
    state, _ = all_ready(state)
    assert state.dealer == 0


def test_later_lead_president() -> None:
    state = between_hands(HouseRules(tax="none"), [2, 0, 3, 1])
    state, events = all_ready(state)
    assert state.turn == 2 and find(events, "lead")[0]["seat"] == 2


def test_later_lead_scum() -> None:
    state, _ = all_ready(between_hands(HouseRules(tax="none", later_lead="scum"), [2, 0, 3, 1]))
    assert state.turn == 1


def test_later_lead_left_of_dealer() -> None:
    rules = HouseRules(tax="none", later_lead="left_of_dealer", dealer="president")
    state, _ = all_ready(between_hands(rules, [2, 0, 3, 1]))
    assert state.dealer == 2 and state.turn == 3


def test_first_lead_dealer() -> None:
    state = session(HouseRules(first_lead="dealer"), seed=4)
    assert state.turn == state.dealer


def test_first_lead_three_of_clubs() -> None:
    for seed in range(5):
        state = session(HouseRules(first_lead="three_of_clubs"), seed=seed)
        assert Card.parse("3C") in state.hands[state.turn]


def test_reseat_by_rank_president_at_head_vice_on_left() -> None:
    rules = HouseRules(reseat_by_rank=True, tax="none", later_lead="left_of_dealer")
    state, _ = all_ready(between_hands(rules, [2, 0, 3, 1]))
    assert state.order == (2, 0, 3, 1)
    # the Scum (seat 1) deals; seat 2, left of seat 1 in the new seating, leads
    assert state.dealer == 1 and state.turn == 2
    state, _ = apply(state, Play(2, state.hands[2][:1]))
    assert state.turn == 0  # play follows the new seating


def test_reseat_by_rank_off_keeps_seating() -> None:
    state, _ = all_ready(between_hands(HouseRules(tax="none"), [2, 0, 3, 1]))
    assert state.order == (0, 1, 2, 3)


# ------------------------------------------------------------ scoring and session end


def _finish(rules: HouseRules, players: int = 4, scores: tuple[int, ...] | None = None):
    """Play one hand where seats go out in seat order."""
    ranks = "3 4 5 6 7 8 9 10".split()
    hands = [f"{ranks[i]}C" for i in range(players)]
    hands[-1] += " 2S"
    state = position(hands, rules)
    if scores is not None:
        state = replace(state, scores=scores)
    return run(state, *[(seat, f"{ranks[seat]}C") for seat in range(players - 1)])


@pytest.mark.parametrize(("scoring", "players", "expected"), [
    ("classic", 4, [3, 2, -2, -3]),
    ("classic", 5, [3, 2, 0, -2, -3]),
    ("polish", 5, [2, 1, 0, -1, -2]),
    ("polish", 7, [2, 1, 0, 0, 0, -1, -2]),
    ("bga", 5, [55, 50, 45, 40, 35]),
    ("presidencies", 4, [1, 0, 0, 0]),
])
def test_scoring_schemes(scoring: str, players: int, expected: list[int]) -> None:
    rules = HouseRules(scoring=scoring, session_end="open")
    state, events = _finish(rules, players)
    assert list(state.scores) == expected == find(events, "hand_end")[0]["scores"]


def test_scoring_bga_starts_at_fifty() -> None:
    assert session(preset("bga")).scores == (50,) * 4


def test_session_end_hands_after_n_hands() -> None:
    state, events = _finish(HouseRules(session_end="hands", session_length=1))
    assert state.phase is Phase.SESSION_OVER
    assert find(events, "session_end") == [{"scores": [3, 2, -2, -3], "winners": [0]}]
    assert_illegal(state, Ready(0), "session_over")
    state, _ = _finish(HouseRules(session_end="hands", session_length=2))
    assert state.phase is Phase.HAND_OVER


def test_session_end_target_score() -> None:
    rules = HouseRules(session_end="target", session_length=5, scoring="classic")
    state, _ = _finish(rules, scores=(1, 0, 0, 0))
    assert state.phase is Phase.HAND_OVER  # 4 < 5
    state, events = _finish(rules, scores=(2, 0, 0, 0))
    assert state.phase is Phase.SESSION_OVER and state.winners == (0,)


def test_session_end_zero_when_a_player_reaches_zero() -> None:
    rules = preset("bga")
    state, _ = _finish(rules, scores=(50, 50, 50, 16))
    assert state.phase is Phase.HAND_OVER  # 16 - 15 = 1
    state, events = _finish(rules, scores=(50, 50, 50, 15))
    assert state.phase is Phase.SESSION_OVER
    assert find(events, "session_end")[0]["winners"] == [0]


@pytest.mark.parametrize("end", ["minutes", "open"])
def test_session_end_minutes_open_host_ends_between_hands(end: str) -> None:
    rules = HouseRules(session_end=end, session_length=1)
    state, _ = _finish(rules)
    assert state.phase is Phase.HAND_OVER
    state, events = end_session(state)
    assert state.phase is Phase.SESSION_OVER
    assert find(events, "session_end") == [{"scores": [3, 2, -2, -3], "winners": [0]}]
    with pytest.raises(IllegalAction) as caught:
        end_session(session(rules))
    assert caught.value.code == "wrong_phase"


def test_session_winners_ties_share() -> None:
    state, _ = _finish(HouseRules(session_end="open"), scores=(0, 1, 0, 0))
    state, _ = end_session(state)
    assert state.winners == (0, 1)


# ------------------------------------------------------------ decree


def test_decree_president_sets_a_rule_for_next_hand() -> None:
    rules = HouseRules(decree=True)
    state = between_hands(rules, [2, 0, 3, 1])
    assert Decree(2, "") in legal_actions(state, 2)
    assert_illegal(state, Decree(0, "stand up"), "not_president")
    assert_illegal(state, Decree(2, "   "), "decree_invalid")
    assert_illegal(state, Decree(2, "x" * 201), "decree_invalid")
    state, events = apply(state, Decree(2, " Scum stands "))
    assert find(events, "decree") == [{"hand": 1, "seat": 2, "text": "Scum stands"}]
    assert_illegal(state, Decree(2, "again"), "decree_made")
    state, _ = all_ready(state)
    assert state.decree == "Scum stands"
    for receiver in [d.receiver for d in state.tax_due]:
        state, _ = apply(state, legal_actions(state, receiver)[0])
    assert state.phase is Phase.PLAY
    assert_illegal(state, Decree(2, "more"), "wrong_phase")


def test_decree_may_be_made_during_the_tax() -> None:
    state, _ = all_ready(between_hands(HouseRules(decree=True), [2, 0, 3, 1]))
    assert state.phase is Phase.TAX and state.decree is None
    state, _ = apply(state, Decree(2, "whisper"))
    assert state.decree == "whisper"


def test_decree_expires_after_one_hand() -> None:
    state = between_hands(HouseRules(decree=True), [2, 0, 3, 1])
    state, _ = apply(state, Decree(2, "whisper"))
    state = replace(state, hand_number=2, results=state.results * 2)
    state, _ = all_ready(state)
    assert state.decree is None


def test_decree_off_refused() -> None:
    state = between_hands(HouseRules(decree=False), [2, 0, 3, 1])
    assert Decree(2, "") not in legal_actions(state, 2)
    assert_illegal(state, Decree(2, "whisper"), "wrong_phase")


def test_no_decree_in_first_hand() -> None:
    state, _ = new_session(HouseRules(decree=True), ["a", "b", "c"], 1)
    assert all(Decree(s, "") not in legal_actions(state, s) for s in state.seats)
    assert state.roles is None

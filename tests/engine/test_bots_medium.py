"""The medium bot: card counting, planning to go out, sets kept whole, revolution, tax."""

from __future__ import annotations

from engine_kit import all_ready, between_hands, position, run

from president.actions import GiveBack, Pass, Play
from president.bots import make_bot
from president.bots.knowledge import PlayTracker, knowledge, same_rank_singles
from president.bots.medium import MediumBot, policy_for, turn_from_view
from president.bots.tables import rank_counts, tables_for
from president.cards import Rank, parse_cards
from president.combos import make_combo
from president.engine import apply
from president.rules import PRESETS, HouseRules, preset
from president.view import view


def _choice(state, seat: int = 0):
    return make_bot("medium").choose(view(state, seat))


# ---------------------------------------------------------------- who can beat what


def test_the_highest_set_still_out_depends_on_the_cards_out() -> None:
    tables = tables_for(HouseRules())
    ace = make_combo("set", 1, Rank.ACE)
    out = rank_counts(parse_cards("4C 9D KS"))
    assert not tables.can_answer(ace, False, out, 5)
    out[Rank.TWO] = 1
    assert tables.can_answer(ace, False, out, 5)
    # A pair of aces: a lone 2 cannot answer it, two 2s in one hand can.
    pair = make_combo("set", 2, Rank.ACE)
    assert not tables.can_answer(pair, False, out, 5)
    out[Rank.TWO] = 2
    assert tables.can_answer(pair, False, out, 5)
    assert not tables.can_answer(pair, False, out, 1)  # nobody holds two cards


def test_the_highest_set_follows_the_house_rules() -> None:
    out = rank_counts(parse_cards("3C 4D"))
    king = make_combo("set", 1, Rank.KING)
    assert not tables_for(HouseRules()).can_answer(king, False, out, 5)
    assert tables_for(HouseRules()).can_answer(king, True, out, 5)  # revolution: 3 is high
    assert tables_for(HouseRules(transparent_threes=True)).can_answer(king, False, out, 5)
    jokers = rank_counts(parse_cards("JK"))
    quad = make_combo("set", 4, Rank.TWO)
    assert not tables_for(HouseRules(jokers=1)).can_answer(quad, False, jokers, 5)
    assert tables_for(HouseRules(jokers=1, joker_mode="trump")).can_answer(quad, False, jokers, 5)
    fours = rank_counts(parse_cards("4C 4D 4H 4S"))
    pair = make_combo("set", 2, Rank.TWO)
    assert not tables_for(HouseRules()).can_answer(pair, False, fours, 5)
    assert tables_for(HouseRules(bomb="quad")).can_answer(pair, False, fours, 5)
    kings = rank_counts(parse_cards("KD"))
    assert not tables_for(HouseRules()).can_answer(king, False, kings, 5)
    assert tables_for(HouseRules(equal_rank="allowed")).can_answer(king, False, kings, 5)


# ---------------------------------------------------------------- playing


def test_cashes_the_unbeatable_ace_first_when_every_two_is_gone() -> None:
    # Seat 0 holds an ace and a 5; all four 2s were played earlier this hand.
    state = position(["AS 5D", "4C 6C 8C", "QD 7D 9D"])
    tracker_view = view(state, 0)
    policy = policy_for(state.rules)
    played = {1: list(parse_cards("2C 2D 2H 2S"))}
    known = knowledge(tracker_view, policy.tables, played)
    turn = turn_from_view(tracker_view, known.unseen, tracker_view.legal)
    assert policy.ranked(turn)[0][1] == Play(0, parse_cards("AS"))
    # Without that knowledge a 2 may be out: lead the low card and keep the ace.
    known = knowledge(tracker_view, policy.tables, {})
    turn = turn_from_view(tracker_view, known.unseen, tracker_view.legal)
    assert policy.ranked(turn)[0][1] == Play(0, parse_cards("5D"))


def test_leads_its_lowest_set_whole() -> None:
    assert _choice(position(["5C 5D 9S KH 2C 7H", "4D 8D JD", "6D 10D QD"])) == Play(
        0, parse_cards("5C 5D"))


def test_follows_without_splitting_a_pair() -> None:
    state = position(["6C 3D", "5S 5C 9C QC 4C 4D", "QD 5D 7D"], turn=0)
    state, _ = apply(state, Play(0, parse_cards("6C")))
    assert _choice(state, 1) == Play(1, parse_cards("9C"))


def test_keeps_its_two_early_and_plays_it_to_go_out() -> None:
    hands = ["KC 3D 4D 5D 6D 7D 8D 9D 10D", "2S 4C 6C 8C 10C JC 3H 5H 7H 9H",
             "QD 5C 7C 9C JH QH KH AH 3S"]
    state = position(hands, turn=0)
    state, _ = apply(state, Play(0, parse_cards("KC")))
    assert _choice(state, 1) == Pass(1)
    state = position(["KC 3D", "2S 4C", "QD 5D 7D"], turn=0)
    state, _ = apply(state, Play(0, parse_cards("KC")))
    assert _choice(state, 1) == Play(1, parse_cards("2S"))


def test_plays_a_low_quad_for_the_revolution() -> None:
    rules = HouseRules(revolution="quad")
    low = position(["3C 3D 3H 3S 4C 4D 5C 6H", "KD QH", "QD JS"], rules)
    assert _choice(low) == Play(0, parse_cards("3C 3D 3H 3S"))
    high = position(["KC KD KH KS 2C 2D AS 5H", "4D QH", "5D JS"], rules)
    assert _choice(high) != Play(0, parse_cards("KC KD KH KS"))


def test_gives_back_low_singles_and_keeps_pairs() -> None:
    state, _ = all_ready(between_hands(None, [2, 0, 3, 1]))
    action = _choice(state, 2)
    assert isinstance(action, GiveBack) and len(action.cards) == 2
    hand = rank_counts(state.hands[2])
    # No card given back comes from a pair (or larger set) if a single could go instead.
    singles = sum(1 for n in hand if n == 1)
    from_sets = sum(1 for card in action.cards if hand[card.rank] > 1)
    assert from_sets == 0 or singles < 2


def test_medium_never_sends_an_empty_decree() -> None:
    state = between_hands(HouseRules(decree=True), [2, 0, 3, 1], ready=frozenset({2}))
    action = MediumBot().choose(view(state, 2))
    assert action.seat == 2 and getattr(action, "text", "x").strip()


# ---------------------------------------------------------------- what a seat knows


def test_tracker_remembers_cards_of_tricks_it_no_longer_sees() -> None:
    state = position(["9C 3D 4D", "10C 5C 6C", "JC 7C 8C"], turn=0)
    tracker = PlayTracker()
    tracker.update(view(state, 0))
    state, _ = run(state, (0, "9C"), (1, "10C"), (2, "JC"))
    tracker.update(view(state, 0))  # seat 0 sees 10C and JC on the pile
    state, _ = run(state, (0, None), (1, None))  # cleared: seat 2 leads
    state, _ = run(state, (2, "7C"))
    seen = tracker.update(view(state, 0))
    assert sorted(seen[1]) == list(parse_cards("10C"))
    assert sorted(seen[2]) == sorted(parse_cards("JC 7C"))
    assert sorted(seen[0]) == list(parse_cards("9C"))


def test_tax_cards_tell_who_holds_what() -> None:
    state, _ = all_ready(between_hands(None, [2, 0, 3, 1]))  # seat 2 President, 1 Scum
    returned = _choice(state, 2)
    state, _ = apply(state, returned)
    for seat in (0,):  # the Vice President returns one card too
        state, _ = apply(state, make_bot("medium").choose(view(state, seat)))
    seen = view(state, 2)
    known = knowledge(seen, tables_for(state.rules), {})
    assert sorted(known.held[1]) == sorted(returned.cards)
    given = next(cards for giver, _, cards in seen.tax_mine if giver == 1)
    cap = min(tables_for(state.rules).strength[False][c.rank] for c in given)
    assert known.caps[1] == cap


def test_singles_of_one_rank_in_a_row_are_counted_until_a_pass() -> None:
    rules = HouseRules(revolution="quad_or_four_in_a_row", equal_rank="allowed")
    state = position(["5C 4D 9C", "5S 6C 9D", "5D 5H 7D"], rules)
    state, _ = run(state, (0, "5C"), (1, "5S"))
    assert same_rank_singles(view(state, 2)) == 2
    state, _ = run(state, (2, None))
    assert same_rank_singles(view(state, 0)) == 0


def test_every_preset_has_a_policy() -> None:
    for name in PRESETS:
        assert policy_for(preset(name)).tables.rules == preset(name)


def test_a_bot_made_for_each_move_remembers_through_the_seat_memory() -> None:
    memory = PlayTracker()
    state = position(["9C 3D 4D", "10C 5C 6C", "JC 7C 8C"], turn=0)
    make_bot("medium", 1, memory=memory).choose(view(state, 0))
    state, _ = run(state, (0, "9C"), (1, "10C"), (2, "JC"))
    make_bot("hard", 2, memory=memory, budget=0.001).choose(view(state, 0))
    state, _ = run(state, (0, None), (1, None), (2, "7C"))
    make_bot("medium", 3, memory=memory).choose(view(state, 0))
    assert sorted(memory.seen[2]) == sorted(parse_cards("JC 7C"))

"""Wild jokers (``joker_mode = wild``, issue 11): a joker stands for the card its player
declares, in a set or a run; a lone joker is the highest single."""

from __future__ import annotations

from typing import Any

import pytest
from engine_kit import (
    assert_illegal,
    codes,
    find,
    play,
    plays,
    position,
    replayed_bot_session,
)

from president.actions import Play, action_from_dict, action_to_dict
from president.cards import parse_cards
from president.engine import apply, legal_actions
from president.rules import HouseRules
from president.state import State

WILD = HouseRules(jokers=1, joker_mode="wild")
WILD_RUNS = HouseRules(jokers=1, joker_mode="wild", sequences=3)


def declared(seat: int, cards: str, declared_as: str) -> Play:
    return Play(seat, parse_cards(cards), parse_cards(declared_as))


def test_a_wild_joker_completes_a_set() -> None:
    state = position(["5C 5D JK 9H", "6C 6D 6H 4S", "KD KS 3C"], WILD)
    state, events = apply(state, declared(0, "5C 5D JK", "5H"))
    assert find(events, "play") == [{"hand": 1, "seat": 0, "cards": "5C 5D JK", "declared": "5H"}]
    assert state.top is not None and (state.top.kind, state.top.size) == ("set", 3)
    assert state.top.rank.symbol == "5"
    assert state.pile[-1].declared == parse_cards("5H")
    assert plays(state, 1) == {"6C 6D 6H"}  # a triple of sixes beats the fives


def test_a_wild_joker_fills_a_run_in_the_middle_and_at_the_end() -> None:
    state = position(["5C 7D JK 9H", "8C 9D 10H 4S", "KD KS 3C"], WILD_RUNS)
    listed = [a for a in legal_actions(state, 0) if isinstance(a, Play) and a.declared]
    assert declared(0, "5C 7D JK", "6C") in listed      # the joker as the 6 between
    assert declared(0, "7D 9H JK", "8C") in listed
    state, _ = apply(state, declared(0, "5C 7D JK", "6S"))  # any suit: suits do not matter
    assert state.top is not None and (state.top.kind, state.top.size) == ("run", 3)
    assert state.top.rank.symbol == "7"
    assert plays(state, 1) == {"8C 9D 10H"}


def test_a_lone_wild_joker_is_the_highest_single() -> None:
    state = position(["2C 4D", "JK 5D", "2D 6D"], WILD)
    state, _ = play(state, 0, "2C")
    assert "JK" in plays(state, 1)
    state, _ = play(state, 1, "JK")
    assert plays(state, 2) == set()  # nothing beats it, not even a 2
    assert state.top is not None and state.top.is_joker


def test_the_spade_three_beats_a_lone_wild_joker() -> None:
    rules = HouseRules(jokers=1, joker_mode="wild", spade_three_return=True)
    state = position(["JK 4D", "3C 3S 5D", "6D 7D"], rules)
    state, _ = play(state, 0, "JK")
    assert plays(state, 1) == {"3S"}
    state, events = play(state, 1, "3S")
    assert codes(events) == ["play", "return", "clear"] and state.turn == 1


def test_a_declaration_that_lies_is_refused() -> None:
    state = position(["5C 5D JK 9H", "6C 6D 6H 4S", "KD KS 3C"], WILD)
    assert_illegal(state, declared(0, "5C 5D JK", "6H"), "bad_declaration")
    assert_illegal(state, declared(0, "5C 9H JK", "7H"), "bad_declaration")
    assert_illegal(state, declared(0, "5C 5D", "5H"), "bad_declaration")     # no joker
    assert_illegal(state, declared(0, "JK", "5H"), "bad_declaration")        # a joker alone
    assert_illegal(state, Play(0, parse_cards("5C 5D JK")), "joker_undeclared")


def test_without_wild_jokers_a_declaration_is_refused() -> None:
    state = position(["5C 5D JK 9H", "6C 6D 6H 4S", "KD KS 3C"], HouseRules(jokers=1))
    assert_illegal(state, declared(0, "5C 5D JK", "5H"), "bad_declaration")
    assert_illegal(state, Play(0, parse_cards("5C 5D JK")), "jokers_alone")


def test_a_joker_declared_as_an_eight_cuts() -> None:
    rules = HouseRules(jokers=1, joker_mode="wild", eight_cut=True)
    state = position(["8C JK 9H", "6C 6D 4S", "KD KS 3C"], rules)
    state, events = apply(state, declared(0, "8C JK", "8D"))
    assert codes(events) == ["play", "cut", "clear"] and state.turn == 0


def test_going_out_on_a_wild_joker_is_a_forbidden_finish() -> None:
    rules = HouseRules(jokers=1, joker_mode="wild", forbidden_finish=True)
    state = position(["5C JK", "6C 6D 4S", "KD KS 3C"], rules)
    state, events = apply(state, declared(0, "5C JK", "5D"))
    assert "forbidden" in codes(events)


def test_the_declaration_travels_as_data() -> None:
    action = declared(2, "5C 5D JK", "5H")
    data = action_to_dict(action)
    assert data == {"type": "play", "seat": 2, "cards": "5C 5D JK", "declared": "5H"}
    assert action_from_dict(data) == action
    with pytest.raises(TypeError):
        action_from_dict({**data, "declared": 7})
    assert "declared" not in action_to_dict(Play(2, parse_cards("5C 5D")))


def test_the_declared_plays_stay_few() -> None:
    """Representatives only: a run of the hand's lowest-suited cards with jokers in its
    gaps (or in place of a rank it holds, as a card of that rank it lacks), a set with
    jokers in the suits the hand lacks. Two jokers beside eleven ranks make some four
    hundred runs, each leaving other cards in the hand."""
    rules = HouseRules(jokers=2, joker_mode="wild", sequences=3)
    state = position(["3C 4D 5H 8D 9H 10S JC QD KH AC 2S JK JK", "2C", "2D"], rules)
    listed = [a for a in legal_actions(state, 0) if isinstance(a, Play)]
    wild = [a for a in listed if a.declared]
    assert len(wild) == len({(a.cards, a.declared) for a in wild}) < 450
    assert declared(0, "3C 4D 5H JK JK", "6C 7C") in wild
    assert declared(0, "3C 5H JK", "4C") in wild  # the joker as the 4 it lacks, 4D kept
    assert not any(card in state.hands[0] for a in wild for card in a.declared)


def test_a_wild_session_replays_from_its_history() -> None:
    rules = HouseRules(jokers=2, joker_mode="wild", sequences=3, session_length=3)
    every = replayed_bot_session(rules, 4, 5)
    assert any("declared" in params for params in find(every, "play"))


def test_a_suit_lock_counts_the_suits_a_wild_joker_is_declared() -> None:
    rules = HouseRules(jokers=2, joker_mode="wild", suit_lock="suits")
    state = position(["5H 5S 3C", "6H JK 4C", "7C 7H JK 8D 8S"], rules)
    state, _ = play(state, 0, "5H 5S")
    state, events = apply(state, declared(1, "6H JK", "6S"))  # the joker's spade locks
    assert find(events, "lock") == [{"hand": 1, "suits": "HS", "step": False}]
    assert state.lock is not None
    listed = [a for a in legal_actions(state, 2) if isinstance(a, Play)]
    assert declared(2, "7H JK", "7S") in listed and "7C 7H" not in plays(state, 2)
    pairs = {(a.cards, a.declared) for a in listed if len(a.cards) == 2}
    assert pairs == {(parse_cards("7H JK"), parse_cards("7S")),
                     (parse_cards("8S JK"), parse_cards("8H"))}
    assert_illegal(state, declared(2, "7H JK", "7D"), "suit_locked")
    assert_illegal(state, declared(2, "7C JK", "7S"), "suit_locked")


# ------------------------------------------------------------ the heuristic bot


def bot_move(hands: list[str], rules: HouseRules, *plays: tuple[int, str]) -> Play | None:
    """What the heuristic bot at seat 1 does once seat 0 made ``plays`` (None: it passes)."""
    from president.actions import Pass
    from president.bots.heuristic import HeuristicBot
    from president.view import view

    state = position(hands, rules)
    for seat, cards in plays:
        state, _ = play(state, seat, cards)
    action = HeuristicBot(1).choose(view(state, 1))
    assert action in legal_actions(state, 1)
    return None if isinstance(action, Pass) else action  # type: ignore[return-value]


LONG = "3S 4H 6D 7C 9S 10D QC KD"  # enough cards that nothing presses the bot


def test_the_bot_completes_a_set_with_a_wild_joker() -> None:
    action = bot_move(["6C 6D 6H 3C 3D 4C 4D", "8C 8D JK " + LONG, "5C 5D 5H 4S"], WILD,
                      (0, "6C 6D 6H"))
    assert action == declared(1, "8C 8D JK", "8H")


def test_the_bot_does_not_waste_a_wild_joker_on_a_pair_early() -> None:
    action = bot_move(["6C 6D 3C 3D 4C 4D", "8C JK " + LONG, "5C 5D 5H 4S"], WILD, (0, "6C 6D"))
    assert action is None  # it passes: its joker stays the best single
    action = bot_move(["6C 3C 3D 4C 4D", "8C JK " + LONG, "5C 5D 5H 4S"], WILD, (0, "6C"))
    assert action is not None and not action.declared and action.cards != parse_cards("JK")


def test_the_bot_fills_a_run_with_a_wild_joker() -> None:
    hands = ["5C 6C 7C 3D 4C 4D", "8D 9H JK 3S 4H QC AS 2D 2S", "4S 4D"]
    action = bot_move(hands, WILD_RUNS, (0, "5C 6C 7C"))
    assert action is not None and action.declared and len(action.cards) == 3


# ------------------------------------------------------------ any declaration at all


def test_any_declaration_is_applied_or_refused_as_the_view_says() -> None:
    """Random plays with random declarations (of any length, jokers and cards not held
    among them): the engine applies or refuses each (IllegalAction, nothing else), and
    the seat's view gives the same verdict and reason (what a client shows)."""
    import random

    rng = random.Random(11)
    for rules in (WILD, WILD_RUNS, HouseRules(jokers=2, joker_mode="wild", suit_lock="suits",
                                              sequences=3, runs_same_suit=True)):
        hands = ["4C 5C 5D 6C 7H JK JK 9S", "6D 6H 4S", "KD KS 3C 3S"]
        leading = position(hands, rules)
        following, _ = play(position(hands, rules, turn=2), 2, "3C 3S")
        for state in (leading, following):
            check_declarations(state, rng)


def check_declarations(state: State, rng: Any) -> None:
    from president.cards import SUITED_RANKS, Card, Suit
    from president.errors import IllegalAction
    from president.refusals import refusal
    from president.view import view

    hand, seen = state.hands[0], view(state, 0)
    assert state.turn == 0
    for _ in range(300):
        cards = tuple(sorted(rng.sample(hand, rng.randint(1, 4))))
        named = tuple(sorted(
            Card(rng.choice(SUITED_RANKS), rng.choice(list(Suit))) if rng.random() < 0.9
            else parse_cards("JK")[0] for _ in range(rng.randint(0, 3))))
        action = Play(0, cards, named)
        try:
            apply(state, action)
            code = None
        except IllegalAction as error:
            code = error.code
        assert refusal(seen, action) == code, action


def test_a_joker_standing_for_a_held_card_in_a_run_is_refused_as_such() -> None:
    """The move list never has a joker stand for a card its player holds: the refusal
    says so (it said ``too_low``, which the play was not). A card of a rank the hand
    holds in another suit is one it lacks (issue 31)."""
    state = position(["5C 6C 7H 8D JK", "6D 7D 8H 4S", "KD KS 3C"], WILD_RUNS)
    assert_illegal(state, declared(0, "6C 7H JK", "8D"), "joker_held")
    assert_illegal(state, declared(0, "6C 7H JK", "5C"), "joker_held")
    after, _ = apply(state, declared(0, "6C 7H JK", "8S"))  # 8D stays in the hand
    assert after.hands[0] == parse_cards("5C 8D")
    state, _ = apply(state, declared(0, "7H 8D JK", "9C"))  # a rank it does not hold

"""The engine's caches and its fast path for listed actions change nothing.

``apply`` takes a shortcut for the very objects ``legal_actions`` listed, and the
legal plays come from caches (plays by rank group, derived from the hand a play
left; compare outcomes memoised by top). Over random sessions under random rules:
an equal copy of the action (which takes the checked path) gives the same state
and events, and the listed plays are, in order, the candidates that classify as
a play and beat the top (the definition, computed without any cache).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_kit import NAMES

from president.actions import Action, Decree, GiveBack, Pass, Play, Ready
from president.combos import BEATS, EQUAL, classify, compare
from president.engine import apply, candidate_plays, legal_actions, new_session
from president.rules import ALLOWED, HouseRules
from president.state import Phase, State


def random_rules(rng: random.Random) -> HouseRules:
    skip = {"min_players", "max_players", "session_length", "session_end", "scoring"}
    values = {name: rng.choice(allowed) for name, allowed in ALLOWED.items() if name not in skip}
    return HouseRules(**values, session_end="hands", session_length=2)


def copy_of(action: Action) -> Action:
    """An equal action that is not the listed object (nor shares its cards tuple)."""
    match action:
        case Play(seat, cards):
            return Play(seat, tuple(list(cards)))
        case GiveBack(seat, cards):
            return GiveBack(seat, tuple(list(cards)))
        case Pass(seat):
            return Pass(seat)
        case Ready(seat):
            return Ready(seat)
    raise TypeError(action)


def expected_plays(state: State, seat: int) -> list[Play]:
    rules, reversed_ = state.rules, state.reversed
    plays = []
    for cards in candidate_plays(state.hands[seat], rules, reversed_):
        combo = classify(cards, rules, reversed_)
        if not isinstance(combo, str) and compare(
            combo, state.top, rules, reversed_
        ) in (BEATS, EQUAL):
            plays.append(Play(seat, cards))
    return plays


@pytest.mark.parametrize("seed", range(10))
def test_listed_actions_and_their_copies_apply_alike(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    players = rng.randint(max(3, rules.min_players), 8)
    if rules.sequences and rules.deck_count(players) == 2 and players < 6:
        rules = replace(rules, decks=1)  # keep run listings small
    state, _ = new_session(rules, NAMES[:players], seed)
    steps = 0
    while state.phase is not Phase.SESSION_OVER and steps < 1000:
        steps += 1
        seat, options = next(
            (seat, options) for seat in state.seats
            if (options := [a for a in legal_actions(state, seat) if not isinstance(a, Decree)])
        )
        if state.phase is Phase.PLAY:
            listed = [a for a in options if isinstance(a, Play)]
            assert listed == expected_plays(state, seat)
            assert (Pass(seat) in options) == (state.top is not None)
        action = rng.choice(options)
        fast_state, fast_events = apply(state, action)
        slow_state, slow_events = apply(state, copy_of(action))
        assert fast_state == slow_state and fast_events == slow_events
        state = fast_state if steps % 2 else slow_state
    assert state.phase is Phase.SESSION_OVER

"""The incremental move generator lists what the reference defines, and ``apply``'s
fast path changes nothing.

``legal_actions`` takes its plays from ``moves.MoveGenerator`` (plays by rank group,
derived from the hand a play left; compare outcomes kept by top); ``apply`` recognises
a listed action by value. Over random sessions under random rules: the listed plays
are, in order, ``moves.reference_plays`` (the candidates that classify as a play and
go onto the top, computed without any cache); an equal copy of the action gives the
same state and events; and an action given in another form (other suits, unsorted
cards), which takes the checked path, gives the same state and events too.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_kit import NAMES

from president.actions import Action, Decree, GiveBack, Pass, Play, action_from_dict, action_to_dict
from president.engine import _apply_checked, _apply_listed, apply, legal_actions, new_session
from president.errors import IllegalAction
from president.events import Event
from president.moves import reference_plays, suited
from president.rules import ALLOWED, HouseRules
from president.state import Phase, State


def random_rules(rng: random.Random) -> HouseRules:
    skip = {"min_players", "max_players", "session_length", "session_end", "scoring"}
    values = {name: rng.choice(allowed) for name, allowed in ALLOWED.items() if name not in skip}
    return HouseRules(**values, session_end="hands", session_length=2)


def copy_of(action: Action) -> Action:
    """An equal action that is not the listed object (nor shares its cards tuple): the
    action as the host decodes it from the network."""
    copy = action_from_dict(action_to_dict(action))
    assert copy == action and copy is not action
    return copy


def _codes(events: list[Event]) -> list[str]:
    """The codes of ``events`` but a lock's (which other suits may not start)."""
    return [event.code for event in events if event.code != "lock"]


def _apply_refused(state: State, action: Action) -> bool:
    try:
        _apply_checked(state, action)
    except IllegalAction:
        return True
    return False


def expected_plays(state: State, seat: int) -> list[Play]:
    plays = reference_plays(state.hands[seat], state.top, state.rules, state.reversed,
                            state.lock)
    return [Play(seat, cards, declared) for cards, declared in plays]


def other_form(state: State, action: Action) -> Action:
    """``action`` with its cards reversed and, where the hand holds another card of the
    same rank unplayed, that card instead (the checked path's work)."""
    if not isinstance(action, Play | GiveBack):
        return action
    spare = list(state.hands[action.seat])
    for card in action.cards:
        spare.remove(card)
    cards = []
    for card in action.cards:
        other = next((c for c in spare if c.rank is card.rank and c != card), None)
        if other is not None:
            spare.remove(other)
            cards.append(other)
        else:
            cards.append(card)
    return replace(action, cards=tuple(reversed(cards)))


@pytest.mark.parametrize("seed", range(10))
def test_listed_actions_and_their_copies_apply_alike(seed: int) -> None:
    rng = random.Random(seed)
    walk_a_session(random_rules(rng), rng, seed)


@pytest.mark.parametrize("seed", range(4))
def test_listed_actions_under_a_suit_lock(seed: int) -> None:
    """Random rules with a suit lock and runs (of one suit for the first two seeds): every
    set listed in each choice of suits, every run of one suit in its suit."""
    rng = random.Random(100 + seed)
    lock = ("suits", "suits_and_step")[seed % 2]
    rules = replace(random_rules(rng), suit_lock=lock, sequences=3, runs_same_suit=seed < 2)
    walk_a_session(rules, rng, seed)


def walk_a_session(rules: HouseRules, rng: random.Random, seed: int) -> None:
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
        if state.phase is Phase.PLAY and not state.giving:  # (a 7-pass, a 10-discard: no plays)
            listed = [a for a in options if isinstance(a, Play)]
            assert listed == expected_plays(state, seat)
            assert (Pass(seat) in options) == (state.top is not None)
        action = rng.choice(options)
        fast_state, fast_events = apply(state, action)
        copy_state, copy_events = apply(state, copy_of(action))
        assert fast_state == copy_state and fast_events == copy_events
        other = other_form(state, action)
        if isinstance(other, Play) and other.cards != action.cards:
            ordered = replace(other, cards=tuple(sorted(other.cards)))
            fast = _apply_listed(state, ordered)  # other suits, where they do not matter
            if fast is not None:
                assert fast == _apply_checked(state, ordered)
            else:  # only a run, or a single whose suit matters, must be listed exactly
                first = ordered.cards[0].rank
                assert ordered.cards[-1].rank is not first or suited(state.rules, first) or (
                    _apply_refused(state, ordered))
        try:
            slow_state, slow_events = apply(state, other)
        except IllegalAction:  # only where other suits matter
            assert (state.rules.suit_tiebreak == "big_two" or state.rules.spade_three_return
                    or state.rules.suit_lock != "off" or state.rules.runs_same_suit)
        else:  # the same play: only the suits of the cards played (and so a lock) may
            # differ; with big_two a suit may make a play equal to the top, not beat it
            if state.rules.suit_tiebreak != "big_two":
                assert slow_state.turn == fast_state.turn
                assert _codes(slow_events) == _codes(fast_events)
        state = fast_state if steps % 2 else copy_state
    assert state.phase is Phase.SESSION_OVER

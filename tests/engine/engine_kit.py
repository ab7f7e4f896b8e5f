"""Helpers for engine tests: build precise positions and drive the engine."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from president.actions import Action, Decree, Pass, Play, Ready
from president.cards import parse_cards
from president.engine import apply, legal_actions, new_session
from president.errors import IllegalAction
from president.events import Event
from president.roles import Role
from president.rules import HouseRules
from president.state import HandResult, Phase, State

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")


def session(rules: HouseRules | None = None, players: int = 4, seed: int = 1) -> State:
    state, _ = new_session(rules or HouseRules(), NAMES[:players], seed)
    return state


def position(
    hands: Sequence[str], rules: HouseRules | None = None, *, turn: int = 0, **fields: Any
) -> State:
    """A hand in play with the given hands (text notation, by seat); ``turn`` leads."""
    state = session(rules, len(hands))
    return replace(
        state, phase=Phase.PLAY, hands=tuple(parse_cards(h) for h in hands), turn=turn,
        tax_due=(), tax_log=(), **fields,
    )


def between_hands(
    rules: HouseRules | None, order: Sequence[int], *, seed: int = 1, hand_number: int = 1,
    **fields: Any,
) -> State:
    """The pause after a hand whose finishing order was ``order`` (seats, first out first)."""
    from president.roles import roles_for_places

    rules = rules or HouseRules()
    state = session(rules, len(order), seed)
    by_place = roles_for_places(len(order))
    roles: list[Role] = [Role.NEUTRAL] * len(order)
    for place, seat in enumerate(order):
        roles[seat] = by_place[place]
    result = HandResult(tuple(order), tuple(roles), state.scores)
    return replace(
        state, phase=Phase.HAND_OVER, hand_number=hand_number, hands=((),) * len(order),
        turn=None, finished=tuple(order), roles=tuple(roles), results=(result,),
        tax_due=(), tax_log=(), **fields,
    )


def all_ready(state: State) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for seat in state.seats:
        state, more = apply(state, Ready(seat))
        events += more
    return state, events


def play(state: State, seat: int, cards: str) -> tuple[State, list[Event]]:
    return apply(state, Play(seat, parse_cards(cards)))


def run(state: State, *moves: tuple[int, str | None]) -> tuple[State, list[Event]]:
    """Apply moves ``(seat, "7C 7D")`` or ``(seat, None)`` for a pass; all events."""
    events: list[Event] = []
    for seat, cards in moves:
        action: Action = Pass(seat) if cards is None else Play(seat, parse_cards(cards))
        state, more = apply(state, action)
        events += more
    return state, events


def codes(events: Sequence[Event]) -> list[str]:
    return [event.code for event in events]


def find(events: Sequence[Event], code: str) -> list[dict[str, Any]]:
    return [event.params for event in events if event.code == code]


def assert_illegal(state: State, action: Action, code: str) -> None:
    """``action`` is refused with ``code``, is not listed as legal, and changes nothing."""
    before = replace(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert caught.value.code == code, caught.value
    assert state == before
    if not isinstance(action, Decree):
        assert action not in legal_actions(state, action.seat)


def plays(state: State, seat: int) -> set[str]:
    """The legal plays of ``seat``, in text notation."""
    from president.cards import format_cards

    return {
        format_cards(a.cards) for a in legal_actions(state, seat) if isinstance(a, Play)
    }


def replayed_bot_session(rules: HouseRules, players: int, seed: int) -> list[Event]:
    """Every event of a session that heuristic bots play through under ``rules``, after
    checking that its history replays to the same scores."""
    from president.bots.heuristic import HeuristicBot
    from president.history import history_lines, replay_history
    from president.view import view

    state, events = new_session(rules, NAMES[:players], seed)
    every = list(events)
    bots = [HeuristicBot(seat) for seat in range(players)]
    while state.phase is not Phase.SESSION_OVER:
        seat = next(s for s in state.seats if legal_actions(state, s))
        state, events = apply(state, bots[seat].choose(view(state, seat)))
        every += events
    final, _ = replay_history(list(history_lines(rules, "custom", NAMES[:players], seed, every)))
    assert final.scores == state.scores
    return every

"""A view survives the wire (``View.from_dict``), and a client asking the engine's
``refusals`` about a seat's view gets the answer ``apply`` gives on the state."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_kit import NAMES

from president.actions import Action, GiveBack, Pass, Play, Ready
from president.bots import RandomBot
from president.engine import apply, legal_actions, new_session
from president.errors import IllegalAction, PresidentError
from president.refusals import refusal
from president.rules import PRESETS
from president.state import Phase
from president.view import RESULTS_SENT, View, view


def sessions(preset: str, players: int, seed: int, limit: int = 400):
    """(state, seat) pairs along a random session."""
    state, _ = new_session(PRESETS[preset], NAMES[:players], seed)
    bot = RandomBot(seed)
    for _ in range(limit):
        if state.phase is Phase.SESSION_OVER:
            return
        for seat in state.seats:
            yield state, seat
        actor = next((s for s in state.seats if any(
            not a.__class__.__name__ == "Decree" for a in legal_actions(state, s))), None)
        if actor is None:
            return
        state, _ = apply(state, bot.choose(view(state, actor)))


@pytest.mark.parametrize("preset,players", [("classic", 4), ("bga", 6), ("daihinmin", 5)])
def test_a_view_read_back_from_the_wire_is_the_view_sent(preset: str, players: int) -> None:
    for state, seat in sessions(preset, players, seed=3):
        for who in (seat, None):
            sent = view(state, who)
            if sent.phase not in ("hand_over", "session_over"):  # sent between hands only
                sent = replace(sent, results=())
            sent = replace(sent, results=sent.results[-RESULTS_SENT:])
            assert View.from_dict(sent.to_dict(), state.rules) == sent


def test_a_malformed_view_is_refused_not_half_read() -> None:
    state, _ = new_session(PRESETS["classic"], NAMES[:4], 1)
    good = view(state, 0).to_dict()
    for key, bad in [("hand", "ZZ"), ("counts", "13"), ("turn", "0"), ("top", ["set", 1, "Q"]),
                     ("legal", [{"type": "fly"}]), ("reversed", 0)]:
        with pytest.raises((KeyError, TypeError, ValueError, PresidentError)):
            View.from_dict({**good, key: bad}, state.rules)


def _tries(state, seat: int, rng: random.Random) -> list[Action]:
    hand = state.hands[seat]
    picks = [tuple(sorted(rng.sample(hand, k))) for k in range(1, min(4, len(hand)) + 1)]
    return [*(Play(seat, cards) for cards in picks), Pass(seat), Ready(seat),
            *(GiveBack(seat, cards) for cards in picks[:2])]


@pytest.mark.parametrize("preset,players", [("classic", 4), ("bga", 5), ("daihinmin", 4)])
def test_the_clients_question_gets_the_hosts_answer(preset: str, players: int) -> None:
    rng = random.Random(9)
    asked = refused = 0
    for state, seat in sessions(preset, players, seed=11, limit=250):
        seat_view = View.from_dict(view(state, seat).to_dict(), state.rules)
        for action in _tries(state, seat, rng):
            asked += 1
            try:
                apply(state, action)
                answer = None
            except IllegalAction as error:
                answer = error.code
                refused += 1
            assert refusal(seat_view, action) == answer, (action, state.phase)
    assert asked > 1000 and 0 < refused < asked


def test_the_view_between_hands_does_not_grow_with_the_session() -> None:
    """An open-ended evening: the frame sent after hand 60 is the size of the one after
    hand 15 (it carried every finished hand, about 70 bytes more per hand)."""
    import msgpack

    rules = replace(PRESETS["classic"], session_end="open")
    state, _ = new_session(rules, NAMES[:4], 5)
    bot, sizes = RandomBot(5), {}
    while state.hand_number <= 60:
        if state.phase is Phase.HAND_OVER and state.hand_number in (15, 60):
            sizes[state.hand_number] = len(msgpack.packb(view(state, 0).to_dict()))
        actor = next(s for s in state.seats if any(
            not a.__class__.__name__ == "Decree" for a in legal_actions(state, s)))
        state, _ = apply(state, bot.choose(view(state, actor)))
    assert len(state.results) >= 60                       # the engine keeps them all
    assert abs(sizes[60] - sizes[15]) < 64, sizes

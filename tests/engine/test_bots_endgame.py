"""The hard bot's endgame solver: with two seats left it solves the hand exactly."""

from __future__ import annotations

import time

from engine_kit import position

from president.actions import Play
from president.bots import HardBot, MediumBot
from president.bots.endgame import Solver
from president.bots.knowledge import PlayTracker, deck_for
from president.cards import parse_cards
from president.engine import apply
from president.view import view


def _heads_up():
    """Seats 0 and 3 are out; seat 1 leads 5♦ 5♠ 6♣ 6♠ 10♦ against 6♥ 8♦ 8♠."""
    return position(["", "5D 5S 6C 6S 10D", "6H 8D 8S", ""], turn=1, finished=(0, 3))


def test_the_solver_finds_the_only_lead_that_goes_out_first() -> None:
    state = _heads_up()
    places = {str(a.cards[0]) + str(len(a.cards)): Solver(1, time.process_time() + 60).place(
        apply(state, a)[0]) for a in view(state, 1).legal if isinstance(a, Play)}
    assert places == {"5D1": 4, "5D2": 4, "6C1": 3, "6C2": 4, "10D1": 4}


def test_hard_solves_the_heads_up_endgame_where_medium_loses_it() -> None:
    """It saw every other card played: the deal is known, and 6♣ alone wins (the pair of
    5s medium leads lets 8♦ 8♠ take the lead and 6♥ go out)."""
    state = _heads_up()
    out = list(deck_for(state.rules, 4))
    for card in (*state.hands[1], *state.hands[2]):
        out.remove(card)

    def memory() -> PlayTracker:
        tracker = PlayTracker()
        tracker.hand_number, tracker.seen = state.hand_number, {0: list(out)}
        return tracker

    seen = view(state, 1)
    assert MediumBot(0, memory()).choose(seen) == Play(1, parse_cards("5D 5S"))
    assert HardBot(0, 60.0, deals=16, memory=memory()).choose(seen) == Play(1, parse_cards("6C"))

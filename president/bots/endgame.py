"""The hard bot's endgame solver: when two seats are left holding cards, the hand is a
two-player game of perfect information on one deal (in a real game the seat's unseen
cards are then the other's hand, but for cards played out of its sight), solved exactly
by search: which of the two goes out first (the other takes the place after it), under
every rule the engine applies (a forbidden finish, an 8-cut, a lock...).
"""

from __future__ import annotations

import time

from president.actions import Action, Decree
from president.engine import apply, legal_actions
from president.state import Phase, State

NODES = 20000  # positions searched at most by one solver: past it, it gives up


class OutOfNodes(Exception):
    pass


class Solver:
    """Solves positions of one hand for ``seat``, sharing what it found between them."""

    def __init__(self, seat: int, deadline: float, nodes: int = NODES) -> None:
        """``deadline``: the CPU time (``time.process_time``) past which it gives up."""
        self.seat = seat
        self.nodes = nodes
        self.deadline = deadline
        self.known: dict[tuple[object, ...], int] = {}

    def place(self, state: State) -> int | None:
        """``seat``'s place when both seats play perfectly from ``state`` (two seats
        holding cards, ``seat`` one of them), or None when the search is too big."""
        try:
            return self._place(state)
        except OutOfNodes:
            return None

    def best(self, state: State, options: list[Action]) -> tuple[Action, int] | None:
        """The option of ``seat`` (to act in ``state``) with the best place, and that place."""
        found: tuple[Action, int] | None = None
        for option in options:
            after, _ = apply(state, option)
            place = self.place(after)
            if place is None:
                return None
            if found is None or place < found[1]:
                found = (option, place)
        return found

    def _place(self, state: State) -> int:
        seat = self.seat
        place = state.place(seat)
        if place is not None or state.phase is not Phase.PLAY:
            return place if place is not None else len(state.players)
        key = (state.hands, state.turn, state.top, state.passed, state.locked, state.reversed,
               state.back, state.lock, state.giving, state.last_player, state.direction,
               state.pile[-1] if state.pile else None, state.same_rank_singles)
        known = self.known.get(key)
        if known is not None:
            return known
        self.nodes -= 1
        if self.nodes < 0 or (not self.nodes % 128 and time.process_time() > self.deadline):
            raise OutOfNodes
        actor = state.turn
        assert actor is not None
        mine = actor == seat
        result = -1
        # Plays before the pass: the first that settles the place ends the search.
        options = sorted((a for a in legal_actions(state, actor) if not isinstance(a, Decree)),
                         key=lambda a: -len(getattr(a, "cards", ())))
        for option in options:
            after, _ = apply(state, option)
            place = self._place(after)
            if result < 0 or (place < result if mine else place > result):
                result = place
            if self._settled(state, result, mine):
                break
        self.known[key] = result
        return result

    def _settled(self, state: State, place: int, mine: bool) -> bool:
        """No other option can do better for the seat to act: the two seats left share
        the places after those already taken, so the best for one is the worse for the
        other."""
        first = len(state.finished) + 1
        return place == first if mine else place > first

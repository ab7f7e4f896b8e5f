"""A ``Game``: what one set of house rules implies, worked out once (as OpenSpiel's
loaded game): the move generator and its caches, the rank strength tables, the steps
a play goes through, the seats that follow a seat.

Every state of a session holds its ``Game`` (``State.game``); nothing is kept by
module or by object identity: a Game and its caches go with the session's states.
"""

from __future__ import annotations

from president.cards import Rank
from president.combos import Combo, best_rank, resulting_top, strengths
from president.moves import MoveGenerator
from president.rules import HouseRules
from president.trick import Step, play_steps, skip_steps


class Game:
    """Derived from ``rules`` alone; its caches only ever hold values."""

    __slots__ = ("rules", "moves", "strength", "best", "play_steps", "skip_steps",
                 "forbidden_finish", "downfall", "transparent_threes", "steps", "choices", "_order",
                 "_following")

    def __init__(self, rules: HouseRules) -> None:
        self.rules = rules
        self.moves = MoveGenerator(rules)
        # Rank -> strength in each order (False: normal, True: reversed).
        self.strength: dict[bool, dict[Rank, int]] = {
            reversed_: strengths(rules.rank_order, reversed_) for reversed_ in (False, True)}
        self.best: dict[bool, Rank] = {
            reversed_: best_rank(rules, reversed_) for reversed_ in (False, True)}
        self.play_steps: tuple[Step, ...] = play_steps(rules)
        self.skip_steps: tuple[Step, ...] = skip_steps(rules)
        self.steps = bool(self.play_steps or self.skip_steps)  # (a play may set off some)
        self.choices = rules.seven_pass or rules.ten_discard  # (a play may leave a choice)
        self.forbidden_finish = rules.forbidden_finish
        self.downfall = rules.downfall
        self.transparent_threes = rules.transparent_threes
        self._order: tuple[int, ...] = ()
        self._following: dict[int, dict[int, tuple[int, ...]]] = {}

    def top_after(self, played: Combo, top: Combo | None) -> Combo:
        """The top of the pile once ``played`` lies on ``top`` (``transparent_threes``)."""
        return resulting_top(played, top, self.rules) if self.transparent_threes else played

    def following(self, order: tuple[int, ...], direction: int, after: int) -> tuple[int, ...]:
        """The seats after ``after`` in the direction of play, ``after`` itself last.
        (Kept for the seating last asked about: it changes at most once a hand.)"""
        if order is not self._order and order != self._order:
            count = len(order)
            self._order = order
            self._following = {
                way: {seat: tuple([order[(index + step * way) % count]
                                   for step in range(1, count + 1)])
                      for index, seat in enumerate(order)}
                for way in (1, -1)}
        return self._following[direction][after]

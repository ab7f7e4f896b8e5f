"""What a bot derives once from a table's rules: rank strengths, and which sets can be
played on a given top of the pile (so that "nobody can beat this" is a table look-up).

Hands and pools of unseen cards are counted by rank: a list indexed by ``int(rank)``
(``Rank.THREE`` = 3 … ``Rank.JOKER`` = 16), so that counting the cards still out is
additions, not set operations on cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from president.cards import SUITED_RANKS, Card, Rank, Suit
from president.combos import Combo, compare, make_combo, strengths
from president.game import Game
from president.rules import HouseRules

RANKS: tuple[Rank, ...] = (*SUITED_RANKS, Rank.JOKER)
SLOTS = int(Rank.JOKER) + 1  # length of a rank-count list
MAX_SET = 8  # two decks: eight cards of a rank

Counts = list[int]


def rank_counts(cards: Iterable[Card]) -> Counts:
    counts = [0] * SLOTS
    for card in cards:
        counts[card.rank] += 1
    return counts


class RuleTables:
    """Look-ups for one ``HouseRules``; shared by every bot of the table (see ``tables_for``)."""

    def __init__(self, rules: HouseRules) -> None:
        self.rules = rules
        self.game = Game(rules)  # the engine's, for the states a search builds
        self.trump = rules.joker_mode == "trump"
        self.revolution = rules.revolution != "off"
        self.four_in_a_row = rules.revolution == "quad_or_four_in_a_row"
        self.quad_bomb = rules.bomb == "quad"
        # strength[reversed][rank]: higher beats lower (jokers on top either way).
        self.strength: dict[bool, list[int]] = {}
        # The suited ranks from weakest to strongest, in each order.
        self.ladder: dict[bool, tuple[Rank, ...]] = {}
        self.order: dict[bool, dict[Rank, int]] = {}  # strength by Rank (``combos.strengths``)
        for reversed_ in (False, True):
            table = self.order[reversed_] = strengths(rules.rank_order, reversed_)
            by_slot = [0] * SLOTS
            for rank, value in table.items():
                by_slot[rank] = value
            self.strength[reversed_] = by_slot
            self.ladder[reversed_] = tuple(sorted(SUITED_RANKS, key=table.__getitem__))
        # By order and the combo's value (``Combo.code``).
        self._beaters: dict[bool, dict[int, tuple[tuple[int, int], ...]]] = {
            False: {}, True: {}}

    def beaters(self, top: Combo, reversed_: bool) -> tuple[tuple[int, int], ...]:
        """``(rank, size)``: for each rank, the smallest set of it that may be played on
        ``top`` (beating it, or matching it where ``equal_rank`` allows). A pool holding
        ``size`` cards of ``rank`` can therefore answer ``top``."""
        known = self._beaters[reversed_].get(top.code)
        if known is not None:
            return known
        rules = self.rules
        answers = []
        for rank in RANKS:
            sizes = (1,) if rank is Rank.JOKER and self.trump else range(1, MAX_SET + 1)
            for size in sizes:
                # A single carries a suit under suit_tiebreak: assume the best one.
                suit = Suit.SPADES if size == 1 and rank is not Rank.JOKER else None
                if compare(make_combo("set", size, rank, suit), top, rules, reversed_).playable:
                    answers.append((int(rank), size))
                    break
        found = self._beaters[reversed_][top.code] = tuple(answers)
        return found

    def can_answer(self, top: Combo, reversed_: bool, pool: Counts, most: int) -> bool:
        """Whether cards of ``pool``, at most ``most`` of them in one hand, can be
        played on ``top`` (a set on a set, a higher run on a run, a bomb or a joker)."""
        if most <= 0:
            return False
        for rank, size in self.beaters(top, reversed_):
            if size <= most and pool[rank] >= size:
                return True
        if top.kind == "run" and top.size <= most:
            return self._run_out(top, reversed_, pool)
        return False

    def _run_out(self, top: Combo, reversed_: bool, pool: Counts) -> bool:
        """A run of ``top.size`` ranks in ``pool`` whose top rank beats ``top.rank``."""
        strength = self.strength[reversed_]
        above = strength[top.rank]
        stretch = 0
        for rank in self.ladder[reversed_]:
            stretch = stretch + 1 if pool[rank] else 0
            if stretch >= top.size and strength[rank] > above:
                return True
        return False

    def threats(self, top: Combo, reversed_: bool, pool: Counts, most: int) -> int:
        """How many separate answers to ``top`` the pool holds (a rough count of how
        often it could still be beaten)."""
        total = 0
        for rank, size in self.beaters(top, reversed_):
            if size <= most:
                total += pool[rank] // size
        return total


@lru_cache(maxsize=32)
def tables_for(rules: HouseRules) -> RuleTables:
    return RuleTables(rules)

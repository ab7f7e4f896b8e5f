"""What a set of cards is (a set or a run) and whether it beats the top of the pile.

Every rule about ranking plays lives here: rank order, revolution, jokers,
``two_wraps``, ``transparent_threes``, ``set_size_rule``, ``bomb``,
``suit_tiebreak``, ``equal_rank`` and ``spade_three_return``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from president.cards import SUITED_RANKS, Card, Rank, Suit
from president.rules import (
    Bomb,
    EqualRank,
    HouseRules,
    JokerMode,
    RankOrder,
    SetSizeRule,
    SuitTiebreak,
)

JOKER_STRENGTH = 100


@dataclass(frozen=True, slots=True)
class Combo:
    """A valid play. ``rank`` is the set's rank, or a run's top rank; after a
    transparent 3 it is the rank of the set it beat (``transparent_threes``)."""

    kind: str  # "set" or "run"
    size: int
    rank: Rank
    suit: Suit | None = None  # a single's suit, for suit_tiebreak
    # The fields as one small number (equal combos, equal codes): what caches key on.
    code: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        suit = 0 if self.suit is None else self.suit + 1
        code = ((self.rank * 32 + self.size) * 8 + suit) * 2 + (self.kind == "run")
        object.__setattr__(self, "code", code)  # frozen: a derived field, set once here

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER


def strengths(rank_order: RankOrder, reversed_: bool) -> dict[Rank, int]:
    """Rank -> position in the current order (higher beats lower). Jokers stay on top
    during a revolution; in ``ace_high`` order the 2 is the lowest card. (One of four
    tables made once: do not change it.)"""
    return _STRENGTHS[rank_order, reversed_]


def _strength_table(rank_order: RankOrder, reversed_: bool) -> dict[Rank, int]:
    if rank_order is RankOrder.ACE_HIGH:
        order = [Rank.TWO] + [r for r in SUITED_RANKS if r is not Rank.TWO]
    else:
        order = list(SUITED_RANKS)
    if reversed_:
        order.reverse()
    table = {rank: position for position, rank in enumerate(order)}
    table[Rank.JOKER] = JOKER_STRENGTH
    return table


_STRENGTHS = {
    (order, reversed_): _strength_table(order, reversed_)
    for order in RankOrder for reversed_ in (False, True)
}

# Combos are interned as cards are: one object per value (a few hundred at most).
_COMBOS: dict[tuple[str, int, Rank, Suit | None], Combo] = {}


def make_combo(kind: str, size: int, rank: Rank, suit: Suit | None = None) -> Combo:
    """The one shared ``Combo`` of these fields (combos are interned; equality is by value)."""
    key = (kind, size, rank, suit)
    combo = _COMBOS.get(key)
    if combo is None:
        combo = _COMBOS.setdefault(key, Combo(kind, size, rank, suit))
    return combo


def is_interned(combo: Combo) -> bool:
    """Whether ``combo`` is the shared object of its value (``make_combo``)."""
    return _COMBOS.get((combo.kind, combo.size, combo.rank, combo.suit)) is combo


def interned(combo: Combo) -> Combo:
    """The shared combo equal to ``combo``."""
    return make_combo(combo.kind, combo.size, combo.rank, combo.suit)


def best_rank(rules: HouseRules, reversed_: bool) -> Rank:
    table = strengths(rules.rank_order, reversed_)
    return max(SUITED_RANKS, key=table.__getitem__)


def classify(cards: tuple[Card, ...], rules: HouseRules, reversed_: bool) -> Combo | str:
    """The combo the cards form, or the reason code why they form none."""
    if not cards:
        return "empty_play"
    first = cards[0].rank
    if all(card.rank is first for card in cards):
        if first is Rank.JOKER and rules.joker_mode is JokerMode.TRUMP and len(cards) > 1:
            return "jokers_alone"
        suit = cards[0].suit if len(cards) == 1 else None
        return make_combo("set", len(cards), first, suit)
    if any(card.rank is Rank.JOKER for card in cards):
        return "jokers_alone"
    if rules.sequences and len(cards) >= rules.sequences:
        table = strengths(rules.rank_order, reversed_)
        positions = sorted(table[card.rank] for card in cards)
        if all(b - a == 1 for a, b in zip(positions, positions[1:], strict=False)):
            top = max(cards, key=lambda card: table[card.rank]).rank
            return make_combo("run", len(cards), top)
    return "mixed_ranks"


class Outcome(Enum):
    """How a play compares with the top of the pile: it may be played on it (``BEATS``,
    or ``EQUAL``: an equal-rank play the rules allow), or it may not, for a reason."""

    BEATS = "beats"
    EQUAL = "equal"
    TOO_LOW = "too_low"
    WRONG_KIND = "wrong_kind"
    WRONG_SIZE = "wrong_size"

    @property
    def playable(self) -> bool:
        return self is Outcome.BEATS or self is Outcome.EQUAL

    @property
    def reason(self) -> str:
        """The refusal code of a play that compares so ("too_low" for a playable one,
        which only a caller that refuses it for another reason asks)."""
        return "too_low" if self.playable else self.value


BEATS = Outcome.BEATS
EQUAL = Outcome.EQUAL
TOO_LOW = Outcome.TOO_LOW
WRONG_KIND = Outcome.WRONG_KIND
WRONG_SIZE = Outcome.WRONG_SIZE


def compare(new: Combo, top: Combo | None, rules: HouseRules, reversed_: bool) -> Outcome:
    """How ``new`` compares with ``top`` (None: an empty pile, which anything beats)."""
    if top is None:
        return BEATS
    if (
        rules.spade_three_return and top.rank is Rank.JOKER and top.size == 1
        and new.rank is Rank.THREE and new.suit is Suit.SPADES and new.size == 1
        and new.kind == "set"
    ):
        return BEATS  # spade_three_return: the 3 of spades beats a lone joker
    trump = rules.joker_mode is JokerMode.TRUMP
    if trump and top.is_joker:
        return TOO_LOW  # joker_mode=trump: nothing beats a joker
    if trump and new.is_joker:
        return BEATS
    new_bomb = rules.bomb is Bomb.QUAD and new.kind == "set" and new.size >= 4
    top_bomb = rules.bomb is Bomb.QUAD and top.kind == "set" and top.size >= 4
    if new_bomb and not top_bomb:
        return BEATS
    if (
        rules.bomb is Bomb.TWO_OR_JOKER and new.kind == "set" and new.size == 1
        and new.rank in (Rank.TWO, Rank.JOKER) and top.kind == "set" and top.size in (2, 3)
    ):
        return BEATS
    if new.kind != top.kind:
        return WRONG_KIND
    table = strengths(rules.rank_order, reversed_)
    if new.size != top.size:
        if new.kind == "run" or new.size < top.size or rules.set_size_rule is SetSizeRule.SAME:
            return WRONG_SIZE
        if rules.set_size_rule is SetSizeRule.BIGGER_BEATS_ANY:
            return BEATS
        return BEATS if table[new.rank] > table[top.rank] else TOO_LOW
    if new.kind == "set":
        if rules.transparent_threes and new.rank is Rank.THREE and top.rank is not Rank.THREE:
            return BEATS
        if rules.two_wraps and (new.rank is Rank.TWO) != (top.rank is Rank.TWO):
            return BEATS  # two_wraps: a 2 beats everything and everything beats a 2
    difference = table[new.rank] - table[top.rank]
    if difference > 0:
        return BEATS
    if difference < 0 or new.kind == "run":
        return TOO_LOW
    big_two = rules.suit_tiebreak is SuitTiebreak.BIG_TWO
    if big_two and new.suit is not None and top.suit is not None:
        if new.suit != top.suit:  # identical twins (two decks): the tie stands
            return BEATS if new.suit > top.suit else TOO_LOW
    return EQUAL if rules.equal_rank is not EqualRank.OFF else TOO_LOW


def resulting_top(new: Combo, top: Combo | None, rules: HouseRules) -> Combo:
    """The pile's top after ``new`` is played on ``top``."""
    if (
        rules.transparent_threes and top is not None and new.kind == "set"
        and new.rank is Rank.THREE and top.kind == "set" and new.size == top.size
        and top.rank is not Rank.THREE
        and not (rules.joker_mode is JokerMode.TRUMP and top.is_joker)
    ):
        return make_combo("set", new.size, top.rank, top.suit)  # takes the rank it beat
    return new

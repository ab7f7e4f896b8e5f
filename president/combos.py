"""What a set of cards is (a set or a run) and whether it beats the top of the pile.

Every rule about ranking plays lives here: rank order, revolution, jokers,
``two_wraps``, ``transparent_threes``, ``set_size_rule``, ``bomb``,
``suit_tiebreak``, ``equal_rank`` and ``spade_three_return``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from president.cards import SUITED_RANKS, Card, Rank, Suit, card_key
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
_SUIT_BITS = 0b1110  # where a combo's code holds its suit


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
    suitless_code: int = field(init=False, compare=False, repr=False)  # the code less the suit

    def __post_init__(self) -> None:
        suit = 0 if self.suit is None else self.suit + 1
        code = ((self.rank * 32 + self.size) * 8 + suit) * 2 + (self.kind == "run")
        object.__setattr__(self, "code", code)  # frozen: derived fields, set once here
        object.__setattr__(self, "suitless_code", code & ~_SUIT_BITS)

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
    """The strongest suited rank in the order ``reversed_`` (``rank_order``)."""
    table = strengths(rules.rank_order, reversed_)
    return max(SUITED_RANKS, key=table.__getitem__)


def trump_jokers(rules: HouseRules) -> bool:
    """``joker_mode = trump``: a joker beats anything, nothing beats it, and jokers go
    alone (never two together)."""
    return rules.joker_mode is JokerMode.TRUMP


def wild_jokers(rules: HouseRules) -> bool:
    """``joker_mode = wild``: a joker played with other cards stands for a card its player
    declares (any rank of a set, any card of a run); jokers alone are themselves."""
    return rules.joker_mode is JokerMode.WILD


def stands_for(cards: tuple[Card, ...], declared: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards a play is (sorted): its jokers replaced by the cards ``declared`` for them."""
    if not declared:
        return cards
    kept = [card for card in cards if card.rank is not Rank.JOKER]
    return tuple(sorted(kept + list(declared), key=card_key))


def big_two(rules: HouseRules) -> bool:
    """``suit_tiebreak = big_two``: singles of equal rank compare by suit."""
    return rules.suit_tiebreak is SuitTiebreak.BIG_TWO


def run_length(rules: HouseRules) -> int:
    """``sequences``: the fewest ranks a run holds; 0: no runs."""
    return rules.sequences


def classify(cards: tuple[Card, ...], rules: HouseRules, reversed_: bool,
             declared: tuple[Card, ...] = ()) -> Combo | str:
    """The combo the cards form (with their jokers as ``declared``: ``wild_jokers``), or
    the reason code why they form none."""
    if not cards:
        return "empty_play"
    if declared:
        return _classify_declared(cards, rules, reversed_, declared)
    first = cards[0].rank
    if all(card.rank is first for card in cards):
        if first is Rank.JOKER and len(cards) > 1 and trump_jokers(rules):
            return "jokers_alone"
        suit = cards[0].suit if len(cards) == 1 else None
        return make_combo("set", len(cards), first, suit)
    if any(card.rank is Rank.JOKER for card in cards):
        return "joker_undeclared" if wild_jokers(rules) else "jokers_alone"
    shortest = run_length(rules)
    if shortest and len(cards) >= shortest:
        table = strengths(rules.rank_order, reversed_)
        positions = sorted(table[card.rank] for card in cards)
        if all(b - a == 1 for a, b in zip(positions, positions[1:], strict=False)):
            if rules.runs_same_suit and any(card.suit is not cards[0].suit for card in cards):
                return "mixed_suits"  # runs_same_suit: a run is all of one suit
            top = max(cards, key=lambda card: table[card.rank]).rank
            return make_combo("run", len(cards), top)
    return "mixed_ranks"


def _classify_declared(cards: tuple[Card, ...], rules: HouseRules, reversed_: bool,
                       declared: tuple[Card, ...]) -> Combo | str:
    """``wild_jokers``: one suited card declared per joker of a play that holds other
    cards too, and the cards the play then is form a set or a run."""
    jokers = sum(1 for card in cards if card.rank is Rank.JOKER)
    if (
        not wild_jokers(rules) or jokers != len(declared) or jokers == len(cards)
        or any(card.rank is Rank.JOKER for card in declared)
    ):
        return "bad_declaration"
    combo = classify(stands_for(cards, declared), rules, reversed_)
    return combo if isinstance(combo, Combo) else "bad_declaration"


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
    """How ``new`` compares with ``top`` (None: an empty pile, which anything beats).
    The rules that let a play on whatever its rank come first, then the kind, the size,
    the rank in the order in force, and the rules for a tie."""
    if top is None:
        return BEATS
    for rule in (_spade_three_return, _joker_mode, _bomb):
        outcome = rule(new, top, rules)
        if outcome is not None:
            return outcome
    if new.kind != top.kind:
        return WRONG_KIND  # a run on a set, or a set on a run (sequences)
    table = strengths(rules.rank_order, reversed_)
    if new.size != top.size:
        return _set_size_rule(new, top, rules, table)
    if new.kind == "set":
        for rule in (_transparent_threes, _two_wraps):
            outcome = rule(new, top, rules)
            if outcome is not None:
                return outcome
    difference = table[new.rank] - table[top.rank]
    if difference > 0:
        return BEATS
    if difference < 0 or new.kind == "run":
        return TOO_LOW
    return _suit_tiebreak(new, top, rules) or _equal_rank(rules)


def _spade_three_return(new: Combo, top: Combo, rules: HouseRules) -> Outcome | None:
    """``spade_three_return``: the 3 of spades beats a lone joker."""
    return BEATS if rules.spade_three_return and is_spade_three_return(new, top) else None


def is_spade_three_return(combo: Combo, top: Combo | None) -> bool:
    """A lone 3 of spades on a lone joker."""
    return (
        top is not None and top.is_joker and top.size == 1 and combo.kind == "set"
        and combo.size == 1 and combo.rank is Rank.THREE and combo.suit is Suit.SPADES
    )


def _joker_mode(new: Combo, top: Combo, rules: HouseRules) -> Outcome | None:
    """``joker_mode = trump``: nothing beats a joker, a joker beats anything."""
    if not trump_jokers(rules):
        return None
    if top.is_joker:
        return TOO_LOW
    return BEATS if new.is_joker else None


def _bomb(new: Combo, top: Combo, rules: HouseRules) -> Outcome | None:
    """``bomb``: four of a kind (``quad``) beats anything but another such set; a lone 2
    or joker (``two_or_joker``) beats a pair or a triple."""
    if rules.bomb is Bomb.QUAD:
        new_bomb = new.kind == "set" and new.size >= 4
        top_bomb = top.kind == "set" and top.size >= 4
        return BEATS if new_bomb and not top_bomb else None
    if (
        rules.bomb is Bomb.TWO_OR_JOKER and new.kind == "set" and new.size == 1
        and new.rank in (Rank.TWO, Rank.JOKER) and top.kind == "set" and top.size in (2, 3)
    ):
        return BEATS
    return None


def _set_size_rule(new: Combo, top: Combo, rules: HouseRules,
                   table: dict[Rank, int]) -> Outcome:
    """``set_size_rule``: whether a bigger set may go onto a smaller one (``same``: no;
    ``bigger_beats_any``: yes; ``bigger_beats_lower``: if its rank is higher). Runs and
    smaller sets never may."""
    if new.kind == "run" or new.size < top.size or rules.set_size_rule is SetSizeRule.SAME:
        return WRONG_SIZE
    if rules.set_size_rule is SetSizeRule.BIGGER_BEATS_ANY:
        return BEATS
    return BEATS if table[new.rank] > table[top.rank] else TOO_LOW


def _transparent_threes(new: Combo, top: Combo, rules: HouseRules) -> Outcome | None:
    """``transparent_threes``: a set of 3s beats a set of any other rank (the pile then
    keeps the rank it beat: ``resulting_top``)."""
    if rules.transparent_threes and new.rank is Rank.THREE and top.rank is not Rank.THREE:
        return BEATS
    return None


def _two_wraps(new: Combo, top: Combo, rules: HouseRules) -> Outcome | None:
    """``two_wraps``: a 2 beats everything and everything beats a 2."""
    if rules.two_wraps and (new.rank is Rank.TWO) != (top.rank is Rank.TWO):
        return BEATS
    return None


def _suit_tiebreak(new: Combo, top: Combo, rules: HouseRules) -> Outcome | None:
    """``suit_tiebreak = big_two``: of two singles of one rank, the higher suit wins
    (identical twins of two decks tie)."""
    if big_two(rules) and new.suit is not None and top.suit is not None:
        if new.suit != top.suit:
            return BEATS if new.suit > top.suit else TOO_LOW
    return None


def _equal_rank(rules: HouseRules) -> Outcome:
    """``equal_rank``: whether a play equal in rank to the top may go on it (``allowed``,
    ``skip``; what the skip does is ``trick.equal_rank_skip``)."""
    return EQUAL if rules.equal_rank is not EqualRank.OFF else TOO_LOW


def in_order(combo: Combo, cards: tuple[Card, ...], rules: HouseRules,
             reversed_: bool) -> Combo:
    """``combo``, the play of ``cards``, as it lies on the pile once the rank order turns
    to ``reversed_`` (a run revolution, an 11-back): a run's top is then its other end,
    since a run follows the order in force (``sequences``)."""
    if combo.kind != "run":
        return combo
    table = strengths(rules.rank_order, reversed_)
    return make_combo("run", combo.size, max((card.rank for card in cards), key=table.__getitem__))


def resulting_top(new: Combo, top: Combo | None, rules: HouseRules) -> Combo:
    """The pile's top after ``new`` is played on ``top``."""
    if (
        rules.transparent_threes and top is not None and new.kind == "set"
        and new.rank is Rank.THREE and top.kind == "set" and new.size == top.size
        and top.rank is not Rank.THREE and not (trump_jokers(rules) and top.is_joker)
    ):
        return make_combo("set", new.size, top.rank, top.suit)  # takes the rank it beat
    return new

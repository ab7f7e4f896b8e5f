"""The Daihinmin rules a play sets off (issue 11): 8-cut, 11-back, 5-skip, 9-reverse,
and who goes to the bottom places (forbidden finish, downfall / miyako-ochi).

Pure functions of the rules, the cards played and the state; ``engine._play`` applies
what they say and records it as events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from president.cards import Card, Rank, Suit
from president.combos import Combo, best_rank
from president.rules import HouseRules

if TYPE_CHECKING:
    from president.state import State


@dataclass(frozen=True, slots=True)
class PlayEffects:
    """What a play does besides landing on the pile."""

    cut: bool  # eight_cut: the pile is cleared and the same player leads
    back: bool  # jack_back: the rank order turns until the pile is cleared
    reverse: bool  # nine_reverse: the direction of play turns
    skips: int  # five_skip: players skipped, one per 5


_PLAY_RULES = ("eight_cut", "jack_back", "five_skip", "nine_reverse")
_ANY_EFFECT: dict[int, tuple[HouseRules, bool]] = {}


def _has_effects(rules: HouseRules) -> bool:
    """Whether any rule a play sets off is on (asked on every play: cached by rules)."""
    known = _ANY_EFFECT.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    answer = any(getattr(rules, name) for name in _PLAY_RULES) or rules.forbidden_finish \
        or rules.downfall
    if len(_ANY_EFFECT) >= 64:
        _ANY_EFFECT.clear()
    _ANY_EFFECT[id(rules)] = (rules, answer)
    return answer


def effects(rules: HouseRules, cards: tuple[Card, ...]) -> PlayEffects | None:
    """What playing ``cards`` sets off; None when the rules have no such effects."""
    if not _has_effects(rules):
        return None
    ranks = [card.rank for card in cards]
    return PlayEffects(
        cut=rules.eight_cut and Rank.EIGHT in ranks,
        back=rules.jack_back and Rank.JACK in ranks,
        reverse=rules.nine_reverse and Rank.NINE in ranks,
        skips=ranks.count(Rank.FIVE) if rules.five_skip else 0,
    )


def is_spade_three_return(combo: Combo, top: Combo | None) -> bool:
    """A lone 3 of spades on a lone joker (``spade_three_return``)."""
    return (
        top is not None and top.is_joker and top.size == 1 and combo.kind == "set"
        and combo.size == 1 and combo.rank is Rank.THREE and combo.suit is Suit.SPADES
    )


def forbidden_finish(
    rules: HouseRules, cards: tuple[Card, ...], combo: Combo, top: Combo | None,
    reversed_: bool,
) -> bool:
    """Whether going out with ``cards`` is a forbidden finish: a joker, the best rank
    in the order the play was made in (the 2; the 3 during a revolution), an 8 with
    ``eight_cut``, the 3 of spades returning a joker with ``spade_three_return``."""
    best = best_rank(rules, reversed_)
    for card in cards:
        if card.rank is Rank.JOKER or card.rank is best:
            return True
        if rules.eight_cut and card.rank is Rank.EIGHT:
            return True
    return rules.spade_three_return and is_spade_three_return(combo, top)


def downfall(
    state: State, finished: tuple[int, ...], bottom: tuple[int, ...],
    hands: tuple[tuple[Card, ...], ...],
) -> int | None:
    """The previous President who falls to the bottom now that ``finished[0]`` went out
    first (``downfall``): only on the first finish of a hand after the first hand."""
    if not state.rules.downfall or len(finished) != 1 or not state.results:
        return None
    president = state.results[-1].order[0]
    if president == finished[0] or president in bottom or not hands[president]:
        return None
    return president

"""The suit lock (shibari, しばり) and its rank-step variant (``suit_lock``).

When a play has the same suits as the play it beat, the following plays must have
those suits until the pile clears (a suit lock); under ``suits_and_step``, when a play
is exactly one rank step above the play it beat, the following plays must each be one
step above the top too (a step lock). The two arise apart and hold together.

A play's suits are the sorted suits of its cards. A play of jokers has none of its
own: it never starts a suit lock and fits any lock; nor has a mixed-suit run (its
cards are listed one per rank, whatever their suits: ``moves.candidate_plays``); a
same-suit run (``runs_same_suit``) has.
"""

from __future__ import annotations

from dataclasses import dataclass

from president.cards import Card, Rank, Suit
from president.combos import Combo
from president.rules import HouseRules, SuitLock


@dataclass(frozen=True, slots=True)
class Lock:
    """A lock in force on the pile: the suits every play must have (empty: none), and
    whether each play must be one rank step above the top (``step``)."""

    suits: tuple[Suit, ...] = ()
    step: bool = False


def locks(rules: HouseRules) -> bool:
    """Whether the rules have a suit lock (``suit_lock`` not ``off``)."""
    return rules.suit_lock is not SuitLock.OFF


def play_suits(cards: tuple[Card, ...], combo: Combo, rules: HouseRules) -> tuple[Suit, ...]:
    """The suits ``cards`` (sorted) hold as a play forming ``combo``; empty when they
    have none of their own (jokers, a mixed-suit run)."""
    if combo.rank is Rank.JOKER or (combo.kind == "run" and not rules.runs_same_suit):
        return ()
    return tuple(sorted(card.suit for card in cards if card.suit is not None))


def breaks_lock(lock: Lock | None, cards: tuple[Card, ...], combo: Combo, top: Combo | None,
                rules: HouseRules, strength: dict[Rank, int]) -> str | None:
    """Why playing ``cards`` (``combo``) on ``top`` under ``lock`` breaks it
    (``suit_locked``, ``step_locked``), or None (``strength``: the order in force)."""
    if lock is None or combo.rank is Rank.JOKER or top is None:
        return None
    if lock.suits and play_suits(cards, combo, rules) != lock.suits:
        return "suit_locked"
    if lock.step and not one_step_above(combo, top, strength):
        return "step_locked"
    return None


def one_step_above(combo: Combo, top: Combo, strength: dict[Rank, int]) -> bool:
    """Whether ``combo`` is exactly one rank step above ``top`` in the order ``strength``."""
    return top.rank is not Rank.JOKER and strength[combo.rank] - strength[top.rank] == 1


def lock_after(lock: Lock | None, beaten: tuple[Card, ...], cards: tuple[Card, ...],
               combo: Combo, top: Combo | None, rules: HouseRules,
               strength: dict[Rank, int]) -> Lock | None:
    """The lock once ``cards`` (``combo``) are played on ``top``, whose cards are
    ``beaten``, under ``lock`` (``strength``: the order the play was made in)."""
    if top is None or not locks(rules):
        return lock
    suits = lock.suits if lock is not None else ()
    step = lock is not None and lock.step
    if not suits:
        mine = play_suits(cards, combo, rules)
        top_suits = tuple(sorted(card.suit for card in beaten if card.suit is not None))
        if mine and len(top_suits) == len(beaten) and mine == top_suits and top.kind == combo.kind:
            suits = mine
    if not step and rules.suit_lock is SuitLock.SUITS_AND_STEP and combo.rank is not Rank.JOKER:
        step = one_step_above(combo, top, strength)
    if not suits and not step:
        return None
    return Lock(suits, step)

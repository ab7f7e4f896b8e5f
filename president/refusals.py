"""Why the engine refuses an action, asked of what a seat knows (its ``View``).

``refusal(view, action)`` is None when ``view.legal`` lists the action, else the
reason code ``engine.apply`` gives for it (``president.actions.REASONS``). The
engine's own ``explain_illegal`` answers through ``reason`` too, so a client
that asks here says exactly what the host would answer.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from president import moves
from president.actions import (
    DECREE_MAX_LENGTH,
    Action,
    Decree,
    Discard,
    Give,
    GiveBack,
    Pass,
    Play,
    Ready,
)
from president.cards import SUITED_RANKS, Card, Suit
from president.combos import Combo, classify, compare, stands_for, strengths
from president.locks import Lock, breaks_lock
from president.rules import HouseRules

if TYPE_CHECKING:
    from president.view import View


def refusal(view: View, action: Action) -> str | None:
    """None if ``action`` is legal for ``view.seat`` now, else the engine's reason code."""
    if isinstance(action, Decree):
        if Decree(action.seat, "") in view.legal and decree_text_ok(action.text):
            return None
    elif moves.listed_form(view.hand, action, view.rules) in view.legal:
        return None
    return reason(view, action)


def reason(view: View, action: Action) -> str:
    """The reason code for an action that ``view.legal`` does not list."""
    seat, phase = action.seat, view.phase
    if phase == "session_over":
        return "session_over"
    if type(seat) is not int or not 0 <= seat < len(view.players) or seat != view.seat:
        return "bad_seat"
    if isinstance(action, Decree):
        if view.roles is None or view.roles[seat] != "president":
            return "not_president"
        if not view.rules.decree or phase == "play":
            return "wrong_phase"
        return "decree_invalid" if not decree_text_ok(action.text) else "decree_made"
    if isinstance(action, Ready):
        return "already_ready" if phase == "hand_over" else "wrong_phase"
    if isinstance(action, GiveBack):
        if phase != "tax":
            return "wrong_phase"
        if not view.tax_owed:
            return "no_tax_due"
        return "wrong_count" if len(action.cards) != view.tax_owed else "not_in_hand"
    if isinstance(action, (Give, Discard)):
        return _choice_reason(view, action)
    if phase != "play":
        return "wrong_phase"
    if not view.hand:
        return "already_out"
    if seat in view.locked:
        return "locked_out"
    if seat != view.turn:
        return "not_your_turn"
    if view.choosing is not None:
        return "must_give"
    if isinstance(action, Pass):
        return "must_lead"
    if not action.cards:
        return "empty_play"
    if not moves.in_hand(view.hand, action.cards):
        return "not_in_hand"
    return _play_reason(view, action)


def _choice_reason(view: View, action: Give | Discard) -> str:
    """Why a 7-pass or 10-discard is refused."""
    if view.phase != "play":
        return "wrong_phase"
    choosing = view.choosing
    kind = "give" if isinstance(action, Give) else "discard"
    if choosing is None or choosing.seat != action.seat or choosing.kind != kind:
        return "no_give_due"
    if len(action.cards) != choosing.number:
        return "wrong_give_count" if kind == "give" else "wrong_discard_count"
    return "not_in_hand"


def _play_reason(view: View, action: Play) -> str:
    """Why a play on turn, of held cards, is refused: the rules' reason, ``joker_held``
    (``fills_held``), or else ``too_low``."""
    cards, declared = tuple(sorted(action.cards)), tuple(sorted(action.declared))
    code = rules_reason(cards, view.top, view.rules, view.reversed, view.lock, declared)
    if code is None and fills_held(view, cards, declared):
        return "joker_held"
    return code or "too_low"


def fills_held(view: View, cards: tuple[Card, ...], declared: tuple[Card, ...]) -> bool:
    """Whether ``cards`` with jokers declared as ``declared`` form a play (a set or a
    run) in which a joker stands for a card ``view``'s seat holds: a joker stands only
    for a card its player does not hold, so ``moves.wild_plays`` never lists it."""
    if not any(card in view.hand for card in declared):
        return False
    return not isinstance(classify(cards, view.rules, view.reversed, declared), str)


def rules_reason(cards: tuple[Card, ...], top: Combo | None, rules: HouseRules,
                 reversed_: bool, lock: Lock | None = None,
                 declared: tuple[Card, ...] = ()) -> str | None:
    """Why ``cards`` (sorted; their jokers standing for ``declared``) may not be played on
    ``top`` under ``lock``, or None when the rules of play let them (whether or not
    ``legal`` lists them)."""
    combo = classify(cards, rules, reversed_, declared)
    if isinstance(combo, str):
        return combo
    outcome = compare(combo, top, rules, reversed_)
    if not outcome.playable:
        return outcome.reason
    return breaks_lock(lock, stands_for(cards, declared), combo, top, rules,
                       strengths(rules.rank_order, reversed_))


SUITED = tuple(sorted(Card(rank, suit) for rank in SUITED_RANKS for suit in Suit))
WILD_TRIED = 2  # jokers in one play whose values are all tried (52 x 52 / 2 at most)


def wild_reason(view: View, cards: tuple[Card, ...]) -> str:
    """Why no value of the jokers among ``cards`` (held, wild, beside other cards) makes
    a play ``view.legal`` lists, as the client words it: ``joker_held`` when a value
    would if the seat did not hold that card (``fills_held``), else the engine's reason
    for a value that makes a set or a run (``too_low``, ``suit_locked``...), else
    ``joker_no_play``."""
    cards = tuple(sorted(cards))
    jokers = sum(1 for card in cards if card.suit is None)
    if not 0 < jokers <= WILD_TRIED or jokers == len(cards):
        return "bad_declaration"
    found = "joker_no_play"
    for declared in combinations_with_replacement(SUITED, jokers):
        code = rules_reason(cards, view.top, view.rules, view.reversed, view.lock, declared)
        if code is None and fills_held(view, cards, declared):
            return "joker_held"
        if code is not None and code != "bad_declaration" and found == "joker_no_play":
            found = code
    return found


def decree_text_ok(text: str) -> bool:
    return 0 < len(text.strip()) <= DECREE_MAX_LENGTH and text.isprintable()

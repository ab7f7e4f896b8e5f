"""What a seat can do, and the reason codes for refusing it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from president.cards import Card, format_cards, parse_cards


@dataclass(frozen=True, slots=True)
class Play:
    """Play a set (or, with ``sequences``, a run) onto the pile. Cards sorted.

    ``declared`` (``joker_mode = wild``): what the jokers among ``cards`` stand for, one
    suited card per joker, sorted; empty when no joker stands for another card (jokers
    played alone are themselves). ``combos.stands_for`` gives the cards the play is."""

    seat: int
    cards: tuple[Card, ...]
    declared: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int


@dataclass(frozen=True, slots=True)
class GiveBack:
    """Tax: the receiver returns cards of their free choice to the giver."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Give:
    """7-pass (``seven_pass``): after a play holding sevens, the cards of the player's
    choice passed to the next player still in the hand (one per seven)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """10-discard (``ten_discard``): after a play holding tens, the cards of the player's
    choice put out of the hand, face up (one per ten)."""

    seat: int
    cards: tuple[Card, ...]


# The actions that hand over cards of the player's choice (their cards sorted).
CHOSEN_CARDS = (GiveBack, Give, Discard)
Chosen = TypeVar("Chosen", GiveBack, Give, Discard)


def choices_of(kind: type[Chosen], seat: int,
               picks: Iterable[tuple[Card, ...]]) -> list[Chosen]:
    """``kind(seat, cards)`` for each of ``picks``, as ``legal_actions`` lists a tax return
    or a 7-pass (dozens of choices): made by setting their two slots, without the frozen
    dataclass's ``__init__``, which costs twice as much (CPython 3.11)."""
    new, set_seat, set_cards = object.__new__, _SEAT_SLOT[kind], _CARDS_SLOT[kind]
    made = []
    for cards in picks:
        action = new(kind)
        set_seat(action, seat)
        set_cards(action, cards)
        made.append(action)
    return made


_SEAT_SLOT: dict[type, Any] = {kind: vars(kind)["seat"].__set__ for kind in CHOSEN_CARDS}
_CARDS_SLOT: dict[type, Any] = {kind: vars(kind)["cards"].__set__ for kind in CHOSEN_CARDS}


def sorted_cards(action: Action) -> Action:
    """``action`` with its cards (and a play's declaration) sorted, as actions are listed."""
    if isinstance(action, (Play, *CHOSEN_CARDS)):
        cards = tuple(sorted(action.cards))
        if cards != action.cards:
            action = replace(action, cards=cards)
    if isinstance(action, Play) and action.declared:
        declared = tuple(sorted(action.declared))
        if declared != action.declared:
            action = replace(action, declared=declared)
    return action


@dataclass(frozen=True, slots=True)
class Ready:
    """Between hands: this seat is ready for the next deal."""

    seat: int


@dataclass(frozen=True, slots=True)
class Decree:
    """The President's social rule for the next hand (``decree`` house rule)."""

    seat: int
    text: str


Action = Play | Pass | GiveBack | Give | Discard | Ready | Decree

DECREE_MAX_LENGTH = 200

# Why an action is refused: the ``code`` of IllegalAction.
REASONS = (
    "session_over",     # the session has ended
    "wrong_phase",      # not something this phase accepts (e.g. playing during the tax)
    "bad_seat",         # no such seat
    "not_your_turn",    # another seat is to play
    "already_out",      # this seat has no cards left in this hand
    "not_in_hand",      # the cards are not all in this seat's hand
    "empty_play",       # no cards
    "mixed_ranks",      # a set must be of one rank (and not a valid run)
    "jokers_alone",     # jokers may be played only with jokers (or alone, in trump mode)
    "joker_undeclared", # joker_mode wild: a joker played with other cards needs a declaration
    "bad_declaration",  # the declared cards do not make a set or run of the play (or no joker)
    "joker_held",       # joker_mode wild: a joker declared as a card its player holds
    "wrong_size",       # the set size does not match the pile (set_size_rule)
    "wrong_kind",       # a run on a set, or a set on a run (sequences)
    "too_low",          # does not beat the top of the pile
    "must_lead",        # the leader may not pass on an empty pile
    "locked_out",       # passed earlier in this trick (pass_locks_out)
    "no_tax_due",       # this seat has nothing to give back
    "wrong_count",      # the tax return needs another number of cards
    "already_ready",    # this seat already said it is ready
    "not_president",    # only the President may decree
    "decree_made",      # the decree for this hand is already made
    "decree_invalid",   # empty or longer than DECREE_MAX_LENGTH
    "suit_locked",      # the pile is locked to other suits (suit_lock)
    "step_locked",      # the pile is locked to plays one rank step up (suit_lock)
    "must_give",        # a 7-pass or 10-discard of this seat's choice comes first
    "no_give_due",      # no 7-pass (or no 10-discard) of this seat is due
    "wrong_give_count",     # the 7-pass needs another number of cards
    "wrong_discard_count",  # the 10-discard needs another number of cards
    "mixed_suits",      # a run's cards must all be of one suit (runs_same_suit)
)


def action_to_dict(action: Action) -> dict[str, Any]:
    """A plain dict (cards in the text notation) for the wire and the history."""
    match action:
        case Play(seat, cards, declared):
            if declared:
                return {"type": "play", "seat": seat, "cards": format_cards(cards),
                        "declared": format_cards(declared)}
            return {"type": "play", "seat": seat, "cards": format_cards(cards)}
        case Pass(seat):
            return {"type": "pass", "seat": seat}
        case GiveBack(seat, cards):
            return {"type": "give_back", "seat": seat, "cards": format_cards(cards)}
        case Give(seat, cards):
            return {"type": "give", "seat": seat, "cards": format_cards(cards)}
        case Discard(seat, cards):
            return {"type": "discard", "seat": seat, "cards": format_cards(cards)}
        case Ready(seat):
            return {"type": "ready", "seat": seat}
        case Decree(seat, text):
            return {"type": "decree", "seat": seat, "text": text}
    raise TypeError(action)


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of ``action_to_dict``; raises KeyError/TypeError/NotationError on bad data."""
    kind = data["type"]
    seat = data["seat"]
    if type(seat) is not int:
        raise TypeError("seat")
    if kind == "play":
        declared = data.get("declared", "")
        if not isinstance(declared, str):
            raise TypeError("declared")
        if not declared:
            return Play(seat, parse_cards(data["cards"]))
        return Play(seat, parse_cards(data["cards"]), parse_cards(declared))
    if kind == "pass":
        return Pass(seat)
    if kind == "give_back":
        return GiveBack(seat, parse_cards(data["cards"]))
    if kind == "give":
        return Give(seat, parse_cards(data["cards"]))
    if kind == "discard":
        return Discard(seat, parse_cards(data["cards"]))
    if kind == "ready":
        return Ready(seat)
    if kind == "decree":
        text = data["text"]
        if not isinstance(text, str):
            raise TypeError("text")
        return Decree(seat, text)
    raise KeyError(kind)

"""Why the medium bot would make a move, as data: a reason code and its parameters.

A hint (issue 28) is a ``Suggestion``: the action, and the reason the text layer
words in the player's language (``REASONS`` lists the codes). The reason is read from
the priority the medium policy gave the option (``MediumPolicy._options``), so the
hint says what the bot weighed, not a second opinion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from president.actions import Action, Pass, action_from_dict, action_to_dict
from president.cards import Card, format_cards

# The reasons a suggestion gives (``Suggestion.reason``); params in brackets.
REASONS = (
    "go_out",           # the play empties the hand
    "win_then_out",     # nobody can beat it, and the last cards go out after it
    "revolution",       # a revolution: the hand is stronger in the reversed order
    "lead_low",         # lead the weakest cards, keep the strong ones [keep]
    "lead_control",     # nobody can beat it: the lead stays
    "take_trick",       # nobody can beat it: the trick is this seat's
    "follow_low",       # the lowest cards that beat the pile [keep]
    "spend_control",    # nobody can beat it, and the rest can go out after it
    "split",            # every choice breaks up a set: this one costs least
    "pass_keep",        # keep the cards for a better moment [keep]
    "pass_only",        # nothing held beats the pile
    "shed",             # the cards worth least are given, discarded or given back
    "forbidden_out",    # goes out on a card no one may go out on: last place, nothing else left
    "strands",          # leaves only cards no one may go out on, every other play costs more
)
KEEPING = ("lead_low", "follow_low", "pass_keep")  # reasons that may name [keep]
SUGGESTED = 5  # options a hint cycles through, the bot's choice first


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A move the bot would make (``action``) and why (``reason``, ``params``)."""

    action: Action
    reason: str
    params: Mapping[str, str] = field(default_factory=dict)


def trick_reason(priority: tuple[float, ...], action: Action, leading: bool,
                 any_play: bool) -> str:
    """The reason code of a play or pass ranked ``priority`` by the medium policy."""
    if isinstance(action, Pass):
        return "pass_keep" if any_play else "pass_only"
    rank = priority[0]
    if rank == 0.0:
        return "go_out"
    if rank == 9.0:  # medium.FORBIDDEN
        return "forbidden_out"
    if rank == 4.5:  # medium.STRANDS
        return "strands"
    if rank == 1.0:
        return "win_then_out"
    if rank in (1.5, 5.0):
        return "revolution"
    if leading:
        return {2.0: "lead_low", 3.0: "lead_control"}.get(rank, "split")
    return {1.8: "take_trick", 2.0: "follow_low", 2.5: "spend_control",
            3.5: "spend_control"}.get(rank, "split")


def kept(hand: Sequence[Card], action: Action, strength: Sequence[int]) -> str:
    """The strongest rank's cards left in ``hand`` after ``action`` (text notation), or ""."""
    rest = list(hand)
    for card in getattr(action, "cards", ()):
        if card in rest:
            rest.remove(card)
    if not rest:
        return ""
    best = max(strength[card.rank] for card in rest)
    return format_cards(tuple(sorted(card for card in rest if strength[card.rank] == best)))


def suggestion(action: Action, reason: str, hand: Sequence[Card],
               strength: Sequence[int]) -> Suggestion:
    """A suggestion, naming the cards it keeps back when its reason is about them."""
    keep = kept(hand, action, strength) if reason in KEEPING else ""
    return Suggestion(action, reason, {"keep": keep} if keep else {})


def suggestion_to_dict(suggestion: Suggestion) -> dict[str, Any]:
    """A suggestion as plain data for the wire (the host's hint reply)."""
    return {"action": action_to_dict(suggestion.action), "reason": suggestion.reason,
            "params": dict(suggestion.params)}


def suggestion_from_dict(data: Mapping[str, Any]) -> Suggestion:
    """The inverse of ``suggestion_to_dict`` (malformed data: ``action_from_dict``'s errors)."""
    return Suggestion(action_from_dict(dict(data["action"])), str(data["reason"]),
                      {str(k): str(v) for k, v in dict(data["params"]).items()})

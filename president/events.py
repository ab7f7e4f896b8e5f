"""Events: what happened, as a code and plain parameters (cards in text notation).

Codes match the hand-history line types (``rules-docs/hand-history.md``):

- ``deal``        hand, dealer, hands (list per seat of card strings)
- ``tax``         hand, from, to, cards (one per transfer; the giver's and the return)
- ``play``        hand, seat, cards
- ``pass``        hand, seat
- ``skip``        hand, seat (the seat skipped by an equal-rank play)
- ``revolution``  hand, reversed (whether the rank order is now reversed)
- ``clear``       hand, leader (the seat that leads next)
- ``out``         hand, seat, place (1 = first out; the last seat too, when the hand ends:
                  with ``holding`` when seats were sent to the bottom, so its place is not the last)
- ``hand_end``    hand, order (finishing order), roles (role per seat), scores (per seat)
- ``session_end`` scores, winners
- ``decree``      hand, seat, text
- ``ready``       hand, seat
- ``lead``        hand, seat (who leads the first trick of a hand)
- ``cut``         hand, seat (an 8 cleared the pile: ``eight_cut``; a ``clear`` follows)
- ``return``      hand, seat (a 3 of spades on a lone joker cleared the pile:
                  ``spade_three_return``; a ``clear`` follows)
- ``back``        hand, on (an 11-back turned the rank order, or turned it back: ``jack_back``)
- ``reverse``     hand, direction (a 9 turned the direction of play: ``nine_reverse``)
- ``forbidden``   hand, seat, place, why, [rank] (went out with a forbidden play:
  ``forbidden_finish``; why: joker, best (rank: the best rank in the order in force),
  eight (``eight_cut``), spade_three (``spade_three_return``))
- ``downfall``    hand, seat, place, cards (the previous President drops out: ``downfall``)
- ``lock``        hand, suits, step (a lock formed on the pile: the suits every play must
  have, as ``"HS"``, empty if none; whether each must be one rank step up: ``suit_lock``)
- ``give``        hand, from, to, cards (a 7-pass: ``seven_pass``; seen in full by its two
                  players only, the others see ``count``)
- ``discard``     hand, seat, cards (a 10-discard: ``ten_discard``; face up)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

EVENT_CODES = (
    "deal", "tax", "play", "pass", "skip", "revolution", "clear", "out",
    "hand_end", "session_end", "decree", "ready", "lead",
    "cut", "back", "reverse", "forbidden", "downfall", "lock", "give", "discard", "return",
)


@dataclass(slots=True)
class Event:
    """What happened. Not changed once made, like its ``params`` (not frozen: the engine
    makes one or more per action, and a frozen dataclass takes 70 % longer to make)."""

    code: str
    params: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.code, **self.params}


def project_event(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (``None``: a spectator).

    Hidden cards are replaced by counts: a deal shows each seat only its own
    hand; a tax transfer or a 7-pass is seen in full only by its two players. A
    spectator sees the least: an event it is shown as it is (the same object) hides
    nothing from any seat either (a host shares such events without asking per seat).
    """
    if event.code == "deal":
        hands = event.params["hands"]
        params = {key: value for key, value in event.params.items() if key != "hands"}
        params["counts"] = [len(cards.split()) if cards else 0 for cards in hands]
        if seat is not None:
            params["cards"] = hands[seat]
        return Event("deal", params)
    if event.code in ("tax", "give") and seat not in (event.params["from"], event.params["to"]):
        params = {key: value for key, value in event.params.items() if key != "cards"}
        params["count"] = len(event.params["cards"].split())
        return Event(event.code, params)
    return event

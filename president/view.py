"""What one seat may know: ``view(state, seat)``; ``seat=None`` is a spectator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from president.actions import Action, action_to_dict
from president.cards import Card, format_cards
from president.engine import legal_actions
from president.roles import Role
from president.rules import HouseRules
from president.state import Phase, PileEntry, State


@dataclass(frozen=True)
class View:
    seat: int | None
    players: tuple[str, ...]
    phase: str
    hand_number: int
    dealer: int
    order: tuple[int, ...]
    hand: tuple[Card, ...]               # this seat's cards (empty for a spectator)
    counts: tuple[int, ...]              # cards held, by seat
    pile: tuple[tuple[int, tuple[Card, ...]], ...]  # (seat, cards) of the current trick
    top_rank: str | None  # the rank to beat (after a transparent 3, not the cards shown)
    turn: int | None
    last_player: int | None
    passed: frozenset[int]
    locked: frozenset[int]
    reversed: bool
    direction: int
    finished: tuple[int, ...]
    roles: tuple[str, ...] | None        # from the last hand, by seat
    scores: tuple[int, ...]
    presidencies: tuple[int, ...]
    tax_owed: int                        # cards this seat must still give back
    tax_pending: tuple[int, ...]         # seats that still owe cards back
    tax_mine: tuple[tuple[int, int, tuple[Card, ...]], ...]  # transfers this seat took part in
    ready: frozenset[int]
    decree: str | None
    winners: tuple[int, ...]
    legal: tuple[Action, ...]
    rules: HouseRules  # public: everyone at the table knows the house rules (not in to_dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the wire: cards in the text notation, sets as sorted lists."""
        return {
            "seat": self.seat, "players": list(self.players), "phase": self.phase,
            "hand_number": self.hand_number, "dealer": self.dealer, "order": list(self.order),
            "hand": format_cards(self.hand), "counts": list(self.counts),
            "pile": [[seat, format_cards(cards)] for seat, cards in self.pile],
            "top_rank": self.top_rank, "turn": self.turn, "last_player": self.last_player,
            "passed": sorted(self.passed), "locked": sorted(self.locked),
            "reversed": self.reversed, "direction": self.direction,
            "finished": list(self.finished),
            "roles": list(self.roles) if self.roles is not None else None,
            "scores": list(self.scores), "presidencies": list(self.presidencies),
            "tax_owed": self.tax_owed, "tax_pending": list(self.tax_pending),
            "tax_mine": [[a, b, format_cards(cards)] for a, b, cards in self.tax_mine],
            "ready": sorted(self.ready), "decree": self.decree, "winners": list(self.winners),
            "legal": [action_to_dict(action) for action in self.legal],
        }


_PHASES = {phase: phase.value for phase in Phase}
_ROLE_NAMES: dict[int, tuple[tuple[Role, ...], tuple[str, ...]]] = {}  # by id of roles
_new, _set = object.__new__, object.__setattr__


def _role_names(roles: tuple[Role, ...]) -> tuple[str, ...]:
    """``tuple(role.value for role in roles)``, once per roles tuple (once per hand)."""
    known = _ROLE_NAMES.get(id(roles))
    if known is None or known[0] is not roles:
        if len(_ROLE_NAMES) >= 256:
            _ROLE_NAMES.clear()
        known = _ROLE_NAMES[id(roles)] = (roles, tuple([role.value for role in roles]))
    return known[1]


# The last pile shown, as (pile, its (seat, cards) pairs): passes keep the pile.
_last_pile: tuple[tuple[PileEntry, ...], tuple[tuple[int, tuple[Card, ...]], ...]] = ((), ())


def _pile(pile: tuple[PileEntry, ...]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    global _last_pile
    last = _last_pile  # one read: the pair stays consistent under threads
    if last[0] is pile:
        return last[1]
    shown = tuple([(entry.seat, entry.cards) for entry in pile])
    _last_pile = (pile, shown)
    return shown


def view(state: State, seat: int | None) -> View:
    own = seat is not None
    top, roles, tax_due, tax_log = state.top, state.roles, state.tax_due, state.tax_log
    # View is frozen: fill its __dict__ at once (what its __init__ does, field by field).
    result = _new(View)
    _set(result, "__dict__", {
        "seat": seat,
        "players": state.players,
        "phase": _PHASES[state.phase],
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "order": state.order,
        "hand": state.hands[seat] if own else (),
        "counts": tuple(map(len, state.hands)),
        "pile": _pile(state.pile),
        "top_rank": top.rank.symbol if top is not None else None,
        "turn": state.turn,
        "last_player": state.last_player,
        "passed": state.passed,
        "locked": state.locked,
        "reversed": state.reversed,
        "direction": state.direction,
        "finished": state.finished,
        "roles": _role_names(roles) if roles is not None else None,
        "scores": state.scores,
        "presidencies": state.presidencies,
        "tax_owed": sum([d.count for d in tax_due if d.receiver == seat]) if own and tax_due
        else 0,
        "tax_pending": tuple([d.receiver for d in tax_due]) if tax_due else (),
        "tax_mine": tuple([t for t in tax_log if seat in t[:2]]) if own else (),
        "ready": state.ready,
        "decree": state.decree,
        "winners": state.winners,
        "legal": legal_actions(state, seat) if own else (),
        "rules": state.rules,
    })
    return result

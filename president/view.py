"""What one seat may know: ``view(state, seat)``; ``seat=None`` is a spectator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from president.actions import Action, action_to_dict
from president.cards import Card, format_cards
from president.engine import legal_actions
from president.rules import HouseRules
from president.state import HandResult, State


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
    results: tuple[HandResult, ...]      # every finished hand: the evening's standings
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
            # Every finished hand, between hands only (it grows with the session).
            "results": [
                {"order": list(r.order), "roles": [role.value for role in r.roles],
                 "scores": list(r.scores)} for r in self.results
            ] if self.phase in ("hand_over", "session_over") else None,
            "tax_owed": self.tax_owed, "tax_pending": list(self.tax_pending),
            "tax_mine": [[a, b, format_cards(cards)] for a, b, cards in self.tax_mine],
            "ready": sorted(self.ready), "decree": self.decree, "winners": list(self.winners),
            "legal": [action_to_dict(action) for action in self.legal],
        }


def view(state: State, seat: int | None) -> View:
    own = seat is not None
    top, tax_due = state.top, state.tax_due
    return View(
        seat=seat,
        players=state.players,
        phase=state.phase.value,
        hand_number=state.hand_number,
        dealer=state.dealer,
        order=state.order,
        hand=state.hands[seat] if own else (),
        counts=tuple(map(len, state.hands)),
        pile=tuple([(entry.seat, entry.cards) for entry in state.pile]),
        top_rank=top.rank.symbol if top is not None else None,
        turn=state.turn,
        last_player=state.last_player,
        passed=state.passed,
        locked=state.locked,
        reversed=state.reversed,
        direction=state.direction,
        finished=state.finished,
        roles=tuple([role.value for role in state.roles]) if state.roles is not None else None,
        scores=state.scores,
        presidencies=state.presidencies,
        results=state.results,
        tax_owed=sum([d.count for d in tax_due if d.receiver == seat]) if own else 0,
        tax_pending=tuple([d.receiver for d in tax_due]),
        tax_mine=tuple([t for t in state.tax_log if seat in t[:2]]) if own else (),
        ready=state.ready,
        decree=state.decree,
        winners=state.winners,
        legal=legal_actions(state, seat) if own else (),
        rules=state.rules,
    )

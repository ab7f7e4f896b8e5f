"""What one seat may know: ``view(state, seat)``; ``seat=None`` is a spectator.

The host sends ``View.to_dict()``; the client rebuilds the same ``View`` with
``View.from_dict(data, rules)`` (the rules come with the table, not with every view).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from president.actions import Action, action_from_dict, action_to_dict
from president.cards import Card, Rank, Suit, format_cards, parse_cards
from president.combos import Combo, make_combo
from president.legality import legal_actions
from president.locks import Lock
from president.roles import Role
from president.rules import HouseRules
from president.state import HandResult, Phase, State

RESULTS_SENT = 10  # finished hands a view carries on the wire


class Choosing(NamedTuple):
    """A 7-pass or 10-discard being chosen, as every seat sees it: who chooses how many
    cards (``number``; ``kind`` "give" to the seat ``to``, or "discard" with ``to`` None)."""

    seat: int
    kind: str
    number: int
    to: int | None


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
    # (seat, cards, what its jokers stand for: wild jokers) of the current trick
    pile: tuple[tuple[int, tuple[Card, ...], tuple[Card, ...]], ...]
    top_rank: str | None  # the rank to beat (after a transparent 3, not the cards shown)
    top: Combo | None                    # what a play must beat (``combos.compare``)
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
    back: bool = False  # an 11-back is in force (``reversed`` already shows its order)
    bottom: tuple[int, ...] = ()  # seats sent to the bottom places this hand, lowest first
    lock: Lock | None = None  # the suit (and step) lock on the pile (``suit_lock``)
    choosing: Choosing | None = None  # a 7-pass or 10-discard being chosen now
    # 7-passes this seat gave or received this hand (from, to, cards): no one else's
    gifts_mine: tuple[tuple[int, int, tuple[Card, ...]], ...] = ()
    # 10-discards of this hand, face up for everyone (seat, cards)
    discards: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the wire: cards in the text notation, sets as sorted lists."""
        return {**self.public_dict(), **self.own_dict()}

    def own_dict(self) -> dict[str, Any]:
        """What of ``to_dict`` is this seat's own (``OwnPart``)."""
        return OwnPart(self.seat, self.hand, self.tax_owed, self.tax_mine,
                       self.legal, self.gifts_mine).to_dict()

    def public_dict(self) -> dict[str, Any]:
        """What of ``to_dict`` every seat and spectator is shown alike."""
        return {
            "players": list(self.players), "phase": self.phase,
            "hand_number": self.hand_number, "dealer": self.dealer, "order": list(self.order),
            "counts": list(self.counts),
            "pile": [[seat, format_cards(cards), format_cards(declared)] if declared
                     else [seat, format_cards(cards)] for seat, cards, declared in self.pile],
            "top_rank": self.top_rank, "top": _combo_to_list(self.top), "turn": self.turn,
            "last_player": self.last_player,
            "passed": sorted(self.passed), "locked": sorted(self.locked),
            "reversed": self.reversed, "direction": self.direction,
            "finished": list(self.finished),
            "roles": list(self.roles) if self.roles is not None else None,
            "scores": list(self.scores), "presidencies": list(self.presidencies),
            # The last finished hands, between hands only: an open-ended session would
            # otherwise grow every frame by a hand (the journal keeps them all, and the
            # standings are the scores).
            "results": [
                {"order": list(r.order), "roles": [role.value for role in r.roles],
                 "scores": list(r.scores)} for r in self.results[-RESULTS_SENT:]
            ] if self.phase in ("hand_over", "session_over") else None,
            "tax_pending": list(self.tax_pending),
            "ready": sorted(self.ready), "decree": self.decree, "winners": list(self.winners),
            "back": self.back, "bottom": list(self.bottom),
            "lock": _lock_to_list(self.lock),
            "choosing": list(self.choosing) if self.choosing is not None else None,
            "discards": [[seat, format_cards(cards)] for seat, cards in self.discards],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: HouseRules) -> View:
        """The inverse of ``to_dict`` (``results`` travel between hands only: elsewhere the
        view read back has none). Malformed data raises ``KeyError``, ``TypeError``,
        ``ValueError`` or a ``PresidentError`` (``NotationError``)."""
        seat = _optional_int(data["seat"])
        results = data["results"] or []
        return cls(
            seat=seat, players=tuple(_strs(data["players"])), phase=_str(data["phase"]),
            hand_number=_int(data["hand_number"]), dealer=_int(data["dealer"]),
            order=_ints(data["order"]), hand=parse_cards(_str(data["hand"])),
            counts=_ints(data["counts"]),
            pile=tuple(_pile_entry(entry) for entry in _list(data["pile"])),
            top_rank=_optional_str(data["top_rank"]), top=_combo_from_list(data["top"]),
            turn=_optional_int(data["turn"]), last_player=_optional_int(data["last_player"]),
            passed=frozenset(_ints(data["passed"])), locked=frozenset(_ints(data["locked"])),
            reversed=_bool(data["reversed"]), direction=_int(data["direction"]),
            finished=_ints(data["finished"]),
            roles=None if data["roles"] is None else tuple(_strs(data["roles"])),
            scores=_ints(data["scores"]), presidencies=_ints(data["presidencies"]),
            results=tuple(HandResult(_ints(r["order"]), tuple(Role(x) for x in _strs(r["roles"])),
                                     _ints(r["scores"])) for r in _list(results)),
            tax_owed=_int(data["tax_owed"]), tax_pending=_ints(data["tax_pending"]),
            tax_mine=tuple((_int(a), _int(b), parse_cards(_str(c)))
                           for a, b, c in _pairs(data["tax_mine"], 3)),
            ready=frozenset(_ints(data["ready"])), decree=_optional_str(data["decree"]),
            winners=_ints(data["winners"]),
            legal=tuple(action_from_dict({**_map(a), "seat": seat}) for a in _list(data["legal"])),
            rules=rules, back=_bool(data.get("back", False)), bottom=_ints(data.get("bottom", [])),
            lock=_lock_from_list(data.get("lock")),
            choosing=_choosing_from_list(data.get("choosing")),
            gifts_mine=tuple((_int(a), _int(b), parse_cards(_str(c)))
                             for a, b, c in _pairs(data.get("gifts_mine", []), 3)),
            discards=tuple((_int(a), parse_cards(_str(c)))
                           for a, c in _pairs(data.get("discards", []), 2)),
        )


def _choosing_from_list(data: Any) -> Choosing | None:
    if data is None:
        return None
    seat, kind, number, to = _list(data)
    if kind not in ("give", "discard"):
        raise ValueError("choosing")
    return Choosing(_int(seat), kind, _int(number), _optional_int(to))


def _combo_to_list(combo: Combo | None) -> list[Any] | None:
    if combo is None:
        return None
    suit = combo.suit.symbol if combo.suit is not None else None
    return [combo.kind, combo.size, combo.rank.symbol, suit]


def _combo_from_list(data: Any) -> Combo | None:
    if data is None:
        return None
    kind, size, rank, suit = _list(data)
    if kind not in ("set", "run"):
        raise ValueError("top")
    ranks = {r.symbol: r for r in Rank}
    suits = {s.symbol: s for s in Suit}
    return make_combo(kind, _int(size), ranks[_str(rank)], None if suit is None else suits[suit])


def _lock_to_list(lock: Lock | None) -> list[Any] | None:
    """A lock on the wire: ``["HS", false]`` (its suits, whether it is a step lock)."""
    if lock is None:
        return None
    return ["".join(suit.symbol for suit in lock.suits), lock.step]


def _lock_from_list(data: Any) -> Lock | None:
    if data is None:
        return None
    suits, step = _list(data)
    by_symbol = {s.symbol: s for s in Suit}
    return Lock(tuple(sorted(by_symbol[symbol] for symbol in _str(suits))), _bool(step))


def _pile_entry(value: Any) -> tuple[int, tuple[Card, ...], tuple[Card, ...]]:
    """A play of the pile on the wire: [seat, cards] or [seat, cards, declared]."""
    entry = _list(value)
    if len(entry) not in (2, 3):
        raise ValueError("length")
    declared = parse_cards(_str(entry[2])) if len(entry) == 3 else ()
    return _int(entry[0]), parse_cards(_str(entry[1])), declared


def _check(value: Any, kind: type) -> Any:
    if type(value) is not kind:
        raise TypeError(kind.__name__)
    return value


def _int(value: Any) -> int:
    return int(_check(value, int))


def _bool(value: Any) -> bool:
    return bool(_check(value, bool))


def _str(value: Any) -> str:
    return str(_check(value, str))


def _list(value: Any) -> list[Any]:
    return list(_check(value, list))


def _map(value: Any) -> dict[str, Any]:
    return dict(_check(value, dict))


def _optional_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _optional_str(value: Any) -> str | None:
    return None if value is None else _str(value)


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(_int(x) for x in _list(value))


def _strs(value: Any) -> list[str]:
    return [_str(x) for x in _list(value)]


def _pairs(value: Any, size: int) -> list[list[Any]]:
    items = [_list(x) for x in _list(value)]
    if any(len(item) != size for item in items):
        raise ValueError("length")
    return items


class OwnPart(NamedTuple):
    """What of a seat's view is its own (the rest every seat is shown alike): equal parts
    make equal ``to_dict``s, so a host packs a seat's part again only when it changed."""

    seat: int | None
    hand: tuple[Card, ...]
    tax_owed: int                                          # cards this seat must give back
    tax_mine: tuple[tuple[int, int, tuple[Card, ...]], ...]  # transfers it took part in
    legal: tuple[Action, ...]
    gifts_mine: tuple[tuple[int, int, tuple[Card, ...]], ...] = ()  # 7-passes it was in

    def to_dict(self) -> dict[str, Any]:
        """What of ``View.to_dict`` is this seat's own."""
        return {key: wire(value) for key, wire, value in zip(_OWN_KEYS, _OWN_WIRE, self,
                                                               strict=True)}

    def changes(self, before: OwnPart) -> dict[str, Any]:
        """What of ``to_dict`` differs from ``before``'s, made only for the fields that
        changed (the same object, or an equal one, has not)."""
        return {key: wire(value) for key, wire, value, was in zip(
            _OWN_KEYS, _OWN_WIRE, self, before, strict=True)
            if value is not was and value != was}


def _transfers(transfers: tuple[tuple[int, int, tuple[Card, ...]], ...]) -> list[Any]:
    return [[a, b, format_cards(cards)] for a, b, cards in transfers]


def _same_value(value: Any) -> Any:
    return value


_OWN_KEYS = OwnPart._fields
_OWN_WIRE: tuple[Callable[[Any], Any], ...] = (
    _same_value, format_cards, _same_value, _transfers,
    lambda legal: [action_to_dict(action) for action in legal], _transfers)


def own_part(state: State, seat: int | None) -> OwnPart:
    """``seat``'s own part of ``view(state, seat)``, without making the rest of the view."""
    if seat is None:
        return OwnPart(None, (), 0, (), ())
    return OwnPart(seat, state.hands[seat],
                   sum([d.count for d in state.tax_due if d.receiver == seat]),
                   tuple([t for t in state.tax_log if seat in t[:2]]),
                   legal_actions(state, seat),
                   tuple([g for g in state.gifts if seat in g[:2]]) if state.gifts else ())


def own_sources(state: State, seat: int) -> tuple[object, ...]:
    """What ``own_part(state, seat)`` is made of (state's immutable parts and the legal
    actions): two states with equal sources (most often the same objects, compared at
    once) give equal parts, so a host keeps a seat's packed part without making it again
    (most actions change one hand and two seats' legal actions). Whatever ``own_part``
    reads is listed here."""
    return (state.hands[seat], state.tax_due, state.tax_log, legal_actions(state, seat),
            state.gifts)


# An enum member's value (a property: slow enough to matter in a view made per action).
_VALUES: dict[Enum, str] = {member: member.value for member in (*Phase, *Role)}


def view(state: State, seat: int | None) -> View:
    top, tax_due = state.top, state.tax_due
    _, hand, tax_owed, tax_mine, legal, gifts_mine = own_part(state, seat)
    due = state.giving[0] if state.giving else None
    return View(
        seat=seat,
        players=state.players,
        phase=_VALUES[state.phase],
        hand_number=state.hand_number,
        dealer=state.dealer,
        order=state.order,
        hand=hand,
        counts=tuple(map(len, state.hands)),
        pile=tuple([(entry.seat, entry.cards, entry.declared) for entry in state.pile]),
        top_rank=top.rank.symbol if top is not None else None,
        top=top,
        turn=state.turn,
        last_player=state.last_player,
        passed=state.passed,
        locked=state.locked,
        reversed=state.reversed,
        direction=state.direction,
        finished=state.finished,
        roles=tuple([_VALUES[role] for role in state.roles]) if state.roles is not None else None,
        scores=state.scores,
        presidencies=state.presidencies,
        results=state.results,
        tax_owed=tax_owed,
        tax_pending=tuple([d.receiver for d in tax_due]),
        tax_mine=tax_mine,
        ready=state.ready,
        decree=state.decree,
        winners=state.winners,
        legal=legal,
        rules=state.rules,
        back=state.back,
        bottom=state.bottom,
        lock=state.lock,
        choosing=Choosing(due.seat, due.kind, due.count, due.to) if due is not None else None,
        gifts_mine=gifts_mine,
        discards=state.discards,
    )

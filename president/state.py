"""The immutable state of a session."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, NamedTuple

from president.cards import Card
from president.combos import Combo
from president.game import Game
from president.locks import Lock
from president.moves import HandMoves
from president.roles import Role
from president.rules import HouseRules


class Phase(StrEnum):
    TAX = "tax"                    # receivers choose the cards they give back
    PLAY = "play"                  # tricks
    HAND_OVER = "hand_over"        # between hands: decree, ready
    SESSION_OVER = "session_over"


class PileEntry(NamedTuple):
    """One play on the pile (a named tuple: one is made for every play)."""

    seat: int
    cards: tuple[Card, ...]
    declared: tuple[Card, ...] = ()  # what its jokers stand for (``joker_mode = wild``)


@dataclass(frozen=True, slots=True)
class TaxDue:
    """``receiver`` owes ``count`` cards of their choice back to ``giver``."""

    receiver: int
    giver: int
    count: int


@dataclass(frozen=True, slots=True)
class GiveDue:
    """After a play holding sevens (``seven_pass``: ``kind`` "give", to the seat ``to``)
    or tens (``ten_discard``: "discard", ``to`` None), ``seat`` chooses ``count`` cards.
    ``play`` is that play's combo and ``forbidden`` why going out on it would have been
    a forbidden finish ("" if it would not: ``trick.forbidden_reason``): a player who
    empties their hand by the choice goes out as if on that play."""

    seat: int
    kind: str
    count: int
    to: int | None
    play: Combo
    forbidden: str


@dataclass(frozen=True, slots=True)
class HandResult:
    order: tuple[int, ...]
    roles: tuple[Role, ...]  # by seat
    scores: tuple[int, ...]  # totals after the hand


@dataclass(frozen=True)
class State:
    """One moment of a session. ``game`` is what the rules imply (``Game(rules)``, made
    here when not given; ``replace`` passes it on). Not slotted: the engine copies a state
    in one place, ``engine._made`` (see there why), which also carries the seats'
    moves (``_moves``)."""

    rules: HouseRules
    players: tuple[str, ...]
    seed: int
    phase: Phase
    hand_number: int
    dealer: int
    order: tuple[int, ...]          # seats clockwise around the table (reseat_by_rank)
    hands: tuple[tuple[Card, ...], ...]  # by seat, sorted
    turn: int | None
    direction: int                  # +1 clockwise, -1 after a revolution that reverses it
    reversed: bool                  # revolution in force
    pile: tuple[PileEntry, ...]     # the current trick, oldest first
    top: Combo | None
    last_player: int | None
    passed: frozenset[int]          # passed or skipped since the last play
    locked: frozenset[int]          # passed in this trick (pass_locks_out)
    same_rank_singles: int          # consecutive singles of one rank (four-in-a-row revolution)
    finished: tuple[int, ...]       # finishing order of this hand so far
    roles: tuple[Role, ...] | None  # from the last finished hand, by seat
    scores: tuple[int, ...]
    presidencies: tuple[int, ...]
    tax_due: tuple[TaxDue, ...]
    tax_log: tuple[tuple[int, int, tuple[Card, ...]], ...]  # (from, to, cards) this hand
    ready: frozenset[int]
    decree: str | None              # in force for the current / next hand
    decree_hand: int                # the hand the decree was made after (0: none)
    results: tuple[HandResult, ...]
    winners: tuple[int, ...]
    back: bool = False              # 11-back in force: ``reversed`` is flipped until the clear
    bottom: tuple[int, ...] = ()    # seats sent to the bottom places, the lowest first
    lock: Lock | None = None        # the suit (and step) lock on the pile (``suit_lock``)
    giving: tuple[GiveDue, ...] = ()  # 7-pass / 10-discard choices due, the first now
    resume: int | None = None       # whose turn it is once the choices are made
    gifts: tuple[tuple[int, int, tuple[Card, ...]], ...] = ()  # 7-passes: (from, to, cards)
    discards: tuple[tuple[int, tuple[Card, ...]], ...] = ()  # 10-discards, face up: (seat, cards)
    game: Game = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    # The engine's per-state caches: the legal actions found by seat (engine._legal), and
    # the seats' moves as the last play or pass left them (moves.HandMoves, by seat).
    _legal: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    _moves: tuple[HandMoves | None, ...] | None = field(
        default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        game = self.game
        if game is None or (game.rules is not self.rules and game.rules != self.rules):
            object.__setattr__(self, "game", Game(self.rules))  # frozen: derived, set once

    def __getstate__(self) -> dict[str, Any]:
        """Pickle and copy the fields only (not the Game and its caches)."""
        values = {name: value for name, value in self.__dict__.items() if name in _FIELDS}
        values["game"] = None
        return values

    def __setstate__(self, values: dict[str, Any]) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_legal", {})
        object.__setattr__(self, "_moves", None)
        self.__post_init__()

    @property
    def seats(self) -> range:
        return range(len(self.players))

    def place(self, seat: int) -> int | None:
        """The place ``seat`` went out in this hand (1 = first), None while it plays on."""
        return place_in(self.finished, self.bottom, len(self.players), seat)

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still holding cards, in seating order."""
        return tuple(seat for seat in self.order if self.hands[seat])


def place_in(finished: tuple[int, ...], bottom: tuple[int, ...], players: int,
             seat: int) -> int | None:
    """The place of ``seat`` among those ``finished`` (first out first) and those sent to
    the ``bottom`` (the lowest first), or None."""
    if seat in finished:
        return finished.index(seat) + 1
    if seat in bottom:
        return players - bottom.index(seat)
    return None


_FIELDS = frozenset(f.name for f in fields(State) if f.init)

"""What each peer of a table is shown, sans-I/O: every broadcast's frames per seat
(``view(state, seat)`` and the events as ``project_event`` shows them to it;
spectators the public view), numbered for all, and a newcomer's snapshot.

Each frame is packed once: an event once for everyone unless it hides cards (then
once per seat, and once for all spectators), and the view's change: its public part
once, each seat's own part only when it changed. Every seat whose own part did not
change shares the spectators' frames. The frames are numbered (every peer is sent as
many), so each batch is made into bytes once.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any, NamedTuple

from president.events import Event, project_event
from president.state import State
from president.view import OwnPart, own_part, own_sources, view

from .protocol import Numbered, Packed, Pairs, StateFrames, StateUpdate, ViewDelta, packed_event


class Projection:
    """A table's frames, as last broadcast: ``seq`` is the number of the last one (a
    broadcast's frames take the next ones; a snapshot takes none: it stands for every
    frame so far)."""

    def __init__(self) -> None:
        self.seq = 0
        # What the last broadcast showed everyone: its state, the public part of its
        # views (None: the next one sends whole views) and each seat's own part.
        self._sent_state: State | None = None
        self._public_sent: dict[str, Any] | None = None
        self._own_packed: dict[int | None, _OwnPacked] = {}  # by _own_pairs

    def broadcast(self, state: State, events: list[Event], by: str,
                  peers: Iterable[tuple[Hashable, int | None]]
                  ) -> list[tuple[Hashable, Numbered]]:
        """Each event and then ``state``'s view, for each of ``peers`` (a connection and
        the seat it plays, None: watching); ``by`` marks the first event (the action
        itself; what follows from it is the rules' doing)."""
        public = view(state, None).public_dict()
        sent, whole = self._public_sent, self._public_sent is None
        if sent is None:        # whole views (the first broadcast, or after a reset)
            states = StateFrames(Pairs.of(public))
        else:                   # what changed since the last broadcast
            states = StateFrames(Pairs.of({key: value for key, value in public.items()
                                           if key not in sent or sent[key] != value}),
                                 ViewDelta.TYPE)
        self._public_sent, self._sent_state = public, state
        first = self.seq + 1
        self.seq += len(events) + 1
        shown: dict[tuple[int, int | None] | int, Packed] = {}   # events
        frames: dict[int | None, Numbered] = {}                   # by seat: all it is sent
        common: Numbered | None = None      # for every seat shown no change of its own
        # Events a spectator sees whole hide nothing from anyone (``project_event``).
        public_events = all(project_event(event, None) is event for event in events)
        sends: list[tuple[Hashable, Numbered]] = []
        for conn, seat in peers:
            numbered = frames.get(seat)
            if numbered is None:
                own = self._own_pairs(state, seat, whole)
                seen = events if public_events else [project_event(e, seat) for e in events]
                alike = own.count == 0 and seen == events
                if alike and common is not None:
                    numbered = common
                else:
                    batch = states.with_own(own)
                    for number in reversed(range(len(seen))):
                        key = number if seen[number] is events[number] else (number, seat)
                        if key not in shown:
                            shown[key] = packed_event(seen[number], by if number == 0 else "")
                        batch = shown[key] + batch
                    numbered = batch.numbered(first)
                    if alike:
                        common = numbered
                frames[seat] = numbered
            sends.append((conn, numbered))
        return sends

    def snapshot(self, state: State, seat: int | None, seq: int | None = None) -> StateUpdate:
        """The whole view of ``seat`` (None: a spectator's), numbered as the last frame
        (``seq``: as an earlier one, the frames after it sent next)."""
        # The next broadcast sends what changed since the last one: this whole view
        # must be what that one showed (else the next one sends whole views).
        if state is not self._sent_state:
            self._public_sent = None
        elif seat is not None:
            self._own_pairs(state, seat, whole=False)  # the seat's part is this one's
        return StateUpdate(seq=self.seq if seq is None else seq,
                           view=view(state, seat).to_dict())

    def seats_moved(self) -> None:
        """The seats changed hands (a duplicate session): each seat's next own part is
        made afresh."""
        self._own_packed.clear()

    def _own_pairs(self, state: State, seat: int | None, whole: bool) -> Pairs:
        """The seat's own part of its view, packed: all of it (``whole``) or what changed
        since it was last asked for. Made again only when what it is made of changed
        (``own_sources``: most actions change one hand and the legal actions of the
        seat that played and of the next one)."""
        sources = own_sources(state, seat) if seat is not None else ()
        kept = self._own_packed.get(seat)
        changed = _NO_PAIRS
        if kept is None or kept.sources != sources:  # (the same objects: no compare)
            own = own_part(state, seat)
            changed = Pairs.of(own.changes(kept.part) if kept is not None else own.to_dict())
            kept = self._own_packed[seat] = _OwnPacked(sources, own, None)
        if not whole:
            return changed
        if kept.pairs is None:
            kept = self._own_packed[seat] = kept._replace(pairs=Pairs.of(kept.part.to_dict()))
        assert kept.pairs is not None
        return kept.pairs


class _OwnPacked(NamedTuple):
    """A seat's own part as last sent, what it was made of (``own_sources``), and once
    asked for, packed whole."""

    sources: tuple[object, ...]
    part: OwnPart
    pairs: Pairs | None


_NO_PAIRS = Pairs(0, b"")

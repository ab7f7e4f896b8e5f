"""Frames packed once for many connections (``protocol.Packed``): each connection still
reads exactly its own view and its own projection of every event, and no other seat's
cards."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import Any

import pytest
from netkit import check_no_hidden_cards
from rawpeer import proved_join

from president import engine
from president.actions import Decree
from president.events import Event, project_event
from president.net.protocol import (
    HOST,
    PROTOCOL_VERSION,
    Decoder,
    EventUpdate,
    Hello,
    Message,
    Packed,
    Pairs,
    StateUpdate,
    Welcome,
    action_request,
    encode,
    packed,
    packed_state,
)
from president.net.table import Command, Table, TableOptions
from president.rules import HouseRules
from president.view import own_part, own_sources, view


class DecodingPeer:
    """A connection as the table sees it, numbering and decoding what it is sent as
    ``host.Connection`` numbers and the client decodes it."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.table: Table | None = None
        self.attached = False
        self.seq = 0
        self.decoder = Decoder(HOST)
        self.frames: list[dict[str, Any]] = []
        self.shared = 0               # frames that came packed once for many

    def send(self, msg: Message | Packed) -> bool:
        if isinstance(msg, Packed):
            data = msg.frames(self.seq + 1)
            self.seq += msg.count
            self.shared += msg.count
        else:
            if isinstance(msg, (StateUpdate, EventUpdate)):
                self.seq += 1
                msg = replace(msg, seq=self.seq)
            if isinstance(msg, Welcome):  # the connection adds the host's proof
                msg = replace(msg, proof=bytes(32))
            data = encode(msg, check=False)
        self.frames.extend(m.to_wire() for m in self.decoder.feed(data))
        return True

    def close(self, code: str, **params: Any) -> None:
        pass

    def done(self) -> None:
        pass


def test_a_packed_frame_reads_as_the_message_it_stands_for() -> None:
    event = EventUpdate(seq=0, event=Event("play", {"hand": 1, "seat": 2, "cards": "7C 7D"}),
                        by="standin")
    for seq in (1, 127, 128, 65_536, 2**40):
        (decoded,) = Decoder(HOST).feed(packed(event).frames(seq))
        assert decoded == replace(event, seq=seq)
        two = Decoder(HOST).feed((packed(event) + packed(replace(event, by=""))).frames(seq))
        assert two == [replace(event, seq=seq), replace(event, seq=seq + 1, by="")]
    public, own = Pairs.of({"a": [1, 2], "b": None}), Pairs.of({"seat": 3, "hand": "3C"})
    (state,) = Decoder(HOST).feed(packed_state(public, own).frames(9))
    assert state == StateUpdate(seq=9, view={"a": [1, 2], "b": None, "seat": 3, "hand": "3C"})


@pytest.mark.parametrize("seed", [3, 11])
def test_every_seat_and_spectator_reads_its_own_view_and_events(seed: int) -> None:
    """Four seats and two spectators through three hands (a deal each, the tax after the
    first): after every accepted action each peer has read exactly the events as
    ``project_event`` shows them to it and ``view(state, seat).to_dict()``."""
    async def scenario() -> tuple[list[DecodingPeer], int]:
        table = Table(TableOptions(seats=4, seed=seed, ready_timeout=0, grace=600,
                                   rules=HouseRules(session_end="open")))
        peers = [DecodingPeer() for _ in range(6)]
        for index, peer in enumerate(peers):
            table._handle(proved_join(peer, Hello(
                version=PROTOCOL_VERSION, name=f"p{index}", language="en",
                share=bytes(255) + b"\x02", seat_hint=None, spectate=index >= 4, table=None)))
        rng = random.Random(seed)
        checked = 0
        while table.state is not None and table.state.hand_number < 3:
            state = table.state
            seat = next(s for s in state.seats if any(
                not isinstance(a, Decree) for a in engine.legal_actions(state, s)))
            action = rng.choice([a for a in engine.legal_actions(state, seat)
                                 if not isinstance(a, Decree)])
            seen = [(len(peer.frames), peer.seq) for peer in peers]
            after, events = engine.apply(state, action)
            table._handle(Command(peers[seat], action_request(action, 1)))
            assert table.state == after
            for peer, (before, last_seq) in zip(peers, seen, strict=True):
                new = peer.frames[before:]
                got_events = [m["event"] for m in new if m["type"] == "event"]
                assert got_events == [project_event(e, peer.seat).to_dict() for e in events]
                (state_frame,) = [m for m in new if m["type"] == "state"]
                assert state_frame["view"] == view(after, peer.seat).to_dict()
                assert [m["seq"] for m in new if "seq" in m] == list(
                    range(last_seq + 1, last_seq + len(events) + 2))
            checked += 1
        return peers, checked

    peers, checked = asyncio.run(scenario())
    assert checked > 100
    for peer in peers:
        assert peer.shared > 2 * checked
        assert check_no_hidden_cards(peer.frames, peer.seat) > 50


@pytest.mark.parametrize("players", [4, 8])
def test_a_seats_own_part_is_equal_whenever_what_it_is_made_of_is_the_same(players: int) -> None:
    """``own_sources`` lists everything ``own_part`` reads: the table keeps a seat's packed
    own part while the sources are the same objects, so between two states with the same
    sources the parts must be equal (and they are the same often: the cache is used)."""
    rng = random.Random(players)
    state, _ = engine.new_session(HouseRules(session_end="open", decree=True),
                                  [f"p{i}" for i in range(players)], players)
    same = differ = 0
    for _ in range(1500):
        seat = next(s for s in rng.sample(range(players), players) if any(
            not isinstance(a, Decree) for a in engine.legal_actions(state, s)))
        after, _ = engine.apply(state, rng.choice(
            [a for a in engine.legal_actions(state, seat) if not isinstance(a, Decree)]))
        for s in range(players):
            if all(a is b for a, b in zip(own_sources(state, s), own_sources(after, s),
                                          strict=True)):
                assert own_part(after, s) == own_part(state, s)
                same += 1
            else:
                differ += 1
        state = after
    assert same > 1500 and differ > 1500

"""Frames packed once for many connections (``protocol.Packed``): each connection still
reads exactly its own view and its own projection of every event, and no other seat's
cards."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from netkit import check_no_hidden_cards
from rawpeer import proved_join

from president import engine
from president.actions import Action, Decree
from president.events import Event, project_event
from president.net.protocol import (
    HOST,
    PROTOCOL_VERSION,
    Decoder,
    EventUpdate,
    Hello,
    Message,
    Numbered,
    Pairs,
    SnapshotRequest,
    StateUpdate,
    Welcome,
    action_request,
    encode,
    packed,
    packed_event,
    packed_state,
)
from president.net.session import ClientSession, Status
from president.net.table import Command, Gone, Join, Table, TableOptions
from president.rules import HouseRules
from president.state import State
from president.view import own_part, own_sources, view


class DecodingPeer:
    """A connection as the table sees it, decoding what it is sent as the client's
    session reads it (``session``: its ``view`` rebuilt from whole views and their
    changes); ``seq``: the last frame's number it was sent."""

    def __init__(self, skip: Callable[[int], bool] = lambda seq: False) -> None:
        self.seat: int | None = None
        self.table: Table | None = None
        self.attached = False
        self.seq = 0
        self.skip = skip              # broadcast frames lost as for a full queue (by seq)
        self.decoder = Decoder(HOST)
        self.frames: list[dict[str, Any]] = []
        self.last: Numbered | None = None  # the last broadcast's frames it was sent
        self.session: ClientSession | None = None
        self.asked = 0                # snapshots asked for, not yet handed to the table
        self.lost_last = False        # the last broadcast was lost (noticed at the next)

    def send(self, msg: Message | Numbered) -> bool:
        if isinstance(msg, Numbered):
            assert msg.first == self.seq + 1  # the table's numbers: none is missed
            self.seq = msg.first + msg.count - 1
            self.last = msg
            self.lost_last = self.skip(self.seq)
            if self.lost_last:
                return False
            data = msg.data
        else:
            if isinstance(msg, (StateUpdate, EventUpdate)):  # a snapshot, a return's catch-up
                self.seq = msg.seq
            data = encode(msg, check=False)
        for message in self.decoder.feed(data):
            self.frames.append(message.to_wire())
            if isinstance(message, Welcome):
                assert self.table is not None
                self.session = ClientSession("peer", status=Status.CONNECTED,
                                             table=self.table.info(), seat=message.seat)
            elif self.session is not None:
                self.session.handle(message)
                self.asked += len(self.session.outgoing()) > 0  # a snapshot request
        return True

    def close(self, code: str, **params: Any) -> None:
        self.attached = False

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
        assert packed_event(event.event, "standin").frames(seq) == packed(event).frames(seq)
    public, own = Pairs.of({"a": [1, 2], "b": None}), Pairs.of({"seat": 3, "hand": "3C"})
    (state,) = Decoder(HOST).feed(packed_state(public, own).frames(9))
    assert state == StateUpdate(seq=9, view={"a": [1, 2], "b": None, "seat": 3, "hand": "3C"})


def hello(index: int, spectate: bool = False) -> Hello:
    return Hello(version=PROTOCOL_VERSION, name=f"p{index}", language="en",
                 share=bytes(255) + b"\x02", seat_hint=None, spectate=spectate, table=None)


def random_action(state: State, rng: random.Random) -> Action:
    seat = next(s for s in state.seats if any(
        not isinstance(a, Decree) for a in engine.legal_actions(state, s)))
    return rng.choice([a for a in engine.legal_actions(state, seat)
                       if not isinstance(a, Decree)])


@pytest.mark.parametrize("seed", [3, 11])
def test_every_seat_and_spectator_reads_its_own_view_and_events(seed: int) -> None:
    """Four seats and two spectators through three hands (a deal each, the tax after the
    first): after every accepted action each peer has read exactly the events as
    ``project_event`` shows them to it and one view frame (a whole view, or what changed),
    from which its client session rebuilt ``view(state, seat)`` exactly."""
    async def scenario() -> tuple[list[DecodingPeer], int, int]:
        table = Table(TableOptions(seats=4, seed=seed, ready_timeout=0, grace=600,
                                   rules=HouseRules(session_end="open")))
        peers = [DecodingPeer() for _ in range(6)]
        for index, peer in enumerate(peers):
            table._handle(proved_join(peer, hello(index, spectate=index >= 4)))
        rng = random.Random(seed)
        checked = made = 0
        while table.state is not None and table.state.hand_number < 3:
            action = random_action(table.state, rng)
            seen = [(len(peer.frames), peer.seq) for peer in peers]
            after, events = engine.apply(table.state, action)
            table._handle(Command(peers[action.seat], action_request(action, 1)))
            assert table.state == after
            for peer, (before, last_seq) in zip(peers, seen, strict=True):
                new = peer.frames[before:]
                got_events = [m["event"] for m in new if m["type"] == "event"]
                assert got_events == [project_event(e, peer.seat).to_dict() for e in events]
                assert len([m for m in new if m["type"] in ("state", "view_delta")]) == 1
                assert peer.session is not None and peer.session.view is not None
                assert peer.session.view.to_dict() == view(after, peer.seat).to_dict()
                assert [m["seq"] for m in new if "seq" in m] == list(
                    range(last_seq + 1, last_seq + len(events) + 2))
            checked += 1
            made += len({id(peer.last) for peer in peers})  # the bytes made for them
        return peers, checked, made

    peers, checked, made = asyncio.run(scenario())
    assert checked > 100
    assert made < 3.5 * checked  # for six peers: the actor, the next player, everyone else
    for peer in peers:
        assert check_no_hidden_cards(peer.frames, peer.seat) > 50
        # after the whole first view, what changed (smaller: never the whole of it)
        kinds = [m["type"] for m in peer.frames if m["type"] in ("state", "view_delta")]
        assert kinds[0] == "state" and kinds.count("view_delta") == checked
        whole = len(peer.frames[[m["type"] for m in peer.frames].index("state")]["view"])
        assert all(len(m["view"]) < whole for m in peer.frames if m["type"] == "view_delta")


def test_peers_that_join_return_or_lose_frames_rebuild_the_same_view() -> None:
    """Changes are sent against what the last broadcast showed: a spectator arriving in
    the middle, a player who drops and comes back with the token, and peers whose frames
    are lost as for a full queue (a sequence gap: the session ignores changes until the
    snapshot it asked for) all end every action with ``view(state, seat)`` exactly."""
    async def scenario() -> int:
        table = Table(TableOptions(seats=4, seed=5, ready_timeout=0, grace=600,
                                   rules=HouseRules(session_end="open")))
        peers = [DecodingPeer() for _ in range(3)]
        peers.append(DecodingPeer(skip=lambda seq: seq % 17 in (3, 4)))   # seat 3 loses
        peers.append(DecodingPeer(skip=lambda seq: seq % 23 == 5))        # and a watcher
        for index, peer in enumerate(peers):
            table._handle(proved_join(peer, hello(index, spectate=index == 4)))
        from_start = [peers[0], peers[2]]
        assert table.state is not None
        shown = {seat: [view(table.state, seat).to_dict()] for seat in [*range(4), None]}
        rng = random.Random(5)
        checked = 0
        for step in range(600):
            state = table.state
            assert state is not None
            if step % 97 == 40:  # someone starts watching
                peers.append(DecodingPeer())
                table._handle(proved_join(peers[-1], hello(len(peers), spectate=True)))
            if step % 61 == 30:  # seat 1 drops; plays go on without it; it comes back
                table._handle(Gone(peers[1]))
            if step % 61 == 45:
                token = table.seats[1].token
                assert token is not None
                peers[1] = DecodingPeer()
                joined = proved_join(peers[1], hello(1), pin=token)
                table._handle(Join(peers[1], joined.hello, joined.handshake, joined.proof,
                                   token))
            action = random_action(state, rng)
            table._handle(Command(peers[action.seat], action_request(action, 1)))
            assert table.state is not None
            for seat in [*range(4), None]:
                shown[seat].append(view(table.state, seat).to_dict())
            for peer in peers:      # a gap seen: an earlier view until the snapshot, never
                session = peer.session  # one made of changes to a view it missed
                if peer.attached and session is not None and session.view is not None:
                    if session.resyncing:
                        assert session.view.to_dict() in shown[peer.seat][-60:]
                    elif not peer.lost_last:
                        assert session.view.to_dict() == shown[peer.seat][-1]
                        checked += 1
            for peer in peers:       # the snapshots asked for after a gap, as the host would
                for _ in range(peer.asked):
                    table._handle(Command(peer, SnapshotRequest()))
                if peer.asked:
                    assert peer.session is not None and not peer.session.resyncing
                    assert peer.session.view is not None
                    assert peer.session.view.to_dict() == shown[peer.seat][-1]
                peer.asked = 0
        # (of the peers shown every deal: one arriving mid-hand, or losing the deal's
        # frame, was not shown the cards it holds being dealt)
        assert all(check_no_hidden_cards(peer.frames, peer.seat) > 100 for peer in from_start)
        assert sum(peer.session.gaps for peer in peers if peer.session is not None) > 20
        return checked

    assert asyncio.run(scenario()) > 2500


@pytest.mark.parametrize(("players", "rules"), [
    (4, HouseRules(session_end="open", decree=True)),
    (8, HouseRules(session_end="open")),
    (5, HouseRules(session_end="open", seven_pass=True, ten_discard=True)),
])
def test_a_seats_own_part_is_equal_whenever_what_it_is_made_of_is_the_same(
        players: int, rules: HouseRules) -> None:
    """``own_sources`` lists everything ``own_part`` reads: the table keeps a seat's packed
    own part while the sources are equal, so between two states with equal sources the
    parts must be equal (and they are equal often: the cache is used). What changed
    (``OwnPart.changes``) applied to the part before gives the part after."""
    rng = random.Random(players)
    state, _ = engine.new_session(rules, [f"p{i}" for i in range(players)], players)
    same = differ = 0
    for _ in range(1500):
        after, _ = engine.apply(state, random_action(state, rng))
        for s in range(players):
            before_part, after_part = own_part(state, s), own_part(after, s)
            if own_sources(state, s) == own_sources(after, s):
                assert after_part == before_part
                same += 1
            else:
                differ += 1
            assert {**before_part.to_dict(), **after_part.changes(before_part)} == \
                after_part.to_dict()
        state = after
    assert same > 1500 and differ > 1500

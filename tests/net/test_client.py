"""The client: its sans-I/O session fed bytes (as h11's tests do), the asyncio driver
over a fake link, and over TCP against a scripted fake host."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
import rawpeer
from netkit import LOCAL, run
from rawpeer import HOST_KEY

import president
import president.net
from president.actions import Pass, Play
from president.cards import parse_cards
from president.engine import new_session
from president.errors import ClientError, ProtocolError
from president.events import Event
from president.net.client import Client, StatusChanged
from president.net.pake import HostKey, fingerprint, token_hint
from president.net.protocol import (
    CLIENT,
    HOST,
    PROTOCOL_VERSION,
    Accepted,
    Bye,
    Decoder,
    EventUpdate,
    Ping,
    Refused,
    StateUpdate,
    TableInfo,
    TableUpdate,
    encode,
    pack,
)
from president.net.session import (
    ClientSession,
    Closed,
    GameEvent,
    Joined,
    JoinFailed,
    Replied,
    Status,
    TableChanged,
    ViewChanged,
)
from president.rules import HouseRules
from president.view import view

TOKEN = "0f" * 16
INFO = TableInfo(id="main", name="Fake", preset="classic", rules=HouseRules(), seats=3,
                 players=("Ada", None, None), bots=(False,) * 3,
                 connected=(True, False, False), started=False, over=False, pin=False,
                 spectators=0, proto=PROTOCOL_VERSION, turn_timer=0)
STATE, _ = new_session(HouseRules(), ["Ada", "Bob", "Cy"], 5)


class HostHalf(rawpeer.HostHalf):
    """The host's half of the handshake, welcoming to the table ``INFO``."""

    def welcome(self, seat: int | None = 0, proof: bytes | None = None,  # type: ignore[override]
                **_: Any) -> bytes:
        return super().welcome(INFO.to_wire(), seat, TOKEN, proof)


def welcome(session: ClientSession, seat: int | None = 0) -> tuple[bytes, HostHalf]:
    """Start ``session``'s handshake and answer it up to the welcome (not yet received),
    and the host's half (which seals what it sends next)."""
    host = HostHalf(session.pin, tokens=(session.token,) if session.token else ())
    [hello] = sent(session.hello())
    session.receive(host.challenge(hello))
    [proof] = sent(session.outgoing())
    assert proof["type"] == "proof" and host.handshake is not None
    assert host.handshake.pin_proved(proof["proof"])
    return host.welcome(seat), host


def state(seq: int, seat: int = 0) -> bytes:
    return encode(StateUpdate(seq=seq, view=view(STATE, seat).to_dict()))


def event(seq: int) -> bytes:
    return encode(EventUpdate(seq=seq, event=Event("pass", {"hand": 1, "seat": 1})))


def sent(data: bytes) -> list[dict[str, Any]]:
    return Decoder(CLIENT).feed_maps(data)


# ---------------------------------------------------------------- the session, no I/O


def joined_session() -> tuple[ClientSession, HostHalf]:
    session = ClientSession("Ada", "it")
    data, host = welcome(session)
    session.receive(data)
    return session, host


def test_the_handshake_says_hello_proves_the_pin_and_takes_the_seat_and_token() -> None:
    session = ClientSession("Ada", "it", pin="1234")
    host = HostHalf("1234")
    [hello] = sent(session.hello())
    assert {k: v for k, v in hello.items() if k != "share"} == {
        "type": "hello", "version": PROTOCOL_VERSION, "name": "Ada", "language": "it",
        "seat_hint": None, "spectate": False, "table": None, "knock": False}
    assert len(hello["share"]) == 65 and b"1234" not in hello["share"]
    assert session.status is Status.CONNECTING
    assert session.receive(host.challenge(hello)) == []
    [proof] = sent(session.outgoing())
    assert host.handshake is not None and host.handshake.pin_proved(proof["proof"])
    assert session.host_key == fingerprint(HOST_KEY.public)  # learned, to be remembered
    welcomed = host.welcome()
    events = session.receive(welcomed[:7])  # a frame in pieces: nothing yet
    assert events == []
    events = session.receive(welcomed[7:] + host.seal(state(1)))
    assert isinstance(events[0], Joined) and events[0].seat == 0
    assert isinstance(events[1], ViewChanged) and events[1].view == view(STATE, 0)
    assert session.status is Status.CONNECTED and session.token == TOKEN
    assert session.view is events[1].view  # parsed once, kept


def test_a_wrong_pin_does_not_prove_itself_and_the_pin_is_in_no_frame() -> None:
    session = ClientSession("Ada", "it", pin="1234")
    host = HostHalf("4321")
    hello_frame = session.hello()
    session.receive(host.challenge(sent(hello_frame)[0]))
    proof_frame = session.outgoing()
    assert host.handshake is not None
    assert not host.handshake.pin_proved(sent(proof_frame)[0]["proof"])
    assert b"1234" not in hello_frame + proof_frame


def test_a_host_with_another_key_is_left_before_anything_is_proved() -> None:
    session = ClientSession("Ada", "it", pin="1234", token=TOKEN,
                            host_key=fingerprint(HOST_KEY.public))
    impostor = HostHalf("1234", key=HostKey.generate())
    [hello] = sent(session.hello())
    assert hello["seat_hint"] == token_hint(TOKEN) and TOKEN not in str(hello)
    [failed] = session.receive(impostor.challenge(hello))
    assert isinstance(failed, JoinFailed) and failed.code == "host_key_changed" and failed.final
    assert session.outgoing() == b"" and session.final


def test_a_welcome_without_the_hosts_proof_is_not_believed() -> None:
    session = ClientSession("Ada", "it")
    host = HostHalf()
    session.receive(host.challenge(sent(session.hello())[0]))
    session.outgoing()
    [failed] = session.receive(host.welcome(proof=bytes(32)))
    assert isinstance(failed, JoinFailed) and failed.code == "host_unproved" and failed.final
    assert session.seat is None and session.token is None
    # ... nor one in clear, without the host's confirm
    session = ClientSession("Ada", "it")
    session.receive(host.challenge(sent(session.hello())[0]))
    session.outgoing()
    clear = pack({"type": "welcome", "version": PROTOCOL_VERSION, "seat": 0, "token": TOKEN,
                  "table": INFO.to_wire()}, HOST)
    [failed] = session.receive(clear)
    assert isinstance(failed, JoinFailed) and failed.code == "host_unproved"
    assert session.token is None


def test_a_returning_seat_proves_its_token_without_sending_it_nor_the_pin() -> None:
    session = ClientSession("Ada", "it", pin="1234", token=TOKEN)
    for password, proved in ((TOKEN, True), ("1f" * 16, False), ("1234", False)):
        host = HostHalf(tokens=(password,))
        hello_frame = session.hello()
        session.receive(host.challenge(sent(hello_frame)[0]))
        proof_frame = session.outgoing()
        assert host.handshake is not None
        assert host.handshake.pin_proved(sent(proof_frame)[0]["proof"]) is proved
        assert TOKEN.encode() not in hello_frame + proof_frame


def test_a_sequence_gap_asks_for_a_snapshot_once() -> None:
    session, host = joined_session()
    session.receive(host.seal(state(1) + event(2)))
    assert session.outgoing() == b""
    events = session.receive(host.seal(event(4) + event(5)))
    assert [type(e) for e in events] == [GameEvent, GameEvent]
    assert [m["type"] for m in host.feed(session.outgoing())] == ["snapshot_request"]
    assert session.gaps == 1
    session.receive(host.seal(state(6) + event(8)))  # the snapshot came; a new gap asks again
    assert [m["type"] for m in host.feed(session.outgoing())] == ["snapshot_request"]


def test_requests_get_ids_and_their_replies() -> None:
    session, host = joined_session()
    first, data = session.request(Play(0, parse_cards("7C 7D")))
    second, _ = session.request(Pass(0))
    assert host.feed(data) == [{"type": "play", "id": first, "cards": "7C 7D", "declared": ""}]
    assert second == first + 1
    events = session.receive(host.seal(encode(Refused(id=second, code="must_lead", params={}))
                                       + encode(Accepted(id=first)) + encode(Accepted(id=99))))
    assert [(e.request_id, e.reply.accepted, e.reply.code) for e in events
            if isinstance(e, Replied)] == [(second, False, "must_lead"), (first, True, None)]
    assert session.pending == set()


def test_a_lost_connection_fails_what_is_pending_and_the_token_comes_back() -> None:
    session, _ = joined_session()
    request_id, _ = session.request(Pass(0))
    events = session.connection_lost()
    assert [(e.request_id, e.reply.code) for e in events
            if isinstance(e, Replied)] == [(request_id, "disconnected")]
    assert session.status is Status.RECONNECTING and not session.final
    with pytest.raises(ClientError):
        session.request(Pass(0))
    [hello] = sent(session.hello())
    assert hello["seat_hint"] == token_hint(TOKEN)


@pytest.mark.parametrize("code,final", [("wrong_pin", True), ("table_full", True),
                                        ("seat_taken", False), ("rate_limited", False)])
def test_refusals_that_are_final_and_those_worth_another_try(code: str, final: bool) -> None:
    session = ClientSession("Ada")
    session.hello()
    [failed] = session.receive(encode(Refused(id=None, code=code, params={})))  # on the proof
    assert failed == JoinFailed(code, {}, final)
    assert session.final is final


def test_a_final_bye_closes_and_a_pause_does_not() -> None:
    session, host = joined_session()
    [closed] = session.receive(host.seal(encode(Bye(code="host_paused", params={}))))
    assert closed == Closed("host_paused", {}, False) and not session.final
    session, host = joined_session()
    [closed] = session.receive(host.seal(encode(Bye(code="session_over", params={}))))
    assert closed.final and session.final


def test_pings_are_answered_and_table_updates_kept() -> None:
    session, host = joined_session()
    events = session.receive(host.seal(encode(Ping(nonce=41)) + encode(TableUpdate(table=INFO))))
    assert events == [TableChanged(INFO)]
    assert host.feed(session.outgoing()) == [{"type": "pong", "nonce": 41}]


def test_a_malformed_view_is_the_hosts_fault() -> None:
    session, host = joined_session()
    bad = pack({"type": "state", "seq": 1, "view": {"seat": 0}}, HOST)
    with pytest.raises(ProtocolError):
        session.receive(host.seal(bad))


# ---------------------------------------------------------------- the driver, a fake link


class FakeLink:
    """The host's end scripted by the test: what the client reads, what it wrote."""

    def __init__(self, then: bytes = b"") -> None:
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.written = bytearray()
        self.received: list[dict[str, Any]] = []
        self.aborted = False
        self.host, self.then = HostHalf(tokens=(TOKEN,)), then

    async def read(self) -> bytes:
        return await self.inbox.get()

    def write(self, data: bytes) -> None:
        """The handshake is answered at once (``then`` after the welcome)."""
        self.written += data
        for msg in self.host.feed(data):
            self.received.append(msg)
            if msg["type"] == "hello":
                self.inbox.put_nowait(self.host.challenge(msg))
            elif msg["type"] == "proof":
                self.inbox.put_nowait(self.host.welcome() + self.host.seal(self.then))

    def send(self, data: bytes) -> None:
        """What the host sends after the welcome (sealed)."""
        self.inbox.put_nowait(self.host.seal(data))

    async def drain(self) -> None:
        pass

    def abort(self) -> None:
        self.aborted = True
        self.inbox.put_nowait(b"")


def test_the_driver_over_a_fake_link_acts_and_is_answered() -> None:
    async def scenario():
        links: list[FakeLink] = []

        async def open_link() -> FakeLink:
            link = FakeLink(then=state(1))
            links.append(link)
            return link

        events: list[Any] = []
        client = Client("unused", 0, "Ada", open_link=open_link, on_event=events.append)
        await client.connect()
        await client.wait_for(lambda c: c.view is not None)
        acting = asyncio.ensure_future(client.act(Pass(0)))
        await asyncio.sleep(0)
        request = links[0].received[-1]
        links[0].send(encode(Accepted(id=request["id"])))
        reply = await acting
        await client.close()
        return reply, events, links

    reply, events, links = run(scenario(), timeout=10)
    assert reply.accepted
    assert [m["type"] for m in links[0].received] == ["hello", "proof", "pass", "leave"]
    statuses = [e.status for e in events if isinstance(e, StatusChanged)]
    assert statuses == ["connected", "closed"]
    assert len(links) == 1 and links[0].aborted


@pytest.mark.slow
def test_a_long_session_does_not_grow_the_client() -> None:
    """The client keeps the latest view, not every update (it once kept 1,000 whole
    views, hundreds of MiB for a load bench's clients): after 2,000 frames, 2,000 more
    (a few KiB each once parsed) leave it no bigger than a few of them would."""
    async def scenario() -> int:
        link = FakeLink(then=state(1))

        async def open_link() -> FakeLink:
            return link

        client = Client("unused", 0, "Ada", open_link=open_link)
        await client.connect()

        async def feed(first: int, frames: int) -> None:
            for seq in range(first, first + frames, 2):
                link.send(event(seq) + state(seq + 1))
            await client.wait_for(lambda c: c.last_seq == first + frames - 1, timeout=60)

        # Only what the project's own code allocates counts: in the whole suite, threads
        # other tests leave behind (zeroconf, servers) allocate meanwhile too.
        ours = [tracemalloc.Filter(True, str(Path(str(module.__file__)).parent / "*"))
                for module in (president, president.net)]
        tracemalloc.start()
        try:
            await feed(2, 2000)  # and whatever the first frames leave, here or in the test
            gc.collect()
            before = tracemalloc.take_snapshot().filter_traces(ours)
            await feed(2002, 2000)
            gc.collect()
            after = tracemalloc.take_snapshot().filter_traces(ours)
        finally:
            tracemalloc.stop()
        await client.close()
        return sum(stat.size_diff for stat in after.compare_to(before, "filename"))

    assert run(scenario(), timeout=90) < 64 * 1024


# ---------------------------------------------------------------- over TCP, a fake host


class FakeHost:
    """Answers each hello from a script: ("welcome" | refusal code, then silent or not)."""

    def __init__(self, script: list[str]) -> None:
        self.script = script
        self.hellos: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.serve, LOCAL, 0)
        return self.server.sockets[0].getsockname()[1]

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host = HostHalf(tokens=(TOKEN,))
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    return
                for msg in host.feed(data):
                    self.received.append(msg)
                    if msg["type"] == "hello":
                        self.hellos.append(msg)
                        writer.write(host.challenge(msg))
                    elif msg["type"] == "proof":
                        answer = self.script.pop(0) if self.script else "welcome"
                        if answer == "welcome":
                            writer.write(host.welcome() + host.seal(
                                encode(TableUpdate(table=INFO))))
                        else:
                            writer.write(encode(Refused(id=None, code=answer, params={})))
                            writer.close()
                            return
                    elif msg["type"] == "snapshot_request":
                        writer.write(host.seal(encode(Bye(code="left", params={}))))
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()


@pytest.mark.slow
def test_a_silent_host_is_dropped_and_the_client_returns_with_its_token():
    async def scenario():
        fake = FakeHost(["welcome", "seat_taken", "welcome"])
        port = await fake.start()
        statuses: list[str] = []
        client = Client(LOCAL, port, "Ada", heartbeat=0.05, timeout=0.3,
                        on_event=lambda e: statuses.append(e.status)
                        if isinstance(e, StatusChanged) else None)
        await client.connect()
        # The fake host never pings nor answers: the client times out and reconnects;
        # a transient refusal (seat_taken) is retried.
        await client.wait_for(lambda c: len(fake.hellos) >= 3 and c.status == "connected")
        pings = [m for m in fake.received if m["type"] == "ping"]
        await client.close()
        await fake.stop()
        return fake.hellos, statuses, pings

    hellos, statuses, pings = run(scenario())
    assert hellos[0]["seat_hint"] is None
    assert hellos[1]["seat_hint"] == hellos[2]["seat_hint"] == token_hint(TOKEN)
    assert statuses[:3] == ["connected", "reconnecting", "connected"]
    assert statuses[-1] == "closed"
    assert pings


def test_a_final_refusal_stops_the_reconnecting():
    async def scenario():
        fake = FakeHost(["welcome", "bad_token"])
        port = await fake.start()
        client = Client(LOCAL, port, "Ada", heartbeat=0.05, timeout=0.3)
        await client.connect()
        await client.wait_for(lambda c: c.status == "closed")
        await fake.stop()
        return client, fake

    client, fake = run(scenario())
    assert client.bye == Bye(code="bad_token", params={})
    assert len(fake.hellos) == 2


def test_acting_after_a_bye_is_not_connected():
    async def scenario():
        fake = FakeHost(["welcome"])
        port = await fake.start()
        client = Client(LOCAL, port, "Ada", reconnect=False)
        await client.connect()
        client._link.write(client.session.seal(pack({"type": "snapshot_request"}, CLIENT)))
        # ... answered: bye "left"
        await client.wait_for(lambda c: c.status == "closed")
        reply = await client.act(Pass(0))
        await fake.stop()
        return client, reply

    client, reply = run(scenario())
    assert client.bye.code == "left"
    assert reply.code == "not_connected"

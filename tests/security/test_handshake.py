"""The join handshake (issue 14, point 5). A LAN impostor collects nothing: a fake table
under the same name learns no PIN and no seat token, and is refused as soon as its key is
not the expected one. A player coming back to their seat needs its token, not the PIN.

The impostor here is written out as an attacker would write it: it answers the hello with
its own key and a share made with a PIN it guesses, records every frame, then tries a
dictionary of PINs offline against what the client sent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from security_kit import LOCAL, run

from president.cli.netbridge import NetConnection
from president.cli.seats import SeatClaim, SeatStore, table_key
from president.cli.terminal.model import TableModel
from president.cli.trust import KnownHosts
from president.cli.ui_text import load_texts
from president.errors import JoinRefused
from president.net.client import Client
from president.net.host import Host
from president.net.pake import (
    PIN as PIN_CONTEXT,
)
from president.net.pake import (
    HostKey,
    M,
    N,
    Schedule,
    encode_point,
    fingerprint,
    password_scalar,
    random_scalar,
    share,
    short_fingerprint,
    transcript,
    unmasked,
)
from president.net.protocol import CLIENT, HOST, Decoder, pack, parse
from president.net.session import Joined, JoinFailed
from president.net.table import Table, TableOptions

PIN = "4321"
TOKEN = "ab" * 16


class Impostor:
    """A fake table: its own key, a PIN guess; it keeps what it receives."""

    def __init__(self, guess: str) -> None:
        self.key = HostKey.generate()
        self.y = random_scalar()
        self.share = encode_point(share(self.y, password_scalar(guess, PIN_CONTEXT), N))
        self.received: list[dict[str, Any]] = []
        self.raw = bytearray()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        decoder = Decoder(CLIENT)
        try:
            while data := await reader.read(65536):
                self.raw += data
                for msg in decoder.feed_maps(data):
                    self.received.append(msg)
                    if msg["type"] == "hello":
                        writer.write(pack({"type": "challenge", "key": self.key.public,
                                           "share": self.share}, HOST))
                    elif msg["type"] == "proof":  # it cannot make the host's proof: it fakes one
                        writer.write(pack({"type": "confirm", "proof": bytes(32)}, HOST))
        finally:
            writer.close()

    def pins_matching(self, candidates: list[str]) -> list[str]:
        """The PINs that explain the client's proof (what an offline attack finds)."""
        hello = next(m for m in self.received if m["type"] == "hello")
        proof = next(m for m in self.received if m["type"] == "proof")
        identity = parse({**hello, "share": bytes(65)}, CLIENT).identity  # type: ignore[attr-defined]
        found = []
        for pin in candidates:
            w = password_scalar(pin, PIN_CONTEXT)
            x_point = unmasked(hello["share"], w, M)     # x·G, if w is the client's
            k = encode_point(x_point * self.y)
            d = int((x_point * self.key.secret).x).to_bytes(32, "big")
            tt = transcript(identity, self.key.public, hello["share"], self.share, k, w)
            if Schedule.of(tt, PIN_CONTEXT + d).ca == proof["proof"]:
                found.append(pin)
        return found


async def impostor_server(impostor: Impostor) -> tuple[asyncio.Server, int]:
    server = await asyncio.start_server(impostor.serve, LOCAL, 0)
    return server, server.sockets[0].getsockname()[1]


def test_an_impostor_learns_neither_the_pin_nor_the_token_and_is_not_believed() -> None:
    """No key expected (the first join at a typed address): the client answers the
    challenge, but its proof explains no PIN of a dictionary holding the right one."""
    impostor = Impostor(guess="0000")

    async def scenario() -> tuple[str, Client]:
        server, port = await impostor_server(impostor)
        client = Client(LOCAL, port, "Ada", pin=PIN, token=TOKEN, reconnect=False)
        try:
            with pytest.raises(JoinRefused) as refused:
                await client.connect()
            return refused.value.code, client
        finally:
            server.close()

    code, client = run(scenario())
    assert code == "host_unproved" and client.status == "closed"
    assert [m["type"] for m in impostor.received] == ["hello", "proof"]
    assert PIN.encode() not in impostor.raw and TOKEN.encode() not in impostor.raw
    dictionary = [f"{n:04}" for n in range(150)] + [PIN]
    assert impostor.pins_matching(dictionary) == []  # one guess per join, and it was wrong


def test_the_one_guess_an_impostor_has_is_all_it_gets() -> None:
    """The control of the test above: had the impostor guessed right, its dictionary
    would have found the PIN (so the check above can fail)."""
    impostor = Impostor(guess=PIN)

    async def scenario() -> None:
        server, port = await impostor_server(impostor)
        with pytest.raises(JoinRefused):
            await Client(LOCAL, port, "Ada", pin=PIN, reconnect=False).connect()
        server.close()

    run(scenario())
    assert impostor.pins_matching(["0000", PIN, "1234"]) == [PIN]


def test_a_host_with_another_key_than_the_expected_one_gets_nothing_but_the_hello() -> None:
    impostor = Impostor(guess="0000")
    real = HostKey.generate()

    async def scenario() -> str:
        server, port = await impostor_server(impostor)
        client = Client(LOCAL, port, "Ada", pin=PIN, token=TOKEN, reconnect=False,
                        host_key=fingerprint(real.public))
        try:
            with pytest.raises(JoinRefused) as refused:
                await client.connect()
            return refused.value.code
        finally:
            server.close()

    assert run(scenario()) == "host_key_changed"
    assert [m["type"] for m in impostor.received] == ["hello"]


def test_a_seat_claim_is_offered_only_to_the_host_that_gave_it(tmp_path) -> None:
    """The seat's token was given by another host key: the table at that address now
    (say, a lookalike started there) is refused before the token is proved."""

    async def scenario() -> tuple[list[Any], int]:
        table = Table(TableOptions(name="Kitchen", seats=3, bots=1))
        host = Host([table])
        port = await host.start([LOCAL])
        seats = SeatStore(tmp_path / "seats.json")
        seats.put(table_key(LOCAL, port, None, "Ada"),
                  SeatClaim(TOKEN, "Ada", "Kitchen", 1e10, host_key="cd" * 32))
        connection = NetConnection(LOCAL, port, "Ada", "en", seats=seats)
        events: list[Any] = []
        await connection.start(events.append)
        await host.stop()
        return events, table.taken

    events, taken = run(scenario())
    failed = [e for e in events if isinstance(e, JoinFailed)]
    assert failed and failed[0].code == "host_key_changed" and failed[0].final
    assert taken == 1  # only the bot: nobody sat down


def test_a_table_name_met_again_with_another_key_is_flagged_at_the_table(tmp_path) -> None:
    """No seat, no advertisement (a typed address): the client goes in, and says the key
    is not the one that table name had the last time."""
    known = KnownHosts(tmp_path / "known.json")

    async def join_once() -> tuple[Joined, str]:
        table = Table(TableOptions(name="Kitchen", seats=3, bots=1))
        host = Host([table])          # a new key each time: another computer
        port = await host.start([LOCAL])
        connection = NetConnection(LOCAL, port, "Ada", "en", known=known)
        events: list[Any] = []
        await connection.start(events.append)
        await connection.close()
        await host.stop()
        return next(e for e in events if isinstance(e, Joined)), host.key.fingerprint

    first, first_key = run(join_once())
    second, second_key = run(join_once())
    assert first.key_was is None and known.get("Kitchen") == second_key
    assert second.host_key == second_key and second.key_was == first_key
    tr, text = load_texts("en")
    model = TableModel(tr, text)
    model.on_event(second)
    assert any(short_fingerprint(first_key) in line and "changed" in line for line in model.log)


def test_a_pin_typed_for_a_table_without_one_is_refused_and_the_terminal_joins_without(
        tmp_path) -> None:
    async def scenario() -> tuple[str, list[Any], int]:
        table = Table(TableOptions(name="Kitchen", seats=3, bots=1))
        host = Host([table])
        port = await host.start([LOCAL])
        with pytest.raises(JoinRefused) as refused:
            await Client(LOCAL, port, "Ada", pin="1234", reconnect=False).connect()
        connection = NetConnection(LOCAL, port, "Bea", "en", pin="1234")
        events: list[Any] = []
        await connection.start(events.append)
        taken = table.taken
        await connection.close()
        await host.stop()
        return refused.value.code, events, taken

    code, events, taken = run(scenario())
    assert code == "no_pin"
    assert any(isinstance(e, Joined) for e in events) and taken == 2


def test_a_player_back_at_a_pin_table_needs_the_seat_token_not_the_pin() -> None:
    """A killed client restarted without the PIN (``president join HOST:PORT``) sits
    down in its seat again; a forged token is refused without costing the PIN budget."""
    async def scenario() -> tuple[int | None, int | None, str, int]:
        table = Table(TableOptions(name="Kitchen", seats=3, bots=1, pin=PIN, grace=60))
        host = Host([table])
        port = await host.start([LOCAL])
        first = Client(LOCAL, port, "Ada", pin=PIN, reconnect=False)
        await first.connect()
        seat, token = first.seat, first.token
        await first.drop()
        again = Client(LOCAL, port, "Ada", token=token, reconnect=False)  # no PIN
        await again.connect()
        with pytest.raises(JoinRefused) as forged:
            await Client(LOCAL, port, "Eve", token="cd" * 16, reconnect=False).connect()
        failures = len(table.pin_guard.failures)
        await host.stop()
        return seat, again.seat, forged.value.code, failures

    seat, back, forged, failures = run(scenario())
    assert back == seat is not None
    assert forged == "bad_token" and failures == 0

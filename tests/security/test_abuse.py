"""Each abuse is refused with a clear code, and only the abuser is affected."""

from __future__ import annotations

import asyncio
import secrets

import msgpack
from security_kit import LOCAL, Raw, frame, play_steadily, run, short_rules, wait_until

from president.net.client import Client
from president.net.host import Host
from president.net.limits import (
    AddressBook,
    Limits,
    TokenBucket,
    chat_problem,
    name_problem,
)
from president.net.protocol import PROTOCOL_VERSION, Welcome
from president.net.session import ChatReceived
from president.net.table import Table, TableOptions


async def start(limits: Limits | None = None, **options) -> tuple[Host, Table, int]:
    options = {"seats": 4, "bots": 2, "rules": short_rules(hands=2), "seed": 3,
               "ready_timeout": 0, **options}
    table = Table(TableOptions(**options))
    host = Host([table], limits=limits)
    return host, table, await host.start([LOCAL])


async def refusal(port: int, **hello) -> dict:
    raw = await Raw.open(port)
    try:
        return await raw.hello(**hello)
    finally:
        raw.abort()


def test_wrong_pin_forged_token_long_name_and_a_seat_reclaimed_by_its_token():
    async def scenario():
        host, table, port = await start(pin="4321")
        results = {
            "no_pin": await refusal(port, name="ann"),
            "wrong_pin": await refusal(port, name="ann", pin="1234"),
            "forged": await refusal(port, name="ann", pin="4321", token=secrets.token_hex(16)),
            "long_name": await refusal(port, name="x" * 25, pin="4321"),
            "huge_name": await refusal(port, name="x" * 70, pin="4321"),
        }
        ann = Client(LOCAL, port, "ann", pin="4321", reconnect=False)
        await ann.connect()
        # The token is the seat's proof: a second connection holding it (the same player
        # after a half-open drop, or another window) takes the seat over at once, and the
        # old one is told so and does not come back. A name alone takes nothing.
        again = Client(LOCAL, port, "ann", pin="4321", token=ann.token, reconnect=False)
        await again.connect()
        await ann.wait_for(lambda c: c.status == "closed")
        ok = Client(LOCAL, port, "x" * 24, pin="4321", reconnect=False)
        await ok.connect()
        seated = [s.name for s in table.seats]
        await host.stop()
        return results, (again.seat, ann.bye.code), seated

    results, claimed, seated = run(scenario())
    assert {k: (m["type"], m["code"]) for k, m in results.items()} == {
        "no_pin": ("refused", "wrong_pin"),
        "wrong_pin": ("refused", "wrong_pin"),
        "forged": ("refused", "bad_token"),
        "long_name": ("refused", "name_invalid"),
        "huge_name": ("refused", "bad_field"),   # past the protocol's own limit
    }
    assert results["long_name"]["params"] == {"max": 24}
    assert results["huge_name"]["params"]["field"] == "name"
    assert claimed == (0, "replaced")
    assert seated == ["ann", "x" * 24, "Bot 1", "Bot 2"]  # nothing taken by the refused


def test_names_and_chat_rules():
    limits = Limits()
    assert name_problem("Zoë Ł", limits) is None
    assert name_problem("a" * 25, limits) == {"max": 24}
    assert name_problem("ann\u200d", limits) == {"reason": "characters"}
    assert name_problem("a\u202eb", limits) == {"reason": "characters"}
    assert name_problem(" ann", limits) == {"reason": "characters"}
    assert name_problem("", limits) == {"max": 24}
    assert chat_problem("x" * 200, limits) is None
    assert chat_problem("x" * 201, limits) == {"max": 200}


def test_token_bucket_and_address_book():
    bucket = TokenBucket(rate=10, burst=5, now=0.0)
    assert [bucket.take(0.0) for _ in range(6)] == [True] * 5 + [False]
    assert bucket.take(0.1) and not bucket.take(0.1)
    book = AddressBook(Limits(per_address=2, guesses=3, guess_window=10))
    assert book.admit("a") and book.admit("a") and not book.admit("a") and book.admit("b")
    book.release("a")
    assert book.admit("a")
    for now in (0.0, 1.0, 2.0):
        assert not book.blocked("a", now)
        book.guessed("a", now)
    assert book.blocked("a", 3.0) and not book.blocked("b", 3.0)
    assert not book.blocked("a", 10.5)  # the first guess has expired
    for _ in range(10_000):
        book.guessed("c", 5.0)
    assert len(book._guesses["c"]) <= 3  # bounded whatever the flood


def test_a_chat_flood_is_refused_then_cut_and_the_table_plays_on():
    async def scenario():
        host, table, port = await start(limits=Limits(strikes=100), seats=3, bots=1, grace=0.1)
        flooder = Raw(*await asyncio.open_connection(LOCAL, port))
        await flooder.hello("flood")
        ann = Client(LOCAL, port, "ann", reconnect=False)
        await ann.connect()
        chats = []
        ann.on_event = lambda event: chats.append(event) if isinstance(event, ChatReceived) \
            else None
        playing = asyncio.ensure_future(play_steadily(ann))
        flooder.send_raw(b"".join(frame({"type": "chat", "text": f"spam {i}"})
                                  for i in range(3000)))
        seen = await flooder.until_closed()
        await playing
        await host.stop()
        return seen, chats, ann, table

    seen, chats, ann, table = run(scenario())
    refused = [m for m in seen if m["type"] == "refused"]
    assert refused and all(m["code"] == "rate_limited" for m in refused)
    assert seen[-1] == {"type": "bye", "code": "rate_limited", "params": {}}
    spam = [c for c in chats if c.text.startswith("spam")]
    assert 1 <= len(spam) <= Limits().chat_burst + 1
    assert ann.bye.code == "session_over" and table.state.phase.value == "session_over"


def test_too_many_connections_long_chat_and_pin_guessing():
    async def scenario():
        limits = Limits(per_address=3, guesses=4)
        host, table, port = await start(limits=limits, pin="77")
        open_ = [await Raw.open(port) for _ in range(3)]
        await wait_until(lambda: host.addresses.open.get(LOCAL) == 3)
        fourth = await Raw.open(port)
        crowded = await fourth.until_closed()
        for raw in open_:
            raw.abort()
        await wait_until(lambda: LOCAL not in host.addresses.open)
        ann = await Raw.open(port)
        welcome = await ann.hello("ann", pin="77")
        ann.send({"type": "chat", "text": "x" * 201})
        long_chat = await ann.receive(lambda m: m["type"] == "refused")
        ann.send({"type": "chat", "text": "hello"})
        echoed = await ann.receive(lambda m: m["type"] == "chat")
        guesses = [(await refusal(port, name="bob", pin=f"{n:02}"))["code"] for n in range(6)]
        blocked = await refusal(port, name="bob", pin="77")  # even the right PIN, for now
        await host.stop()
        return crowded, welcome, long_chat, echoed, guesses, blocked

    crowded, welcome, long_chat, echoed, guesses, blocked = run(scenario())
    assert crowded == [{"type": "refused", "id": None, "code": "too_many_connections",
                        "params": {"max": 3}}]
    assert welcome["type"] == "welcome"
    assert long_chat["code"] == "chat_too_long" and long_chat["params"] == {"max": 200}
    assert echoed["text"] == "hello"
    assert guesses == ["wrong_pin"] * 4 + ["too_many_attempts"] * 2
    assert blocked["code"] == "too_many_attempts"


class Recording(Client):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.frames: list[dict] = []

    async def _join(self):
        count = len(self.frames)
        link, joined = await super()._join()
        # the welcome is not passed to _receive: the one received, rebuilt
        welcome = Welcome(version=PROTOCOL_VERSION, seat=joined.seat, token=self.token,
                          table=joined.table)
        self.frames.insert(count, welcome.to_wire())
        return link, joined

    def _receive(self, msg) -> None:
        self.frames.append(msg.to_wire())
        super()._receive(msg)


def test_a_seat_token_goes_to_its_seat_only_and_hidden_cards_to_nobody_else():
    async def scenario():
        host, table, port = await start(seats=4, bots=1)
        watcher = Recording(LOCAL, port, "eve", spectate=True)
        await watcher.connect()
        players = [Recording(LOCAL, port, name) for name in ("ann", "bob", "cid")]
        for player in players:
            await player.connect()
        await players[1].drop()  # a reconnect: the token is sent again, to bob only
        await asyncio.gather(*(play_steadily(p) for p in players))
        await watcher.wait_for(lambda c: c.status == "closed")
        await host.stop()
        return players, watcher, table

    players, watcher, table = run(scenario())
    tokens = {p.seat: p.token for p in players}
    assert all(t is not None and len(t) == 32 for t in tokens.values())
    assert len(set(tokens.values())) == 3
    for receiver in players + [watcher]:
        packed = [msgpack.packb(m) for m in receiver.frames]
        for seat, token in tokens.items():
            carried = sum(token.encode() in data for data in packed)
            if seat == receiver.seat:
                assert carried >= 1
            else:
                assert carried == 0, (receiver.seat, seat)
        for msg in receiver.frames:
            if msg["type"] in ("state", "view_delta"):  # a whole view, or what changed
                v = msg["view"]
                assert v.get("seat", receiver.seat) == receiver.seat
                if receiver.seat is None:
                    assert v.get("hand", "") == "" and v.get("legal", []) == []
                    assert v.get("tax_mine", []) == []
            if msg["type"] == "event":
                event = msg["event"]
                assert "hands" not in event
                if event["type"] == "deal":
                    assert ("cards" in event) == (receiver.seat is not None)
    assert all(p.bye.code == "session_over" for p in players)

"""Late arrivals: a friend who comes once the game has started takes a bot's seat (one
filled with a bot at the start, or one its player left for good) with its score, and
plays it from the next hand (its bot finishes the hand in play); a table that says
never lets them watch only. Real host on 127.0.0.1."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from netkit import autoplay, wait_until

from president.errors import JoinRefused
from president.net.client import Client
from president.net.discovery import table_properties
from president.net.host import Host
from president.net.table import Table, TableOptions

LOCAL = "127.0.0.1"


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 60))


async def bot_table(**options: Any) -> tuple[Host, Table, int, Client]:
    """Ann and two bots, dealt (every seat taken)."""
    table = Table(TableOptions(name="Kitchen", seats=3, bots=2, ready_timeout=0.05,
                               bot_delay=0.01, grace=600, **options))
    host = Host([table])
    port = await host.start([LOCAL])
    ann = Client(LOCAL, port, "Ann", reconnect=False)
    await ann.connect()
    await ann.wait_for(lambda c: c.view is not None)
    return host, table, port, ann


def test_a_newcomer_takes_a_bots_seat_from_the_next_hand() -> None:
    async def scenario() -> dict[str, Any]:
        host, table, port, ann = await bot_table()
        try:
            advertised = table_properties(table).get("late")
            before = table.state.hand_number
            fay = Client(LOCAL, port, "Fay", reconnect=False)
            await fay.connect()
            seat = fay.seat
            score = table.state.scores[seat]
            await fay.wait_for(lambda c: c.view is not None)
            early = None
            if fay.view.legal:
                early = await fay.act(fay.view.legal[0])
            named = table.state.players[seat]
            playing = asyncio.ensure_future(autoplay(ann, 1))
            await fay.wait_for(lambda c: c.view is not None and c.view.hand_number > before,
                               timeout=30)
            await fay.wait_for(lambda c: c.view.legal != (), timeout=30)
            mine = await fay.act(fay.view.legal[0])
            seen = dict(seat=seat, score=score, named=named, early=early, mine=mine.code,
                        advertised=advertised, late=table.seats[seat].late,
                        bot=table.seats[seat].robot, after=table_properties(table).get("late"))
            playing.cancel()
            await fay.close()
            await ann.close()
            return seen
        finally:
            await host.stop()

    seen = run(scenario())
    assert seen["advertised"] == "1"                 # the lobby learns a seat may be taken
    assert seen["seat"] in (1, 2) and seen["named"] == "Fay"
    assert seen["early"] is None or seen["early"].code == "late_seat"  # its bot finishes
    assert seen["mine"] is None and not seen["late"] and seen["bot"] is None
    assert seen["after"] == "1"                      # the other bot's seat is still there


def test_a_seat_left_for_good_goes_to_a_newcomer_with_its_score() -> None:
    async def scenario() -> tuple[int | None, int, int]:
        table = Table(TableOptions(name="Kitchen", seats=3, ready_timeout=0.05,
                                   bot_delay=0.01, grace=600))
        host = Host([table])
        port = await host.start([LOCAL])
        try:
            clients = [Client(LOCAL, port, name, reconnect=False)
                       for name in ("Ann", "Bea", "Cy")]
            for client in clients:
                await client.connect()
            await clients[0].wait_for(lambda c: c.view is not None)
            await clients[1].close()                 # Bea leaves for good: a bot plays on
            await wait_until(lambda: table.seats[1].left)
            score = table.state.scores[1]
            fay = Client(LOCAL, port, "Fay", reconnect=False)
            await fay.connect()
            seat = fay.seat
            now = table.state.scores[1]
            for client in (fay, clients[0], clients[2]):
                await client.close()
            return seat, score, now
        finally:
            await host.stop()

    seat, score, now = run(scenario())
    assert seat == 1 and now == score


def test_a_table_that_says_never_lets_a_newcomer_watch_only() -> None:
    async def scenario() -> tuple[str, int | None, bool, Any]:
        host, table, port, ann = await bot_table(late_arrivals="never")
        try:
            fay = Client(LOCAL, port, "Fay", reconnect=False)
            with pytest.raises(JoinRefused) as refused:
                await fay.connect()
            watcher = Client(LOCAL, port, "Fay", spectate=True, reconnect=False)
            await watcher.connect()
            await watcher.wait_for(lambda c: c.view is not None)
            hidden = watcher.view.hand == () and watcher.seat is None
            late = table_properties(table).get("late")
            await watcher.close()
            await ann.close()
            return refused.value.code, watcher.seat, hidden, late
        finally:
            await host.stop()

    code, seat, hidden, late = run(scenario())
    assert code == "table_full" and seat is None and hidden and late is None


def test_a_table_that_asks_its_owner_first() -> None:
    owner = "ab" * 16

    async def scenario() -> dict[str, Any]:
        host, table, port, ann = await bot_table(late_arrivals="ask", owner_token=owner)
        try:
            await ann.close()
            fay = Client(LOCAL, port, "Fay", reconnect=False)
            with pytest.raises(JoinRefused) as first:
                await fay.connect()
            asked = table.info().late_askers
            seat = table.info().seat_requests[0]
            with pytest.raises(JoinRefused) as again:     # still waiting for the owner
                await Client(LOCAL, port, "Fay", reconnect=False).connect()
            gave = table.request_seat_answer("Fay", True)   # (the console; or the owner)
            fay = Client(LOCAL, port, "Fay", reconnect=False)
            await fay.connect()
            bob = Client(LOCAL, port, "Bob", reconnect=False)
            with pytest.raises(JoinRefused) as bobs:
                await bob.connect()
            table.request_seat_answer("Bob", False)
            with pytest.raises(JoinRefused) as refused:
                await Client(LOCAL, port, "Bob", reconnect=False).connect()
            await fay.close()
            return dict(first=first.value.code, asked=asked, seat=seat, again=again.value.code,
                        gave=gave, fay=fay.seat, bob=bobs.value.code,
                        refused=refused.value.code)
        finally:
            await host.stop()

    seen = run(scenario())
    assert seen["first"] == seen["again"] == "seat_request_sent"
    assert seen["asked"][seen["seat"]] == "Fay" and seen["gave"]
    assert seen["fay"] == seen["seat"]
    assert seen["bob"] == "seat_request_sent" and seen["refused"] == "seat_request_refused"


def test_a_resumed_table_keeps_its_late_arrivals_setting(tmp_path) -> None:
    from president.net.journal import Journal
    from president.net.persist import TableJournal, options_of
    from president.net.table_core import TableCore

    journal = Journal(tmp_path / "j.sqlite3")
    core = TableCore(TableOptions(seats=3, bots=3, seed=1, late_arrivals="never"),
                     TableJournal(journal))
    core.open(0.0)                                   # bots alone: dealt, journaled
    (record,) = journal.sessions()
    assert options_of(record).late_arrivals == "never"
    journal.close()


@pytest.mark.parametrize(("policy", "advertised"), [("take", "1"), ("ask", "ask")])
def test_the_record_says_whether_a_late_arrival_asks_first(policy: str, advertised: str) -> None:
    from president.net.discovery import table_from_record

    async def scenario() -> dict[str, str]:
        host, table, _port, ann = await bot_table(late_arrivals=policy)
        try:
            properties = table_properties(table)
            await ann.close()
            return properties
        finally:
            await host.stop()

    properties = run(scenario())
    assert properties["late"] == advertised
    found = table_from_record("K._president._tcp.local.",
                              {k.encode(): v.encode() for k, v in properties.items()},
                              ["127.0.0.1"], 4242)
    assert found.late_seat and found.late_ask == (policy == "ask") and not found.watch_only


def test_a_resumed_table_shows_the_late_arrivals_name_not_the_bots(tmp_path) -> None:
    from rawpeer import proved_join

    from president.net.journal import Journal
    from president.net.persist import TableJournal, resume_tables
    from president.net.protocol import PROTOCOL_VERSION, Hello
    from president.net.table_core import TableCore

    journal = Journal(tmp_path / "j.sqlite3")
    core = TableCore(TableOptions(seats=3, bots=2, seed=1, late_arrivals="take"),
                     TableJournal(journal))
    core.open(0.0)
    for name in ("Ann", "Fay"):          # Ann starts the table; Fay takes Bot 1's seat late
        hello = Hello(version=PROTOCOL_VERSION, name=name, language="en", share=bytes(65),
                      seat_hint=None, spectate=False, table=None, knock=False)
        core.handle(proved_join(object(), hello, None), 1.0)
    assert core.state is not None and "Fay" in core.state.players
    (resumed,) = resume_tables(journal)
    assert resumed.core.state is not None
    assert resumed.core.state.players == core.state.players
    assert [seat.name for seat in resumed.core.seats] == list(core.state.players)
    journal.close()

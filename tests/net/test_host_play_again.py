"""Play again: at the end of a session the table's owner starts a new one at the same
table with the same players (seats kept, a new seed and deal, scores from the start);
a seat whose player left goes to a bot; the table closes when the owner leaves or does
not play again in time. Real host on 127.0.0.1, journaled."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any

from netkit import autoplay

from president.net.client import Client
from president.net.host import Host
from president.net.journal import Journal
from president.net.persist import TableJournal
from president.net.table import Table, TableOptions
from president.rules import HouseRules

LOCAL = "127.0.0.1"
ONE_HAND = HouseRules(session_length=1)


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def over(client: Client) -> bool:
    return client.view is not None and client.view.phase == "session_over"


async def a_table(owner: str, again_wait: float, journal: Journal | None = None,
                  ) -> tuple[Host, Table, list[Client]]:
    """Anna (the owner), Bea and Cy and a bot: every seat taken, dealt."""
    table = Table(TableOptions(name="Kitchen", seats=4, bots=1, rules=ONE_HAND, seed=5,
                               ready_timeout=0, bot_delay=0, owner_token=owner,
                               again_wait=again_wait),
                  journal=TableJournal(journal) if journal is not None else None)
    host = Host([table])
    port = await host.start([LOCAL])
    players = [Client(LOCAL, port, name, token=owner if name == "Anna" else None,
                      reconnect=False) for name in ("Anna", "Bea", "Cy")]
    for client in players:
        await client.connect()
    return host, table, players


async def a_finished_session(owner: str, again_wait: float, journal: Journal | None = None,
                             ) -> tuple[Host, Table, list[Client]]:
    """They play the one-hand session to its end."""
    host, table, players = await a_table(owner, again_wait, journal)
    await asyncio.gather(*(autoplay(c, n, until=over) for n, c in enumerate(players)))
    return host, table, players


def test_the_owner_plays_again_with_the_same_players_in_the_same_seats(tmp_path: Path) -> None:
    owner = secrets.token_hex(16)
    journal = Journal(tmp_path / "journal.sqlite3")

    async def scenario() -> dict[str, Any]:
        host, table, (anna, bea, cy) = await a_finished_session(owner, 60, journal)
        try:
            await bea.wait_for(lambda c: c.table is not None and c.table.again)
            seen: dict[str, Any] = {"first_seed": table.seed, "seats": (anna.seat, bea.seat),
                                    "cy": cy.seat, "first_scores": bea.view.scores}
            seen["guest"] = await bea.play_again()
            await cy.close()                                    # Cy goes home
            await bea.wait_for(lambda c: c.table.states[cy.seat] == "left")
            seen["owner"] = await anna.play_again()
            await bea.wait_for(lambda c: c.view.phase != "session_over")
            seen["view"], seen["info"] = bea.view, bea.table
            seen["again"] = await anna.play_again()          # the new session is not over
            seen["table"] = table
            return seen
        finally:
            await host.stop()

    seen = run(scenario())
    assert seen["guest"].code == "not_owner"
    assert seen["owner"].accepted and seen["again"].code == "session_not_over"
    view, info, table = seen["view"], seen["info"], seen["table"]
    assert view.hand_number == 1 and set(view.scores) == {0}       # scores from the start
    assert any(seen["first_scores"])                                # ... which they were not
    assert (table.seats[seen["seats"][0]].name, table.seats[seen["seats"][1]].name) == (
        "Anna", "Bea")                                              # the same seats
    assert info.players[seen["cy"]] == "Bot 2" and info.states[seen["cy"]] == "bot"
    assert not info.again and info.started and not info.over
    assert table.seed != seen["first_seed"]                         # a new deal
    sessions = journal.sessions()
    assert len(sessions) == 2 and [s.finished for s in sessions] == [True, False]
    assert sessions[1].players[seen["cy"]] == "Bot 2"


def test_a_finished_session_closes_when_its_owner_leaves() -> None:
    owner = secrets.token_hex(16)

    async def scenario() -> tuple[bool, str | None]:
        host, table, (anna, bea, _) = await a_finished_session(owner, 60)
        try:
            await bea.wait_for(lambda c: c.table is not None and c.table.again)
            waiting = not table.over
            await anna.close()
            await bea.wait_for(lambda c: c.status == "closed")
            return waiting, bea.bye.code if bea.bye else None
        finally:
            await host.stop()

    assert run(scenario()) == (True, "session_over")


def test_a_session_whose_owner_left_during_it_closes_at_its_end() -> None:
    async def scenario() -> tuple[bool, str | None]:
        host, table, (anna, bea, cy) = await a_table(secrets.token_hex(16), 60)
        try:
            await bea.wait_for(lambda c: c.view is not None)
            await anna.close()                      # a bot plays on for the owner
            await asyncio.gather(autoplay(bea, 1), autoplay(cy, 2))     # to the end
            return table.over, bea.bye.code if bea.bye else None
        finally:
            await host.stop()

    assert run(scenario()) == (True, "session_over")


def test_a_finished_session_closes_when_nobody_plays_again_in_time() -> None:
    async def scenario() -> tuple[bool, str | None]:
        host, table, (_, bea, _) = await a_finished_session(secrets.token_hex(16), 0.3)
        try:
            await bea.wait_for(lambda c: c.status == "closed")
            return table.over, bea.bye.code if bea.bye else None
        finally:
            await host.stop()

    assert run(scenario()) == (True, "session_over")


def test_without_a_wait_the_table_closes_at_the_end_as_before() -> None:
    async def scenario() -> tuple[bool, bool]:
        host, table, (_, bea, _) = await a_finished_session(secrets.token_hex(16), 0)
        try:
            await bea.wait_for(lambda c: c.status == "closed")
            return table.over, bool(bea.table and bea.table.again)
        finally:
            await host.stop()

    assert run(scenario()) == (True, False)

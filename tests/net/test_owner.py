"""One owner: only the player who opened the table (its seat token given out before
they join), or the host's console, may start early; a guest's start is refused with
the reason, and the table waits for its friends. Real host on 127.0.0.1."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from president.errors import JoinRefused
from president.net.client import Client
from president.net.host import Host
from president.net.table import Table, TableOptions

LOCAL = "127.0.0.1"


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 30))


async def open_table(owner: str | None) -> tuple[Host, Table, int]:
    table = Table(TableOptions(name="Kitchen", seats=4, ready_timeout=0, owner_token=owner))
    host = Host([table])
    return host, table, await host.start([LOCAL])


def test_a_guests_early_start_is_refused_and_the_owners_is_accepted() -> None:
    owner = secrets.token_hex(16)

    async def scenario() -> tuple[Any, bool, Any, bool, int | None, int | None]:
        host, table, port = await open_table(owner)
        try:
            anna = Client(LOCAL, port, "Anna", token=owner, reconnect=False)
            await anna.connect()
            guest = Client(LOCAL, port, "Guest", reconnect=False)
            await guest.connect()
            refused = await guest.start()
            started_by_guest = table.started
            accepted = await anna.start()
            await asyncio.sleep(0.05)
            return (refused, started_by_guest, accepted, table.started, anna.seat,
                    guest.seat)
        finally:
            await host.stop()

    refused, started_by_guest, accepted, started, anna, guest = run(scenario())
    assert refused.code == "owner_only" and not started_by_guest
    assert accepted.code is None and started
    assert (anna, guest) == (0, 1)


def test_without_an_owner_only_the_hosts_console_starts() -> None:
    async def scenario() -> tuple[Any, bool, bool]:
        host, table, port = await open_table(None)
        try:
            guest = Client(LOCAL, port, "Guest", reconnect=False)
            await guest.connect()
            refused = await guest.start()
            before = table.started
            table.request_start()       # the console's `start`
            for _ in range(100):
                if table.started:
                    break
                await asyncio.sleep(0.01)
            return refused, before, table.started
        finally:
            await host.stop()

    refused, before, after = run(scenario())
    assert refused.code == "owner_only" and not before and after


def test_the_owner_token_is_not_a_seat_anyone_can_guess() -> None:
    async def scenario() -> str | None:
        host, _, port = await open_table(secrets.token_hex(16))
        try:
            forged = Client(LOCAL, port, "Mallory", token="0" * 32, reconnect=False)
            try:
                await forged.connect()
            except Exception as error:  # noqa: BLE001 - the refusal is what we look at
                return getattr(error, "code", None)
            return None
        finally:
            await host.stop()

    assert run(scenario()) == "bad_token"


def test_only_the_owner_ends_the_session_and_everyone_gets_the_standings() -> None:
    owner = secrets.token_hex(16)

    async def scenario() -> tuple[Any, Any, Any, Any]:
        host, table, port = await open_table(owner)
        try:
            anna = Client(LOCAL, port, "Anna", token=owner, reconnect=False)
            guest = Client(LOCAL, port, "Guest", reconnect=False)
            for client in (anna, guest):
                await client.connect()
            await anna.start()
            await guest.wait_for(lambda c: c.view is not None)
            refused = await guest.end_session()
            still_on = not table.core._stop_requested
            accepted = await anna.end_session()
            return refused, still_on, accepted, table.core._stop_requested
        finally:
            await host.stop()

    refused, still_on, accepted, stopping = run(scenario())
    assert refused.code == "not_owner" and still_on
    assert accepted.code is None and stopping     # the hand in play ends the session


async def a_started_table(owner: str) -> tuple[Host, Table, int, Client, Client]:
    table = Table(TableOptions(name="Kitchen", seats=3, bots=1, ready_timeout=0,
                               owner_token=owner, grace=3600, bot_delay=3600))
    host = Host([table])
    port = await host.start([LOCAL])
    anna = Client(LOCAL, port, "Anna", token=owner, reconnect=False)
    bea = Client(LOCAL, port, "Bea", reconnect=False)
    for client in (anna, bea):
        await client.connect()
    await bea.wait_for(lambda c: c.view is not None)
    return host, table, port, anna, bea


def test_a_seat_asked_for_by_name_is_given_by_the_owner_with_a_new_token() -> None:
    """Bea's phone died: from another device, without the token, she asks for her seat
    by name; the owner gives it; the old token no longer works."""
    owner = secrets.token_hex(16)

    async def scenario() -> tuple[Any, ...]:
        host, table, port, anna, bea = await a_started_table(owner)
        try:
            seat, old_token, hand = bea.seat, bea.token, bea.view.hand
            await bea.drop()
            await anna.wait_for(lambda c: c.table.states[seat] == "disconnected")
            laptop = Client(LOCAL, port, "bea", reconnect=False)   # the same name, any case
            with pytest.raises(JoinRefused) as asked:
                await laptop.connect()
            await anna.wait_for(lambda c: c.table.seat_requests == (seat,))
            given = await anna.answer_seat_request(seat, True)
            back = Client(LOCAL, port, "bea", reconnect=False)
            await back.connect()
            await back.wait_for(lambda c: c.view is not None)
            stale = Client(LOCAL, port, "Bea", token=old_token, reconnect=False)
            with pytest.raises(JoinRefused) as old:
                await stale.connect()
            return (asked.value.code, given.code, back.seat == seat,
                    back.view.hand == hand, back.token != old_token, old.value.code,
                    anna.table.seat_requests, table.seats[seat].state)
        finally:
            await host.stop()

    (asked, given, same_seat, same_hand, new_token, old, pending, state) = run(scenario())
    assert asked == "seat_request_sent" and given is None
    assert same_seat and same_hand and new_token and old == "bad_token"
    assert pending == () and state == "playing"


def test_a_refused_seat_request_is_final_and_only_the_owner_answers() -> None:
    owner = secrets.token_hex(16)

    async def scenario() -> tuple[Any, ...]:
        host, table, port, anna, bea = await a_started_table(owner)
        try:
            seat = bea.seat
            await bea.close()                       # left for good: a bot plays on
            impostor = Client(LOCAL, port, "Bea", reconnect=False)
            with pytest.raises(JoinRefused):
                await impostor.connect()
            await anna.wait_for(lambda c: c.table.seat_requests == (seat,))
            watcher = Client(LOCAL, port, "Watcher", spectate=True, reconnect=False)
            await watcher.connect()
            not_owner = await watcher.answer_seat_request(seat, True)
            refused = await anna.answer_seat_request(seat, False)
            with pytest.raises(JoinRefused) as final:
                await impostor.connect()
            return not_owner.code, refused.code, final.value.code, table.seats[seat].state
        finally:
            await host.stop()

    not_owner, refused, final, state = run(scenario())
    assert not_owner == "not_owner" and refused is None
    assert final == "seat_request_refused" and state == "left"


def test_the_owner_changes_the_rules_before_the_first_deal_only() -> None:
    from dataclasses import replace

    from president.rules import PRESETS

    owner = secrets.token_hex(16)
    capitalism = replace(PRESETS["capitalism"], session_length=3)

    async def scenario() -> tuple[Any, ...]:
        host, table, port = await open_table(owner)          # 4 seats
        try:
            anna = Client(LOCAL, port, "Anna", token=owner, reconnect=False)
            guest = Client(LOCAL, port, "Guest", reconnect=False)
            for client in (anna, guest):
                await client.connect()
            by_guest = await guest.change_rules("bga", PRESETS["bga"])
            changed = await anna.change_rules("capitalism", capitalism)
            await guest.wait_for(lambda c: c.table.preset == "capitalism")
            seen = guest.table.rules
            await anna.start()
            await guest.wait_for(lambda c: c.view is not None)
            too_late = await anna.change_rules("classic", PRESETS["classic"])
            return by_guest.code, changed.code, seen, table.state.rules, too_late.code
        finally:
            await host.stop()

    by_guest, changed, seen, playing, too_late = run(scenario())
    assert by_guest == "not_owner" and changed is None
    assert seen == capitalism and playing == capitalism
    assert too_late == "already_started"


def test_rules_that_do_not_seat_the_table_are_refused() -> None:
    from dataclasses import replace

    from president.rules import PRESETS

    owner = secrets.token_hex(16)

    async def scenario() -> tuple[Any, Any]:
        host, table, port = await open_table(owner)          # 4 seats
        try:
            anna = Client(LOCAL, port, "Anna", token=owner, reconnect=False)
            await anna.connect()
            reply = await anna.change_rules("classic", replace(PRESETS["classic"],
                                                               min_players=5))
            return reply, table.rules
        finally:
            await host.stop()

    reply, rules = run(scenario())
    assert reply.code == "bad_player_count" and reply.params["value"] == 4
    assert rules == PRESETS["classic"]


def test_past_the_pin_budget_a_guest_knocks_and_the_owner_lets_them_in() -> None:
    """Over TCP: the PIN budget spent, Fay's PIN is not even tried; her knock (the empty
    password under its own label) reaches the owner, who lets her in."""
    owner = secrets.token_hex(16)

    async def scenario() -> tuple[Any, ...]:
        table = Table(TableOptions(name="Kitchen", seats=3, ready_timeout=0, owner_token=owner,
                                   pin="1234"))
        host = Host([table])
        port = await host.start([LOCAL])
        try:
            anna = Client(LOCAL, port, "Anna", token=owner, reconnect=False)
            await anna.connect()
            now = asyncio.get_running_loop().time()
            while table.pin_guard.allows(now):
                table.pin_guard.failed(now)
            with pytest.raises(JoinRefused) as spent:
                await Client(LOCAL, port, "Fay", pin="1234", reconnect=False).connect()
            with pytest.raises(JoinRefused) as asked:
                await Client(LOCAL, port, "Fay", knock=True, reconnect=False).connect()
            await anna.wait_for(lambda c: c.table.late_askers[1:2] == ("Fay",))
            given = await anna.answer_seat_request(1, True)
            fay = Client(LOCAL, port, "Fay", knock=True, reconnect=False)
            await fay.connect()
            return spent.value.code, asked.value.code, given.code, fay.seat, table.seats[1].name
        finally:
            await host.stop()

    spent, asked, given, seat, name = run(scenario())
    assert spent == "too_many_attempts" and asked == "seat_request_sent"
    assert given is None and seat == 1 and name == "Fay"

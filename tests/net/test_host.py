"""The host over real TCP on 127.0.0.1 (port 0): sessions, refusals, reconnects, slow peers."""

from __future__ import annotations

import asyncio
import socket

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from netkit import (
    Raw,
    Recorder,
    autoplay,
    check_no_hidden_cards,
    run,
    start_table,
    wait_until,
    wants_to_act,
)

from president.actions import GiveBack, Pass, Play, Ready
from president.errors import JoinRefused
from president.net.client import Client
from president.net.host import Outbox
from president.net.protocol import HOST, Decoder
from president.net.session import ChatReceived
from president.rules import PRESETS, HouseRules, preset
from president.state import Phase

LOCAL = "127.0.0.1"


async def raw_play(client: Client, cards: str):
    """A play whose cards are not cards (the client's own code never sends one)."""
    from president.net.protocol import PlayRequest

    request_id, data = client.session.ask(lambda i: PlayRequest(id=i, cards=cards))
    client._link.write(data)
    future = asyncio.get_running_loop().create_future()
    client._replies[request_id] = future
    return await asyncio.wait_for(future, 10)


def rules(name: str = "classic", **changes) -> HouseRules:
    return HouseRules.from_dict({"session_end": "hands", "session_length": 3, **changes},
                                preset(name))


# ---------------------------------------------------------------- whole sessions


@pytest.mark.parametrize("preset_name, seed", [
    ("classic", 1), ("polish", 2), ("bga", 3), ("daihinmin", 4), ("daihinmin_local", 5),
])
def test_clients_and_bots_play_whole_sessions_and_never_see_hidden_cards(preset_name, seed):
    """Also the property test: every frame to every seat and to a spectator is decoded
    and checked for another seat's cards."""
    async def scenario():
        seats = max(4, PRESETS[preset_name].min_players)
        host, table, port = await start_table(
            rules=rules(preset_name), preset=preset_name, seats=seats, bots=seats - 3,
            seed=seed)
        watcher = Recorder(LOCAL, port, "Watcher", spectate=True)
        await watcher.connect()
        players = [Recorder(LOCAL, port, f"p{i}") for i in range(3)]
        for player in players:
            await player.connect()
        refusals = await asyncio.gather(*(autoplay(p, seed * 10 + i)
                                          for i, p in enumerate(players)))
        await watcher.wait_for(lambda c: c.status == "closed")
        await host.stop()
        return table, players, watcher, refusals

    table, players, watcher, refusals = run(scenario())
    assert table.state.phase is Phase.SESSION_OVER and table.state.hand_number >= 1
    for player in players + [watcher]:
        assert player.bye.code == "session_over" and player.bye.params == {}
        assert player.view.phase == "session_over"
        assert player.view.scores == table.state.scores
        assert any(m["type"] == "event" and m["event"]["type"] == "session_end"
                   for m in player.frames)
        assert player.gaps == 0
    assert sorted(p.seat for p in players) == [0, 1, 2]
    for player in players:
        assert check_no_hidden_cards(player.frames, player.seat) > 20
    assert check_no_hidden_cards(watcher.frames, None) > 20
    assert all(len(r) <= 3 for r in refusals)  # stale views aside, random legal play is accepted


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(3, 6),
       tax=st.sampled_from(["2-1", "1", "3-2-1"]), jokers=st.sampled_from([0, 1, 2]),
       decks=st.sampled_from(["auto", 1, 2]), humans=st.integers(1, 3))
def test_property_no_frame_to_a_seat_holds_another_seats_cards(seed, seats, tax, jokers,
                                                              decks, humans):
    table_rules = rules(tax=tax, jokers=jokers, decks=decks, session_length=2)

    async def scenario():
        host, table, port = await start_table(
            rules=table_rules, seats=seats, bots=seats - humans, seed=seed)
        watcher = Recorder(LOCAL, port, "Watcher", spectate=True)
        await watcher.connect()
        players = [Recorder(LOCAL, port, f"p{i}") for i in range(humans)]
        for player in players:
            await player.connect()
        await asyncio.gather(*(autoplay(p, seed + i) for i, p in enumerate(players)))
        await watcher.wait_for(lambda c: c.status == "closed")
        await host.stop()
        return players, watcher

    players, watcher = run(scenario())
    for player in players:
        assert player.bye.code == "session_over"
        assert check_no_hidden_cards(player.frames, player.seat) > 0
    assert check_no_hidden_cards(watcher.frames, None) > 0


def test_the_hidden_card_check_catches_a_leak():
    frames = [
        {"type": "event", "seq": 1, "event": {"type": "deal", "hand": 1, "cards": "3C 4D"}},
        {"type": "state", "seq": 2, "view": {"seat": 0, "hand": "3C 4D 5H", "counts": [3],
                                             "pile": [], "legal": []}},
    ]
    with pytest.raises(AssertionError):
        check_no_hidden_cards(frames, 0)


# ---------------------------------------------------------------- refusals


async def four_humans(**options):
    host, table, port = await start_table(seats=4, rules=rules(), **options)
    clients = [Client(LOCAL, port, f"p{i}", reconnect=False) for i in range(4)]
    for client in clients:
        await client.connect()
    await asyncio.gather(*(c.wait_for(lambda c: c.view is not None) for c in clients))
    return host, table, port, clients


def test_illegal_and_out_of_turn_actions_are_refused_and_change_nothing():
    async def scenario():
        host, table, port, clients = await four_humans()
        state = table.state
        assert state.phase is Phase.PLAY
        mover = clients[state.turn]
        other = next(c for c in clients if c.seat != state.turn)
        replies = {
            "not_your_turn": await other.act(Play(other.seat, other.view.hand[:1])),
            "must_lead": await mover.act(Pass(mover.seat)),
            "not_in_hand": await mover.act(Play(mover.seat, other.view.hand[:1])),
            "wrong_phase": await mover.act(GiveBack(mover.seat, ())),
            "bad_cards": await raw_play(mover, "ZZ 1X"),
            "already_ready": None,
        }
        del replies["already_ready"]
        unchanged = table.state is state and table.version == 0
        good = await mover.act(Play(mover.seat, mover.view.hand[:1]))
        await host.stop()
        return replies, unchanged, good, table

    replies, unchanged, good, table = run(scenario())
    for code, reply in replies.items():
        assert not reply.accepted and reply.code == code, (code, reply)
    assert unchanged
    assert good.accepted and table.version == 1


def test_spectators_and_early_actions_are_refused():
    async def scenario():
        host, table, port = await start_table(seats=4, rules=rules(), owner_token="a" * 32)
        early = Client(LOCAL, port, "early", token="a" * 32, reconnect=False)  # the owner
        await early.connect()
        before = await early.act(Pass(0))
        watcher = Client(LOCAL, port, "watcher", spectate=True, reconnect=False)
        await watcher.connect()
        spectating = await watcher.act(Ready(0))
        start_by_watcher = await watcher.start()
        started = await early.start()
        await early.wait_for(lambda c: c.view is not None)
        again = await early.start()
        info = early.table
        await host.stop()
        return before, spectating, start_by_watcher, started, again, info, table

    before, spectating, by_watcher, started, again, info, table = run(scenario())
    assert before.code == "not_started"
    assert spectating.code == "spectator"
    assert by_watcher.code == "spectator"
    assert started.accepted
    assert again.code == "already_started"
    assert info.started and info.bots == (False, True, True, True)
    assert table.state.players[0] == "early"


def test_handshake_refusals():
    async def scenario():
        # (a table that takes no late arrival: with a bot's seat to take, a newcomer would
        # sit down; tests/net/test_late_arrivals.py)
        host, table, port = await start_table(seats=3, bots=1, rules=rules(), pin="4321",
                                              late_arrivals="never")
        results = {}

        async def refusal(**kwargs):
            client = Client(LOCAL, port, kwargs.pop("name", "x"), reconnect=False, **kwargs)
            try:
                await client.connect()
            except JoinRefused as error:
                return error.code
            return "welcome"

        results["no_pin"] = await refusal()
        results["wrong_pin"] = await refusal(pin="0000")
        first = Client(LOCAL, port, "first", pin="4321", reconnect=False)
        await first.connect()
        results["forged_token"] = await refusal(pin="4321", token="ab" * 16)
        results["live_seat"] = await refusal(pin="4321", token=first.token)
        second = Client(LOCAL, port, "second", pin="4321", reconnect=False)
        await second.connect()  # the table is now full and starts
        results["full"] = await refusal(pin="4321")
        results["watch"] = await refusal(pin="4321", spectate=True)
        raw = await Raw.open(port)
        results["version"] = (await raw.hello(version=99))["code"]
        await raw.closed()
        await host.stop()
        return results, first, second

    results, first, second = run(scenario())
    assert results == {
        "no_pin": "wrong_pin", "wrong_pin": "wrong_pin", "forged_token": "bad_token",
        "live_seat": "welcome", "full": "table_full", "watch": "welcome",
        "version": "bad_version",
    }
    assert (first.seat, second.seat) == (0, 1)
    assert first.token != second.token and len(first.token) == 32


def test_a_client_cannot_act_for_another_seat_and_bad_frames_close_only_it():
    async def scenario():
        host, table, port = await start_table(seats=4, bots=2, rules=rules(), grace=0.01)
        honest = Recorder(LOCAL, port, "honest", reconnect=False)
        await honest.connect()
        cheat = await Raw.open(port)
        welcome = await cheat.hello("cheat")
        await wait_until(lambda: table.started)
        # Another seat's action: the seat field is not part of the protocol.
        cheat.send_obj({"type": "pass", "id": 1, "seat": honest.seat})
        bye = await cheat.receive(lambda m: m["type"] == "bye")
        await cheat.closed()
        garbage = await Raw.open(port)
        assert (await garbage.hello("garbage", spectate=True))["type"] == "welcome"
        garbage.send_raw(b"\x00\x00\x00\x05\xc1\xc1\xc1\xc1\xc1")
        garbage_bye = await garbage.receive(lambda m: m["type"] == "bye")
        await garbage.closed()
        oversized = await Raw.open(port)
        oversized.send_raw(b"\x7f\xff\xff\xff")
        too_large = await oversized.receive(lambda m: m["type"] == "refused")
        await oversized.closed()
        await autoplay(honest, 5)
        await host.stop()
        return welcome, bye, garbage_bye, too_large, honest, table

    welcome, bye, garbage_bye, too_large, honest, table = run(scenario())
    assert welcome["type"] == "welcome"
    assert (bye["code"], bye["params"]["field"]) == ("unknown_field", "seat")
    assert garbage_bye["code"] == "bad_msgpack"
    assert too_large["code"] == "frame_too_large"
    assert honest.bye.code == "session_over"
    assert table.state.phase is Phase.SESSION_OVER
    cheat_seat = welcome["seat"]
    assert table.seats[cheat_seat].standin is not None  # a bot finished the cheat's hands


# ---------------------------------------------------------------- reconnect


def test_drop_and_return_with_the_token_gets_seat_and_hand_back():
    async def scenario():
        host, table, port = await start_table(seats=3, bots=2, rules=rules(), grace=60)
        ada = Client(LOCAL, port, "Ada")
        await ada.connect()
        await ada.wait_for(lambda c: c.view is not None)
        seat, token = ada.seat, ada.token
        await ada.drop()
        await wait_until(lambda: table.seats[seat].conn is None)
        hand_while_away = table.state.hands[seat]
        # The client comes back by itself, with its token.
        await ada.wait_for(lambda c: c.status == "connected" and c.view is not None
                           and table.seats[seat].conn is not None)
        first = (ada.seat, ada.view.hand, table.state.hands[seat], hand_while_away)
        # A fresh client (laptop restarted) with the saved token.
        await ada.drop()
        ada.reconnect = False
        await wait_until(lambda: table.seats[seat].conn is None)
        again = Client(LOCAL, port, "Ada", token=token)
        await again.connect()
        await again.wait_for(lambda c: c.view is not None)
        second = (again.seat, again.view.hand, table.state.hands[seat])
        await autoplay(again, 1)
        await host.stop()
        return first, second, again, table, seat

    first, second, again, table, seat = run(scenario())
    assert first[0] == seat and first[1] == first[2] == first[3]
    assert first[2], "the hand was not empty"
    assert second[0] == seat and second[1] == second[2]
    assert again.bye.code == "session_over"
    assert table.seats[seat].standin is None


def test_a_bot_plays_for_an_absent_seat_after_the_grace_and_gives_it_back():
    async def scenario():
        host, table, port = await start_table(
            seats=3, bots=2, rules=rules(session_length=20), grace=0.01)
        bea = Client(LOCAL, port, "Bea", reconnect=False)
        await bea.connect()
        await bea.wait_for(lambda c: c.view is not None)
        seat, token = bea.seat, bea.token
        await bea.drop()
        version = table.version
        # The stand-in plays: the seat's card count goes down while it is away.
        start_count = len(table.state.hands[seat])
        await wait_until(lambda: table.seats[seat].standin is not None)
        await wait_until(lambda: table.state.phase is Phase.SESSION_OVER
                         or (table.state.hand_number == 1
                             and len(table.state.hands[seat]) < start_count)
                         or table.state.hand_number > 1)
        played = table.version > version
        over = table.state.phase is Phase.SESSION_OVER
        back = None
        if not over:
            back = Client(LOCAL, port, "Bea", token=token, reconnect=False)
            await back.connect()
            await back.wait_for(lambda c: c.view is not None)
        info = table.info()
        await host.stop()
        return played, over, back, info, seat

    played, over, back, info, seat = run(scenario())
    assert played and not over
    assert back.seat == seat and info.bots[seat] is False and info.connected[seat]


def test_everyone_sees_a_seat_away_left_or_back_and_who_played_for_it():
    """Seat states in the table info (disconnected, away, left, playing), the stand-in's
    moves marked ``by`` in every event frame, and its hands counted for the standings."""
    async def scenario():
        host, table, port = await start_table(
            seats=3, bots=1, rules=rules(session_length=20), grace=0.01, bot_delay=0.001)
        bea = Client(LOCAL, port, "Bea", reconnect=False)
        cy = Client(LOCAL, port, "Cy", reconnect=False)
        watcher = Recorder(LOCAL, port, "watch", spectate=True, reconnect=False)
        for client in (bea, cy, watcher):
            await client.connect()
        await bea.wait_for(lambda c: c.view is not None)
        playing = table.info().states
        seat, token = bea.seat, bea.token
        await bea.drop()
        await watcher.wait_for(lambda c: c.table.states[seat] == "away")
        await watcher.wait_for(lambda c: any(
            m["type"] == "event" and m["by"] == "standin" for m in c.frames))
        back = Client(LOCAL, port, "Bea", token=token, reconnect=False)
        await back.connect()
        await watcher.wait_for(lambda c: c.table.states[seat] == "playing")
        await cy.close()
        await watcher.wait_for(lambda c: c.table.states[cy.seat] == "left")
        info = table.info()
        await host.stop()
        return playing, watcher, seat, info, cy.seat

    playing, watcher, seat, info, cy_seat = run(scenario())
    assert sorted(playing) == ["bot", "playing", "playing"]
    seen = [m["table"]["states"][seat] for m in watcher.frames if m["type"] == "table"]
    assert "disconnected" in seen and seen.index("disconnected") < seen.index("away")
    by = [m for m in watcher.frames if m["type"] == "event" and m["by"]]
    assert by and all(m["by"] == "standin" and m["event"]["seat"] == seat for m in by
                      if m["event"]["seat"] != cy_seat)
    assert info.standin_hands[seat] >= 1 and info.states[cy_seat] == "left"


def test_leaving_before_the_start_frees_the_seat():
    async def scenario():
        host, table, port = await start_table(seats=4, rules=rules())
        one = Client(LOCAL, port, "one", reconnect=False)
        await one.connect()
        await one.close()
        await wait_until(lambda: table.taken == 0)
        two = Client(LOCAL, port, "two", reconnect=False)
        await two.connect()
        await host.stop()
        return two

    assert run(scenario()).seat == 0


# ---------------------------------------------------------------- slow and dead peers


def test_a_client_that_never_reads_does_not_slow_the_others():
    async def scenario():
        host, table, port = await start_table(
            {"out_queue": 32}, seats=4, bots=3, rules=rules(session_length=10))
        stuck = await Raw.open(port, limit=1024)  # its reader stops at 2 KiB unread
        sock = stuck.writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        await stuck.hello("stuck", spectate=True)  # and never reads again
        await wait_until(lambda: any(c.attached for c in host.connections))
        stuck_conn = next(c for c in host.connections if c.attached)
        stuck_conn.writer.transport.set_write_buffer_limits(high=4096)
        stuck_conn.writer.get_extra_info("socket").setsockopt(
            socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        player = Recorder(LOCAL, port, "reader", reconnect=False)
        await player.connect()
        await autoplay(player, 3)
        await host.stop()
        stuck.abort()
        return player, stuck_conn, table

    player, stuck_conn, table = run(scenario(), timeout=60)
    assert player.bye is not None, (player.status, player.frames[-3:], table.state.phase)
    assert player.bye.code == "session_over", player.bye
    assert player.view.phase == "session_over"  # a gap, if any, was repaired
    assert table.state.phase is Phase.SESSION_OVER
    assert stuck_conn.skipped > 0  # frames were skipped for it, never waited for


def test_the_client_asks_for_a_snapshot_after_a_sequence_gap():
    async def scenario():
        host, table, port = await start_table(seats=3, bots=2, rules=rules(), grace=60)
        client = Recorder(LOCAL, port, "gap", reconnect=False)
        await client.connect()
        await client.wait_for(lambda c: c.view is not None)
        # Frames lost as for a full queue: the table spends sequence numbers.
        table.core.projection.seq += 3
        await autoplay(client, 2, until=lambda c: c.gaps > 0 and wants_to_act(c))
        gaps = client.gaps
        await client.wait_for(lambda c: c.frames[-1]["type"] == "state")
        await host.stop()
        return gaps, client

    gaps, client = run(scenario())
    assert gaps == 1
    seqs = [m["seq"] for m in client.frames if "seq" in m]
    assert any(b - a > 1 for a, b in zip(seqs, seqs[1:], strict=False))


def test_heartbeats_drop_a_silent_peer():
    async def scenario():
        host, table, port = await start_table(
            {"heartbeat": 0.02, "timeout": 0.2}, seats=4, rules=rules(), grace=60)
        silent = await Raw.open(port)
        await silent.hello("silent")  # never answers pings
        await wait_until(lambda: table.seats[0].conn is not None)
        await wait_until(lambda: table.seats[0].conn is None)
        frames = await silent.closed()
        await host.stop()
        return frames, table

    frames, table = run(scenario())
    assert any(m["type"] == "ping" for m in frames)
    assert table.seats[0].name == "silent"  # the seat is kept for its return


@pytest.mark.slow
def test_the_host_pings_only_a_peer_that_fell_silent():
    """One heartbeat for all connections: a peer that pings the host (as the clients do)
    hears pongs and no pings; a silent one is pinged, then dropped."""
    async def scenario():
        host, table, port = await start_table(
            {"heartbeat": 0.25, "timeout": 1.0}, seats=4, rules=rules(), grace=60)
        talking, silent = await Raw.open(port), await Raw.open(port)
        await talking.hello("talks")
        await silent.hello("silent")
        # 1.2 s, a ping every 0.02 s: a tenth of the heartbeat, so a loaded machine's
        # stalls do not make the talking peer look silent
        for nonce in range(1, 61):
            talking.send({"type": "ping", "nonce": nonce})
            await asyncio.sleep(0.02)
        received = []                    # everything, up to the last pong
        while not any(m["type"] == "pong" and m["nonce"] == 60 for m in received):
            received.extend(talking.feed(await talking.reader.read(65536)))
        silent_frames = await silent.closed()
        await host.stop()
        return received, silent_frames

    received, silent_frames = run(scenario())
    assert sum(m["type"] == "pong" for m in received) == 60
    assert not any(m["type"] == "ping" for m in received)
    assert sum(m["type"] == "ping" for m in silent_frames) >= 3


# ---------------------------------------------------------------- timers and session end


def test_turn_timer_and_ready_timeout_keep_the_party_going():
    async def scenario():
        host, table, port = await start_table(
            seats=3, bots=2, rules=rules(session_length=2), turn_timer=0.01,
            ready_timeout=0.01, grace=60)
        idle = Recorder(LOCAL, port, "idle", reconnect=False)
        await idle.connect()  # never acts
        await idle.wait_for(lambda c: c.status == "closed", timeout=25)
        await host.stop()
        return idle, table

    idle, table = run(scenario())
    assert idle.bye.code == "session_over" and table.state.hand_number == 2
    plays = [m for m in idle.frames if m["type"] == "event"
             and m["event"]["type"] in ("play", "pass") and m["event"]["seat"] == idle.seat]
    assert plays  # the timer moved for the idle seat
    assert all(m["by"] == "timeout" for m in plays)  # ... and everyone was told
    bots = [m for m in idle.frames if m["type"] == "event"
            and m["event"]["type"] in ("play", "pass") and m["event"]["seat"] != idle.seat]
    assert bots and all(m["by"] == "" for m in bots)  # a bot's own seat: no mention


def test_host_ends_an_open_session_at_the_hand_boundary():
    async def scenario():
        host, table, port = await start_table(
            seats=4, bots=4, rules=rules(session_end="open"), bot_delay=0.001)
        watcher = Recorder(LOCAL, port, "watch", spectate=True, reconnect=False)
        await watcher.connect()
        await wait_until(lambda: table.started and table.state.hand_number >= 2)
        table.request_stop()
        await watcher.wait_for(lambda c: c.status == "closed")
        await host.stop()
        return watcher, table

    watcher, table = run(scenario())
    assert watcher.bye.code == "session_over"
    events = [m["event"] for m in watcher.frames if m["type"] == "event"]
    assert events[-1]["type"] == "session_end"
    assert events[-2]["type"] == "hand_end"  # ended between hands, not mid-trick
    assert table.state.phase is Phase.SESSION_OVER


def test_host_stop_says_bye_to_everyone():
    async def scenario():
        host, table, port = await start_table(seats=4, rules=rules())
        client = Client(LOCAL, port, "c")
        await client.connect()
        await host.stop()
        await client.wait_for(lambda c: c.status == "closed")
        return client

    client = run(scenario())
    assert client.bye.code == "host_stopping"


def test_a_minutes_session_ends_at_the_first_hand_boundary_after_the_time():
    async def scenario():
        host, table, port = await start_table(
            seats=4, bots=4, rules=rules(session_end="minutes", session_length=1),
            bot_delay=0.001)
        watcher = Recorder(LOCAL, port, "watch", spectate=True, reconnect=False)
        await watcher.connect()
        await wait_until(lambda: table.started and table.state.phase is Phase.PLAY)
        table.core._deadline = asyncio.get_running_loop().time()  # the minutes are up
        hand = table.state.hand_number  # mid-hand: the table is in PLAY, no await since
        await watcher.wait_for(lambda c: c.status == "closed")
        await host.stop()
        return watcher, table, hand

    watcher, table, hand = run(scenario())
    events = [m["event"] for m in watcher.frames if m["type"] == "event"]
    assert [e["type"] for e in events[-2:]] == ["hand_end", "session_end"]
    assert events[-2]["hand"] == hand == table.state.hand_number  # this hand is finished
    assert table.state.phase is Phase.SESSION_OVER


def test_two_tables_on_one_host_are_independent():
    async def scenario():
        from president.net.host import Host
        from president.net.table import Table, TableOptions

        tables = [Table(TableOptions(table_id=tid, name=tid, seats=3, bots=2, seed=i,
                                     rules=rules(), ready_timeout=0, grace=60))
                  for i, tid in enumerate(("a", "b"))]
        host = Host(tables)
        port = await host.start([LOCAL])
        players = [Recorder(LOCAL, port, f"p{tid}", table=tid, reconnect=False)
                   for tid in ("a", "b")]
        for player in players:
            await player.connect()
        try:
            await Client(LOCAL, port, "lost", table="zzz", reconnect=False).connect()
            missing = None
        except JoinRefused as error:
            missing = error.code
        vandal = await Raw.open(port)
        await vandal.hello("vandal", table="a", spectate=True)
        vandal.send_raw(b"\x00\x00\x00\x03abc")
        await vandal.closed()
        await asyncio.gather(*(autoplay(p, i) for i, p in enumerate(players)))
        await host.stop()
        return players, missing, tables

    players, missing, tables = run(scenario())
    assert missing == "no_such_table"
    assert [p.table.id for p in players] == ["a", "b"]
    assert all(p.bye.code == "session_over" for p in players)
    assert all(t.state.phase is Phase.SESSION_OVER for t in tables)
    assert tables[0].state.players != tables[1].state.players


def test_the_host_side_can_start_the_table():
    async def scenario():
        host, table, port = await start_table(seats=4, rules=rules())
        ada = Client(LOCAL, port, "Ada", reconnect=False)
        await ada.connect()
        assert not table.started
        table.request_start()
        await ada.wait_for(lambda c: c.view is not None)
        info = ada.table
        await host.stop()
        return table, info

    table, info = run(scenario())
    assert table.state.players == ("Ada", "Bot 1", "Bot 2", "Bot 3")
    assert info.started and info.bots == (False, True, True, True)


def test_chat_reaches_everyone_with_the_writers_name():
    async def scenario():
        host, table, port = await start_table(seats=4, rules=rules())
        chats: dict[str, list] = {"ada": [], "eve": []}

        def heard(name: str):
            def listen(event) -> None:
                if isinstance(event, ChatReceived):
                    chats[name].append(event)
            return listen

        ada = Client(LOCAL, port, "Ada", reconnect=False, on_event=heard("ada"))
        eve = Client(LOCAL, port, "Eve", spectate=True, reconnect=False, on_event=heard("eve"))
        await ada.connect()
        await eve.connect()
        await ada.chat("hello")
        await eve.chat("hi from the sofa")
        for client, name in ((ada, "ada"), (eve, "eve")):
            await client.wait_for(lambda c, name=name: len(chats[name]) >= 2, 10)
        await host.stop()
        return chats

    chats = run(scenario())
    expected = [ChatReceived(0, "Ada", "hello"), ChatReceived(None, "Eve", "hi from the sofa")]
    assert chats["ada"] == expected and chats["eve"] == expected


def test_a_stand_in_plays_at_the_table_level():
    from president.bots import HeuristicBot

    async def scenario():
        host, table, port = await start_table(seats=3, bots=2, bot_kind="easy",
                                              bot_levels=("hard", "medium"), grace=0.01,
                                              bot_delay=0.5)
        bea = Client(LOCAL, port, "Bea", reconnect=False)
        await bea.connect()
        await bea.wait_for(lambda c: c.view is not None)
        seat = bea.seat
        await bea.drop()
        await wait_until(lambda: table.seats[seat].standin is not None)
        standin = table.seats[seat].standin
        levels = [s.level for s in table.seats]
        await host.stop()
        return standin, levels, seat

    standin, levels, seat = run(scenario())
    assert isinstance(standin, HeuristicBot)
    assert levels[seat] is None and sorted(filter(None, levels)) == ["hard", "medium"]


def test_a_connections_outbox_wakes_its_writer_and_keeps_the_order():
    async def scenario():
        box = Outbox()
        with pytest.raises(asyncio.QueueEmpty):
            box.get_nowait()
        waiting = asyncio.ensure_future(box.get())
        await asyncio.sleep(0)
        assert not waiting.done()            # an empty box: the writer waits
        box.put_nowait(b"a")
        box.put_nowait(b"b")
        box.put_nowait(None)
        assert await asyncio.wait_for(waiting, 1) == b"a"
        assert box.qsize() == 2 and not box.empty()
        assert [box.get_nowait(), await box.get()] == [b"b", None] and box.empty()
        cancelled = asyncio.ensure_future(box.get())
        await asyncio.sleep(0)
        cancelled.cancel()                   # a writer cancelled while waiting
        await asyncio.sleep(0)
        box.put_nowait(b"c")
        assert await box.get() == b"c"

    run(scenario())


def test_what_a_step_sends_a_player_goes_in_one_write():
    """The broadcast of an action and its reply are written by the host's flush after
    the table's step: the actor's socket gets them in one write, in order."""
    async def scenario():
        host, table, port = await start_table(seats=3, bots=2, rules=rules(), bot_delay=5)
        client = Recorder(LOCAL, port, "ann", reconnect=False)
        await client.connect()
        await client.wait_for(wants_to_act)
        conn = table.seats[client.seat].conn
        writes, sealed = [], []
        write = conn.writer.write
        conn.writer.write = lambda data: (writes.append(data), write(data))
        sealer = conn.sealer

        class Spy:  # what is sealed, record by record
            def seal(self, data):
                sealed.append(data)
                return sealer.seal(data)

        conn.sealer = Spy()
        legal = [a for a in client.view.legal if isinstance(a, (Play, Pass))]
        reply = await client.act(legal[0])
        await host.stop()
        return reply, writes, sealed

    reply, writes, sealed = run(scenario())
    assert reply.accepted
    assert len(sealed) == len(writes)  # one record a write
    kinds = [m["type"] for m in Decoder(HOST).feed_maps(sealed[0])]
    assert kinds[-2:] == ["view_delta", "accepted"] and set(kinds[:-2]) <= {"event"}

"""7-pass and 10-discard at a hosted table over real TCP on 127.0.0.1 (port 0): the
receiver gets the cards, no one else sees them; a seat that does not choose is moved on."""

from __future__ import annotations

import asyncio

from netkit import Recorder, autoplay, check_no_hidden_cards, run, start_table, whole_views

from president.cards import parse_cards
from president.rules import HouseRules
from president.state import Phase

LOCAL = "127.0.0.1"
RULES = HouseRules(seven_pass=True, ten_discard=True, session_end="hands", session_length=2)


def _events(frames: list[dict], kind: str) -> list[dict]:
    return [m for m in frames if m["type"] == "event" and m["event"]["type"] == kind]


def test_the_receiver_gets_the_passed_cards_and_no_one_else_sees_them():
    async def scenario():
        host, table, port = await start_table(rules=RULES, seats=4, bots=1, seed=11)
        watcher = Recorder(LOCAL, port, "Watcher", spectate=True)
        await watcher.connect()
        players = [Recorder(LOCAL, port, f"p{i}") for i in range(3)]
        for player in players:
            await player.connect()
        await asyncio.gather(*(autoplay(p, 50 + i) for i, p in enumerate(players)))
        await watcher.wait_for(lambda c: c.status == "closed")
        await host.stop()
        return table, players, watcher

    table, players, watcher = run(scenario())
    assert table.state.phase is Phase.SESSION_OVER
    by_seat = {p.seat: p for p in players}
    full = 0
    for player in players:
        assert check_no_hidden_cards(player.frames, player.seat) > 20
        for index, message in enumerate(player.frames):
            if message["type"] != "event" or message["event"]["type"] != "give":
                continue
            event = message["event"]
            if player.seat == event["to"]:  # the receiver sees the cards, then holds them
                full += 1
                cards = parse_cards(event["cards"])
                view = next(v for i, v in whole_views(player.frames) if i > index)
                hand = parse_cards(view["hand"])
                assert all(card in hand for card in cards)
                assert [event["from"], event["to"], event["cards"]] in view["gifts_mine"]
            elif player.seat == event["from"]:
                assert "cards" in event
            else:  # a third seat: how many, never which
                assert "cards" not in event and event["count"] >= 1
    assert check_no_hidden_cards(watcher.frames, None) > 20
    gives = _events(watcher.frames, "give")
    assert gives and all("cards" not in m["event"] for m in gives)
    assert full, "no 7-pass reached a human"
    discards = _events(watcher.frames, "discard")
    assert discards and all(m["event"]["cards"] for m in discards)  # face up
    received = {m["event"]["to"] for m in gives} & set(by_seat)
    assert received


def test_an_idle_seat_is_moved_on_by_the_turn_timer_when_it_must_give():
    async def scenario():
        host, table, port = await start_table(
            seats=3, bots=2, rules=RULES, turn_timer=0.01, ready_timeout=0.01, grace=60,
            seed=3)
        idle = Recorder(LOCAL, port, "idle", reconnect=False)
        await idle.connect()  # never acts
        await idle.wait_for(lambda c: c.status == "closed", timeout=25)
        await host.stop()
        return idle, table

    idle, table = run(scenario())
    assert idle.bye.code == "session_over" and table.state.phase is Phase.SESSION_OVER
    chosen = [m for m in idle.frames if m["type"] == "event"
              and m["event"]["type"] in ("give", "discard")
              and m["event"].get("from", m["event"].get("seat")) == idle.seat]
    assert chosen and all(m["by"] == "timeout" for m in chosen)

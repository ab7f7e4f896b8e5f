"""The plain line interface: commands typed as text play a whole session on a local host."""

from __future__ import annotations

from dataclasses import replace

from netkit import run, wants_to_act

from president.actions import Decree, GiveBack, Pass, Play, Ready
from president.cards import format_cards, parse_cards
from president.cli import netbridge
from president.cli.plain import (
    describe_view,
    parse_command,
    play_plain,
)
from president.cli.text import text_for
from president.engine import new_session
from president.rules import HouseRules
from president.state import Phase, PileEntry
from president.view import view


def test_parse_command():
    assert parse_command("play 7c 7d", 2) == Play(2, parse_cards("7C 7D"))
    assert parse_command("p 10H") == Play(0, parse_cards("10H"))
    assert parse_command("  pass ") == Pass(0)
    assert parse_command("give 4D 3C") == GiveBack(0, parse_cards("3C 4D"))
    assert parse_command("ready") == Ready(0)
    assert parse_command("decree everyone sings") == Decree(0, "everyone sings")
    assert parse_command("say hi all") == "say:hi all"
    assert parse_command("q") == "quit" and parse_command("start") == "start"
    assert parse_command("play") is None and parse_command("dance") is None
    # a wild joker's value
    assert parse_command("play 5c 5d jk as 5h") == Play(0, parse_cards("5C 5D JK"),
                                                        parse_cards("5H"))


def test_a_typed_session_to_the_end():
    lines_out: list[str] = []

    async def scenario():
        rules = HouseRules(session_length=2)
        hosted, connection = await netbridge.local_table(
            "Typist", "en", bots=3, preset="classic", rules=rules, seed=11, bot_delay=0.0)
        host, table, client = hosted, hosted.table, connection.client
        await client.connect()

        async def typing():
            yield "help"
            yield "play ZZ"
            yield "say hello table"
            while True:
                await client.wait_for(lambda c: c.status == "closed" or wants_to_act(c))
                if client.status == "closed":
                    return
                legal = [a for a in client.view.legal if not isinstance(a, Decree)]
                action = legal[0]
                if isinstance(action, Play):
                    yield f"play {format_cards(action.cards)}"
                elif isinstance(action, GiveBack):
                    yield f"give {format_cards(action.cards)}"
                else:
                    yield {Pass: "pass", Ready: "ready"}[type(action)]
                # The next line is asked for only once the host has answered this one.

        code = await play_plain(client, typing(), lines_out.append)
        await host.stop()
        return code, table

    code, table = run(scenario())
    text = "\n".join(lines_out)
    assert code == 0
    assert table.state.phase.value == "session_over"
    assert "!! Those are not valid cards." in text  # bad_cards, in words
    assert "<Typist> hello table" in text
    assert "your hand:" in text and "YOUR TURN" in text
    assert "The session is over." in text and "-- final scores:" in text


def test_the_table_summary_names_players_and_cards():
    state, _ = new_session(HouseRules(), ["Ada", "Bot 1", "Bot 2"], 1)
    state = replace(state, phase=Phase.PLAY, turn=0,
                    hands=(parse_cards("3C 4D 5H"), *state.hands[1:]),
                    pile=(PileEntry(1, parse_cards("7C")),))
    lines = describe_view(view(state, 0), 0)
    assert "   pile: 7C (by Bot 1)" in lines and "   YOUR TURN" in lines
    assert "   your hand: 3C 4D 5H" in lines


def test_the_table_summary_speaks_the_players_language() -> None:
    state, _ = new_session(HouseRules(), ["Ada", "Bot 1", "Bot 2"], 1)
    state = replace(state, phase=Phase.PLAY, turn=0,
                    hands=(parse_cards("3C 4D 5H"), *state.hands[1:]),
                    pile=(PileEntry(1, parse_cards("7C")),))
    lines = describe_view(view(state, 0), 0, text_for("pl"))
    assert lines[0].startswith("-- rozdanie 1 · ")
    assert "   stos: 7C (Bot 1)" in lines and "   TWÓJ RUCH" in lines
    assert "   twoja ręka: 3C 4D 5H" in lines
    polish, english = "\n".join(lines), "\n".join(describe_view(view(state, 0), 0))
    for word in ("hand", "pile", "cards held", "YOUR TURN"):
        assert word in english and word not in polish

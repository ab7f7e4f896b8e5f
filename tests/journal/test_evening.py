"""The night's story from the host's journal: sessions and winners, the longest
President streak, revolutions, the biggest fall and each player's places hand by hand,
in four languages at 80 columns (``president history evening``)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from journal_kit import play_some, start

from president.actions import action_to_dict
from president.cli.commands.history import run
from president.cli.evening import BARS, evening, evening_story, tonight
from president.cli.main import build_parser
from president.cli.text import Text
from president.engine import new_session
from president.net.journal import Journal
from president.rules import PRESETS

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def two_sessions(path, seeds=(3, 4)) -> list[tuple]:
    """Two whole sessions of three hands at one table (random legal moves)."""
    rules = replace(PRESETS["classic"], session_end="hands", session_length=3)
    journal = Journal(path)
    played = []
    for seed in seeds:
        session_id = start(journal, rules, PLAYERS, seed)
        state, _ = new_session(rules, PLAYERS, seed)
        state, taken = play_some(state, 10_000, seed=seed)
        for seq, action in enumerate(taken):
            journal.append(session_id, seq, action_to_dict(action))
        journal.finish(session_id, list(state.scores))
        played.append((session_id, state))
    journal.close()
    return played


def test_the_evening_counts_what_happened(tmp_path) -> None:
    played = two_sessions(tmp_path / "j.sqlite3")
    journal = Journal(tmp_path / "j.sqlite3", read_only=True)
    story = evening(tonight(journal.sessions()), journal.actions)
    journal.close()
    assert [s.id for s in story.sessions] == [session for session, _ in played]
    assert story.hands == 6 and all(len(row) == 6 for row in story.places.values())
    for (_, state), session in zip(played, story.sessions, strict=True):
        assert session.winners == tuple(PLAYERS[s] for s in state.winners)
    firsts = [next(name for name, row in story.places.items() if row[hand][0] == 1)
              for hand in range(6)]
    longest = max(sum(1 for _ in run) for name in PLAYERS
                  for run in _runs(firsts, name))
    assert story.streak is not None and story.streak[1] == longest
    assert firsts.count(story.streak[0]) >= longest
    if story.fall is not None:
        assert story.fall.places >= 1


def _runs(firsts: list[str], name: str) -> list[list[str]]:
    runs: list[list[str]] = [[]]
    for who in firsts:
        if who == name:
            runs[-1].append(who)
        else:
            runs.append([])
    return runs


@pytest.mark.parametrize("language", ["it", "nl", "pl", "en"])
def test_the_evening_is_told_in_the_readers_language_at_80_columns(tmp_path, language) -> None:
    two_sessions(tmp_path / "j.sqlite3")
    out = io.StringIO()
    args = build_parser().parse_args(["--lang", language, "history", "evening", "--journal",
                                      str(tmp_path / "j.sqlite3")])
    assert run(args, out) == 0
    journal = Journal(tmp_path / "j.sqlite3", read_only=True)
    lines = evening_story(journal, Text(language), 79)
    journal.close()
    assert len(lines) <= 22 and all(len(line) <= 79 for line in lines)
    text = "\n".join(lines)
    for name in PLAYERS:
        assert name in text
    assert any(bar in text for bar in BARS)
    words = Text(language).tr
    assert words.gettext("Places hand by hand (high: first, low: last):") in text
    assert language == "en" or "Longest President streak" not in text


def test_history_lists_the_sessions_then_tells_the_evening(tmp_path) -> None:
    played = two_sessions(tmp_path / "j.sqlite3")
    out = io.StringIO()
    args = build_parser().parse_args(["history", "--journal", str(tmp_path / "j.sqlite3")])
    assert run(args, out) == 0
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines[:2]] == [str(s) for s, _ in played]
    assert lines[2] == "" and lines[3] == "Tonight: 2 sessions, 6 hands."
    assert "Places hand by hand (high: first, low: last):" in lines


def test_the_page_tells_the_evening_too(tmp_path) -> None:
    """``/evening/<language>`` on the host's page: the same story as plain text."""
    import asyncio

    import aiohttp

    from president.cli.web import web_server
    from president.net.host import Host
    from president.net.table import Table, TableOptions

    two_sessions(tmp_path / "j.sqlite3")

    async def scenario() -> tuple[int, str, int, str]:
        host = Host([Table(TableOptions(name="Kitchen"))])
        await host.start(["127.0.0.1"])
        web = web_server(host, str(tmp_path / "j.sqlite3"))
        await web.start(["127.0.0.1"])
        try:
            async with aiohttp.ClientSession() as http:
                base = f"http://127.0.0.1:{web.port}/evening"
                async with http.get(f"{base}/pl") as reply:
                    status, body = reply.status, await reply.text()
                    kind = reply.headers["Content-Type"]
                async with http.get(f"{base}/de") as reply:
                    missing = reply.status
            return status, body, missing, kind
        finally:
            await host.stop()
            await web.stop()

    status, body, missing, kind = asyncio.run(scenario())
    journal = Journal(tmp_path / "j.sqlite3", read_only=True)
    expected = evening_story(journal, Text("pl"), 79)
    journal.close()
    assert status == 200 and kind.startswith("text/plain") and "utf-8" in kind
    assert body.splitlines() == expected and any(bar in body for bar in BARS)
    assert missing == 404

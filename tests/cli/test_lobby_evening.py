"""The lobby tells the evening (menu "The evening's story…") from this computer's
journal, at 80x24, in the player's language; Esc goes back."""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest
from cli_fakes import FakeBridge

from president.actions import action_to_dict
from president.bots import RandomBot
from president.cli.terminal.lobby import MENU
from president.engine import apply, legal_actions, new_session
from president.net.journal import Journal
from president.rules import PRESETS
from president.state import Phase
from president.view import view

PLAYERS = ["Ann", "Bob", "Cid"]


def a_session_in_the_journal(seed: int = 2) -> None:
    rules = replace(PRESETS["classic"], session_end="hands", session_length=2)
    journal = Journal(os.environ["PRESIDENT_JOURNAL"])
    seats = [{"kind": "human", "token": f"t{seat}"} for seat in range(len(PLAYERS))]
    session = journal.start_session(table_name="Garden", preset="classic", rules=rules,
                                    players=PLAYERS, seed=seed, seats=seats)
    state, _ = new_session(rules, PLAYERS, seed)
    rng = random.Random(seed)
    bots = [RandomBot(rng.randrange(1000)) for _ in PLAYERS]
    seq = 0
    while state.phase is not Phase.SESSION_OVER:
        seat = next(s for s in state.seats if legal_actions(state, s))
        action = bots[seat].choose(view(state, seat))
        state, _ = apply(state, action)
        journal.append(session, seq, action_to_dict(action))
        seq += 1
    journal.finish(session, list(state.scores))
    journal.close()


@pytest.mark.parametrize("language", ["it", "nl", "pl", "en"])
def test_the_lobby_tells_the_evening(run_ui, language) -> None:
    a_session_in_the_journal()

    async def scenario(d) -> None:
        ui = d.ui
        await d.screen_shows(ui.tr.gettext("The evening's story…"))
        d.keys("\x1b[B" * MENU.index("evening") + "\r")
        await d.until(lambda: ui.lobby.story is not None, "the story")
        screen = await d.screen_shows("Garden")
        assert ui.tr.gettext("Places hand by hand (high: first, low: last):") in screen
        assert all(name in screen for name in PLAYERS)
        d.keys("\x1b")
        await d.until(lambda: ui.lobby.story is None, "the lobby again")
        await d.screen_shows(ui.tr.gettext("Host a table…"))

    run_ui(scenario, bridge=FakeBridge(), language=language)

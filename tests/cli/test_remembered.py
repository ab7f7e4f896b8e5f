"""The person is remembered: the name is asked once and kept (never the login name
"root"), and the set-up screen offers the last table's seats, bots, PIN and rules."""

from __future__ import annotations

import asyncio
import stat
from argparse import Namespace

from cli_fakes import FakeBridge

from president.cli import settings, table_setup
from president.cli.seats import data_dir

UP, DOWN, RIGHT = "\x1b[A", "\x1b[B", "\x1b[C"


def test_the_name_is_asked_once_and_kept(run_ui, monkeypatch) -> None:
    monkeypatch.setattr(settings.getpass, "getuser", lambda: "root")
    assert settings.first_time(Namespace(name=None))
    assert not settings.first_time(Namespace(name="Bea"))      # given: not asked
    started: list[str] = []

    async def game() -> None:
        started.append("game")

    async def scenario(d) -> None:
        d.ui.welcome(game)
        await d.screen_shows("Welcome! Your name:")
        assert d.ui.editor.text == ""                            # not "root"
        d.keys("\r")                                             # nothing typed: asked again
        await asyncio.sleep(0.1)
        assert d.ui.editor is not None and not started
        d.keys("Fay\r")
        await d.until(lambda: started, "the game to start")
        assert d.ui.settings.name == "Fay"

    run_ui(scenario, bridge=FakeBridge())
    assert settings.load().name == "Fay"
    assert not settings.first_time(Namespace(name=None))       # next time: not asked


def test_the_set_up_screen_remembers_the_last_table(run_ui) -> None:
    bridge = FakeBridge()

    async def scenario(d) -> None:
        ui = d.ui
        await d.open_set_up()
        setup = ui.setup
        d.keys(UP * 2 + RIGHT)                                  # bots: 0 -> 1
        await d.until(lambda: setup.bots == 1, "a bot")
        d.keys(DOWN * 2 + "\r")                                 # the PIN row
        await d.screen_shows("PIN (empty: none):")
        d.keys("4321\r")
        await d.until(lambda: setup.pin == "4321", "the PIN")
        d.keys(DOWN + "\ry")                                    # Open the table
        await d.until(lambda: ui.screen == "table" and ui.table.table is not None, "the table")
        d.keys("\x1b")                                          # back to the lobby
        await d.until(lambda: ui.screen == "lobby", "the lobby")
        await d.open_set_up()                                   # the next table
        again = ui.setup
        assert again is not setup
        assert (again.bots, again.pin, again.players, again.levels) == (1, "4321", 3,
                                                                       setup.levels)
        assert again.row == "start"

    run_ui(scenario, bridge=bridge)
    path = data_dir() / table_setup.FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600              # it holds the PIN
    path.write_text("{not json")
    assert table_setup.last() is None                            # no memory, no error

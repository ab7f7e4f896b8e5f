"""Helpers: run the full-screen client on a pipe input and a fixed-size dummy output."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from president.actions import Play
from president.cli import hosting
from president.cli.settings import Settings
from president.cli.terminal.app import PresidentUI

TIMEOUT = 10.0


class SizedOutput(DummyOutput):
    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


def screen_text(ui: PresidentUI) -> str:
    """The last rendered screen as plain text, one line per row."""
    screen = ui.app.renderer.last_rendered_screen
    assert screen is not None, "nothing rendered yet"
    size = ui.app.output.get_size()
    lines = []
    for y in range(size.rows):
        row = screen.data_buffer[y]
        lines.append("".join(row[x].char for x in range(size.columns)).rstrip())
    return "\n".join(lines)


class Driver:
    """Types into a running ``PresidentUI`` and waits for conditions."""

    def __init__(self, ui: PresidentUI, pipe: Any) -> None:
        self.ui, self.pipe = ui, pipe

    def keys(self, text: str) -> None:
        self.pipe.send_text(text)

    async def open_set_up(self) -> None:
        """From the lobby, "Host a table…": the set-up screen."""
        from president.cli.terminal.lobby import MENU

        await self.screen_shows("Host a table")
        self.keys("\x1b[B" * MENU.index("host") + "\r")
        await self.until(lambda: self.ui.screen == "setup", "the set-up screen")

    async def play_the_hand_out(self) -> None:
        """Our lowest legal set (l twice), or a pass, on each of our turns until the
        tricks of the hand are over."""
        table = self.ui.table
        assert table is not None
        while table.phase == "play":
            await self.until(lambda: (table.my_turn and not table.busy)
                             or table.phase != "play", "my turn")
            if table.phase != "play":
                break
            before = table.view
            self.keys("l" if table.legal_of(Play) else "p")
            if table.legal_of(Play):
                await self.until(lambda: table.selected, "a selection")
                self.keys("l")
            await self.until(lambda b=before: table.view is not b, "the table to move on")

    async def until(self, condition: Callable[[], bool], what: str = "") -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while not condition():
            if loop.time() > deadline:
                raise AssertionError(f"timed out waiting for {what}\n{self.safe_screen()}")
            await asyncio.sleep(0.01)

    async def rendered(self) -> str:
        """Render now and return the screen text."""
        self.ui.app.invalidate()
        await asyncio.sleep(0.05)
        self.ui.app._redraw()
        return screen_text(self.ui)

    async def screen_shows(self, text: str) -> str:
        await self.until(lambda: text in self.safe_screen(), repr(text))
        return self.safe_screen()

    def safe_screen(self) -> str:
        try:
            self.ui.app._redraw()
            return screen_text(self.ui)
        except AssertionError:
            return ""


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Zeroconf and hosted tables on 127.0.0.1 only (settings, journal and seat claims are
    in a temporary place for every test: tests/conftest.py); background hosts a test
    opened are stopped after it."""
    monkeypatch.setenv("PRESIDENT_INTERFACES", "127.0.0.1")
    yield
    for table in hosting.my_tables():
        hosting.stop(table, now=True)


@pytest.fixture
def run_ui(tmp_path: Any) -> Callable[..., Any]:
    """``run_ui(scenario, bridge=..., columns=.., rows=..)`` runs ``scenario(driver)``
    inside a live application and returns the UI."""

    def run(scenario: Callable[[Driver], Any], bridge: Any = None, columns: int = 80,
            rows: int = 24, language: str = "en", start: Any = None,
            settings: Settings | None = None) -> PresidentUI:
        async def main() -> PresidentUI:
            with create_pipe_input() as pipe:
                ui = PresidentUI(settings or Settings(name="Tester"), language, input=pipe,
                                 output=SizedOutput(columns, rows), bridge=bridge,
                                 save_settings=None)
                driver = Driver(ui, pipe)

                async def script() -> None:
                    try:
                        await driver.until(lambda: ui.app.is_running, "the app to start")
                        await scenario(driver)
                    finally:
                        ui.quit()

                task = asyncio.ensure_future(script())
                await asyncio.wait_for(ui.run(start(ui) if start else None), 60)
                await task
                return ui

        return asyncio.run(main())

    return run


@pytest.fixture
def tmux(tmp_path: Any) -> Iterator[Any]:
    """A tmux server of the test's own (``test_tmux.Tmux``), killed after it."""
    from test_tmux import Tmux

    session = Tmux(tmp_path)
    yield session
    session.kill()

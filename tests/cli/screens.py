"""Every screen of the full-screen client, built from real engine states and rendered
offline (no event loop, no network) at a chosen size, for the layout tests.

``render(ui)`` draws the current screen into a prompt_toolkit ``Screen`` and returns
the text rows and, per window, the lines its content asked for that did not fit.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import Any

from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import to_formatted_text
from prompt_toolkit.formatted_text.utils import fragment_list_width, split_lines
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Window, walk
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput

from president.actions import Play
from president.bots import make_bot
from president.cards import parse_cards
from president.cli.settings import Settings
from president.cli.terminal.app import PresidentUI
from president.cli.terminal.model import TableModel
from president.engine import apply, new_session
from president.events import Event, project_event
from president.net.discovery import TableInfo as LobbyEntry
from president.net.session import GameEvent, Joined, ViewChanged
from president.net.table import Table, TableOptions
from president.rules import PRESETS, HouseRules
from president.state import Phase, State
from president.view import view

GIVEAWAY = HouseRules(seven_pass=True, ten_discard=True)   # the 7-pass and the 10-discard
NAMES = ("Tester", "Anna", "Bartholomew", "Chiara", "Dirk-Jan", "Ewa", "Francesca", "Grzegorz")


class SizedOutput(DummyOutput):
    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


@dataclass
class Moment:
    """A state of the session and every event before it."""

    state: State
    events: list[Event] = field(default_factory=list)


def moments(players: int, seed: int = 1) -> dict[str, Moment]:
    """``play`` (hand 1 under way), ``tax`` (seat 0 giving back, if a seed gives it),
    ``hand_over`` (the end of hand 1), ``session_over`` (a two-hand session)."""
    rules = replace(PRESETS["classic"], session_end="hands", session_length=2)
    found: dict[str, Moment] = {}
    for attempt in range(40):
        state, events = new_session(rules, NAMES[:players], seed + attempt)
        bots = [make_bot("random", seed * 100 + attempt * 10 + i) for i in range(players)]
        log = list(events)
        moves = 0
        while state.phase.value != "session_over":
            phase = state.phase.value
            if phase == "play" and "play" not in found and moves >= players + 2:
                found["play"] = Moment(state, list(log))
            if phase == "tax" and "tax" not in found and view(state, 0).tax_owed:
                found["tax"] = Moment(state, list(log))
            if phase == "hand_over" and state.hand_number == 1 and "hand_over" not in found:
                found["hand_over"] = Moment(state, list(log))
            for seat in range(players):
                seat_view = view(state, seat)
                if seat_view.legal:
                    state, new = apply(state, bots[seat].choose(seat_view))
                    log.extend(new)
                    moves += 1
                    break
        found.setdefault("session_over", Moment(state, list(log)))
        if "tax" in found:
            return found
    return found


def first_moment(players: int, wanted: Any, seed: int = 1) -> Moment:
    """The first moment of a bots' session where the view of the seat to play is
    ``wanted``."""
    state, events = new_session(PRESETS["classic"], NAMES[:players], seed)
    bots = [make_bot("random", seed * 100 + i) for i in range(players)]
    log = list(events)
    while state.phase.value != "session_over":
        if state.phase.value == "play" and wanted(view(state, state.turn)):
            return Moment(state, list(log))
        seat = next(s for s in range(players) if view(state, s).legal)
        state, new = apply(state, bots[seat].choose(view(state, seat)))
        log.extend(new)
    raise AssertionError("no such moment")


def table_info(state: State) -> Any:
    seats = [{"name": name, "token": None, "kind": "human" if seat == 0 else "bot"}
             for seat, name in enumerate(state.players)]
    options = TableOptions(name=f"{state.players[0]}'s table", rules=state.rules,
                           seats=len(seats), seed=state.seed, bot_delay=0.0)
    return Table.restore(options, state, 0, seats).info()


def lobby_tables(players: int) -> dict[str, LobbyEntry]:
    """Three tables on the network, one behind a PIN."""
    return {f"t{n}": LobbyEntry(f"t{n}", f"{NAMES[n + 2]}'s table", ["192.168.1.2"], 48000 + n,
                                n + 1, players, "classic", 1, n == 1)
            for n in range(3)}


def make_ui(language: str, columns: int, rows: int) -> PresidentUI:
    return PresidentUI(Settings(name="Tester", language=language), language,
                       output=SizedOutput(columns, rows), save_settings=None)


def seat_at(ui: PresidentUI, moment: Moment, seat: int | None = 0) -> TableModel:
    """Sit ``ui`` at the table of ``moment`` (``seat`` None: as a spectator)."""
    model = TableModel(ui.tr, ui.text)
    info = table_info(moment.state)
    model.on_event(Joined(seat=seat, table=info))
    for event in moment.events:
        model.on_event(GameEvent(project_event(event, seat)))
    model.on_event(ViewChanged(view(moment.state, seat)))
    ui.table = model
    ui._containers.pop("table", None)
    ui.show("table")
    return model


def waiting_room(ui: PresidentUI, players: int, taken: int = 2) -> TableModel:
    state, _ = new_session(PRESETS["classic"], NAMES[:players], 1)
    info = table_info(state)
    info = replace(info, started=False,
                   players=tuple(name if seat < taken else None
                                 for seat, name in enumerate(info.players)))
    model = TableModel(ui.tr, ui.text)
    model.address = "192.168.1.20:48123"
    model.on_event(Joined(seat=0, table=info))
    ui.table = model
    ui._containers.pop("table", None)
    ui.show("table")
    return model


@dataclass
class Accepted:
    """A host's yes to an action."""

    accepted: bool = True
    code: str | None = None


class Acting:
    """A connection that keeps the actions sent (and accepts them)."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def act(self, action: Any) -> Accepted:
        self.sent.append(action)
        return Accepted()


def after_play(cards: str, hands: list[str], rules: HouseRules = GIVEAWAY,
               names: tuple[str, ...] = NAMES[:3], seat: int = 0) -> Moment:
    """``seat`` has just played ``cards`` from its hand of ``hands`` (by seat), at a table
    with the 7-pass and the 10-discard unless ``rules`` says otherwise."""
    state, events = new_session(rules, list(names), 1)
    state = replace(state, phase=Phase.PLAY, hands=tuple(parse_cards(h) for h in hands),
                    turn=seat, tax_due=(), tax_log=())
    state, more = apply(state, Play(seat, parse_cards(cards)))
    return Moment(state, [*events, *more])


@dataclass
class Rendered:
    rows: list[str]
    overflows: list[str]        # lines wider than the window that shows them
    windows: list[Window]

    @property
    def text(self) -> str:
        return "\n".join(self.rows)


def render(ui: PresidentUI) -> Rendered:
    """Draw the current screen as the running application would."""
    size = ui.app.output.get_size()
    container = ui.container()
    screen = Screen(default_char=None)
    ui.app.render_counter += 1     # the controls cache their text per render
    with set_app(ui.app):
        container.write_to_screen(screen, MouseHandlers(),
                                  WritePosition(0, 0, size.columns, size.rows),
                                  "", erase_bg=False, z_index=None)
        screen.draw_all_floats()
        overflows: list[str] = []
        windows = [w for w in walk(container) if isinstance(w, Window)]
        for window in windows:
            info = window.render_info
            if info is None or not isinstance(window.content, FormattedTextControl):
                continue
            fragments = to_formatted_text(window.content.text)
            lines = list(split_lines(fragments))
            if lines and not "".join(f[1] for f in lines[-1]):
                lines.pop()                       # the newline that ends the last line
            scrolls = window.content.get_cursor_position is not None
            if len(lines) > info.window_height and not scrolls:
                text = "".join(f[1] for f in lines[info.window_height])
                overflows.append(f"{len(lines)} lines>{info.window_height}: {text!r} hidden")
            for line in lines:
                width = fragment_list_width(line)
                if width > info.window_width:
                    text = "".join(f[1] for f in line)
                    overflows.append(f"{width}>{info.window_width}: {text!r}")
    rows = []
    for y in range(size.rows):
        row = screen.data_buffer[y]
        rows.append("".join(row[x].char for x in range(size.columns)).rstrip())
    return Rendered(rows, overflows, windows)


def press(ui: PresidentUI, *keys: str) -> None:
    """Keys through the application's real key bindings (a carriage return is Enter)."""
    async def feed() -> None:
        with set_app(ui.app):
            for data in keys:
                ui.app.key_processor.feed(KeyPress(Keys.ControlM if data == "\r" else data,
                                                   data))
                ui.app.key_processor.process_keys()
                await asyncio.sleep(0)     # what the keys spawned (a chat line) runs
                await asyncio.sleep(0)

    asyncio.run(feed())

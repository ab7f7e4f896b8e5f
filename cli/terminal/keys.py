"""The one key-binding factory: every screen's keys, switched by filters."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys

from president.cli.terminal.layout import columns, rule_scroll
from president.cli.terminal.model import RANK_KEYS


def make_bindings(ui: Any) -> KeyBindings:
    """``ui`` is the ``PresidentUI`` controller (screen, models, editor, actions)."""
    kb = KeyBindings()
    editing = Condition(lambda: ui.editor is not None)
    help_open = Condition(lambda: ui.screen == "table" and ui.table is not None
                          and ui.table.help_open)

    def screen(name: str) -> Filter:
        return Condition(lambda: ui.screen == name) & ~editing

    asking = Condition(lambda: ui.screen == "table" and ui.table is not None
                       and ui.table.leave_asked)
    declaring = Condition(lambda: ui.screen == "table" and ui.table is not None
                          and ui.table.declaring is not None) & ~help_open & ~asking & ~editing
    table = screen("table") & ~help_open & ~asking & ~declaring
    telling = Condition(lambda: ui.lobby.story is not None)
    lobby, settings = screen("lobby") & ~telling, screen("settings")
    confirming = Condition(lambda: ui.setup.confirming)
    setup = screen("setup") & ~confirming

    @kb.add("c-q")
    @kb.add("c-c")
    def _quit(event: Any) -> None:
        ui.ask_quit()

    # ---------------------------------------------------------------- leaving a table

    @kb.add("a", filter=asking)
    def _step_away(event: Any) -> None:
        if not ui.table.hosted_here:
            ui.step_away()

    @kb.add("l", filter=asking)
    def _leave_for_good(event: Any) -> None:
        if not ui.table.hosted_here:
            ui.leave_table()

    @kb.add("e", filter=asking)
    def _end_for_everyone(event: Any) -> None:
        if ui.table.owner and not ui.table.hosted_here:
            ui.end_session()

    @kb.add("y", filter=asking)
    def _close_table(event: Any) -> None:
        if ui.table.hosted_here:
            ui.leave_table()

    @kb.add("escape", filter=asking)
    def _stay(event: Any) -> None:
        ui.table.leave_asked = False

    # ---------------------------------------------------------------- a seat asked for

    requested = Condition(lambda: ui.screen == "table" and ui.table is not None
                          and ui.table.seat_request is not None) & ~asking & ~editing

    @kb.add("y", filter=requested)
    def _give_seat(event: Any) -> None:
        ui.answer_seat_request(True)

    @kb.add("n", filter=requested)
    def _refuse_seat(event: Any) -> None:
        ui.answer_seat_request(False)

    # ---------------------------------------------------------------- text fields

    @kb.add(Keys.Any, filter=editing)
    def _type(event: Any) -> None:
        key = event.key_sequence[0].key
        if not isinstance(key, Keys):
            ui.editor.insert(event.data)

    @kb.add("backspace", filter=editing)
    def _backspace(event: Any) -> None:
        ui.editor.backspace()

    @kb.add("enter", filter=editing)
    def _done(event: Any) -> None:
        ui.finish_editing(accept=True)

    @kb.add("escape", filter=editing)
    def _cancel(event: Any) -> None:
        ui.finish_editing(accept=False)

    # ---------------------------------------------------------------- what a joker is

    @kb.add("left", filter=declaring)
    @kb.add("up", filter=declaring)
    def _declare_previous(event: Any) -> None:
        ui.table.move_declaration(-1)

    @kb.add("right", filter=declaring)
    @kb.add("down", filter=declaring)
    @kb.add("space", filter=declaring)
    def _declare_next(event: Any) -> None:
        ui.table.move_declaration(1)

    @kb.add("enter", filter=declaring)
    def _declare(event: Any) -> None:
        ui.send(ui.table.declaration_action())

    @kb.add("escape", filter=declaring)
    @kb.add("c", filter=declaring)
    def _declare_cancel(event: Any) -> None:
        ui.table.cancel_declaration()

    # ---------------------------------------------------------------- table

    @kb.add("left", filter=table)
    def _left(event: Any) -> None:
        ui.table.move(-1)

    @kb.add("right", filter=table)
    def _right(event: Any) -> None:
        ui.table.move(1)

    @kb.add("space", filter=table)
    def _toggle(event: Any) -> None:
        ui.table.toggle()

    @kb.add("up", filter=table)
    def _raise(event: Any) -> None:
        ui.table.set_selected(True)

    @kb.add("down", filter=table)
    def _lower(event: Any) -> None:
        ui.table.set_selected(False)

    @kb.add("escape", filter=table & Condition(lambda: ui.table.view is None))
    def _leave(event: Any) -> None:
        ui.leave_table()

    @kb.add("c", filter=table)
    @kb.add("escape", filter=table & Condition(lambda: ui.table.view is not None))
    def _clear(event: Any) -> None:
        ui.table.clear_selection()

    # Added first: the specific keys below win over it (prompt_toolkit prefers
    # bindings with fewer Any). The card letters of the player's language
    # (Dutch B V H) select ranks too; no catalog gives a rank a command's letter
    # (tests/cli/test_rank_keys.py).
    @kb.add(Keys.Any, filter=table)
    def _language_rank(event: Any) -> None:
        key = event.key_sequence[0].key
        if isinstance(key, Keys) or len(event.data) != 1:
            return
        symbol = ui.table.rank_for_letter(event.data)
        if event.data.lower() == ui.text.hint_key():   # h (w in Dutch: H is the king)
            ui.table.hint()
        elif symbol is not None:
            ui.table.select_rank(symbol)
        elif event.data.isprintable() and not event.data.isspace():
            ui.table.unknown_key(event.data)

    for key, symbol in RANK_KEYS.items():
        keys = {key, key.upper()}
        for each in keys:
            @kb.add(each, filter=table)
            def _rank(event: Any, symbol: str = symbol) -> None:
                ui.table.select_rank(symbol)

    @kb.add("pageup", filter=table)
    def _log_back(event: Any) -> None:
        ui.table.scroll_log(5)

    @kb.add("pagedown", filter=table)
    def _log_forward(event: Any) -> None:
        ui.table.scroll_log(-5)

    @kb.add("l", filter=table)
    @kb.add("L", filter=table)
    def _lowest(event: Any) -> None:
        if ui.table.select_lowest():
            ui.send(ui.table.confirm_action())

    @kb.add("enter", filter=table)
    def _confirm(event: Any) -> None:
        ui.send(ui.table.confirm_action())

    @kb.add("p", filter=table)
    @kb.add("P", filter=table)
    def _pass(event: Any) -> None:
        ui.send(ui.table.pass_action())

    @kb.add("r", filter=table)
    def _ready(event: Any) -> None:
        ui.send(ui.table.ready_action())

    @kb.add("s", filter=table & Condition(lambda: ui.table.view is None))
    def _start_now(event: Any) -> None:
        ui.start_now()

    @kb.add("u", filter=table & Condition(lambda: ui.table.view is None
                                          and ui.table.web_url is not None))
    def _qr_code(event: Any) -> None:
        ui.table.qr_open = not ui.table.qr_open

    @kb.add("o", filter=table & Condition(lambda: ui.table.owner and (
        ui.table.view is None or ui.table.may_play_again)))
    def _change_rules(event: Any) -> None:
        ui.change_rules()

    @kb.add("g", filter=table & Condition(lambda: ui.table.may_play_again))
    def _play_again(event: Any) -> None:
        ui.play_again()

    @kb.add("e", filter=table & Condition(lambda: ui.table.may_play_again))
    def _play_duplicate(event: Any) -> None:
        ui.play_again(duplicate=True)

    @kb.add("t", filter=table)
    def _chat(event: Any) -> None:
        ui.start_chat()

    @kb.add("d", filter=table)
    def _decree(event: Any) -> None:
        ui.start_decree()

    @kb.add("?", filter=table)
    @kb.add("f1", filter=table)
    def _help(event: Any) -> None:
        ui.table.help_open = True
        # on the last rule at work (the help is a frame 6 columns narrower than the screen)
        ui.help_state.scroll = rule_scroll(ui.table, columns() - 6)

    @kb.add("escape", filter=help_open)
    @kb.add("?", filter=help_open)
    @kb.add("q", filter=help_open)
    @kb.add("enter", filter=help_open)
    def _help_close(event: Any) -> None:
        ui.table.help_open = False

    @kb.add("up", filter=help_open)
    def _help_up(event: Any) -> None:
        ui.help_state.scroll = max(0, ui.help_state.scroll - 1)

    @kb.add("down", filter=help_open)
    def _help_down(event: Any) -> None:
        ui.help_state.scroll += 1

    @kb.add("pageup", filter=help_open)
    def _help_page_up(event: Any) -> None:
        ui.help_state.scroll = max(0, ui.help_state.scroll - 10)

    @kb.add("pagedown", filter=help_open)
    @kb.add("space", filter=help_open)
    def _help_page_down(event: Any) -> None:
        ui.help_state.scroll += 10

    # ---------------------------------------------------------------- lobby

    @kb.add("up", filter=lobby)
    def _lobby_up(event: Any) -> None:
        ui.lobby.move(-1)

    @kb.add("down", filter=lobby)
    def _lobby_down(event: Any) -> None:
        ui.lobby.move(1)

    stopping = Condition(lambda: ui.lobby.stopping is not None)

    @kb.add("enter", filter=lobby & ~stopping)
    def _lobby_enter(event: Any) -> None:
        ui.lobby_choose()

    @kb.add("w", filter=lobby & ~stopping)
    def _lobby_watch(event: Any) -> None:
        ui.join_selected(watch=True)

    @kb.add("x", filter=lobby & ~stopping)
    def _lobby_stop_mine(event: Any) -> None:
        ui.ask_stop_mine()

    @kb.add("y", filter=lobby & stopping)
    def _lobby_stop_confirmed(event: Any) -> None:
        ui.stop_mine(True)

    @kb.add("escape", filter=lobby & stopping)
    @kb.add("n", filter=lobby & stopping)
    def _lobby_stop_cancelled(event: Any) -> None:
        ui.stop_mine(False)

    @kb.add("escape", filter=lobby & ~stopping)
    def _lobby_escape(event: Any) -> None:
        ui.lobby.message = None

    @kb.add("escape", filter=screen("lobby") & telling)
    @kb.add("enter", filter=screen("lobby") & telling)
    def _story_done(event: Any) -> None:
        ui.close_story()

    # ---------------------------------------------------------------- settings

    @kb.add("up", filter=settings)
    def _settings_up(event: Any) -> None:
        ui.settings_model.move(-1)

    @kb.add("down", filter=settings)
    def _settings_down(event: Any) -> None:
        ui.settings_model.move(1)

    @kb.add("left", filter=settings)
    def _settings_left(event: Any) -> None:
        ui.settings_change(-1)

    @kb.add("right", filter=settings)
    def _settings_right(event: Any) -> None:
        ui.settings_change(1)

    @kb.add("enter", filter=settings)
    def _settings_enter(event: Any) -> None:
        ui.settings_enter()

    @kb.add("escape", filter=settings)
    def _settings_back(event: Any) -> None:
        ui.show("lobby")

    # ---------------------------------------------------------------- host set-up

    @kb.add("y", filter=screen("setup") & confirming)
    def _setup_open(event: Any) -> None:
        ui.open_confirmed()

    @kb.add("escape", filter=screen("setup") & confirming)
    @kb.add("n", filter=screen("setup") & confirming)
    def _setup_not_now(event: Any) -> None:
        ui.setup.cancel()

    @kb.add("up", filter=setup)
    def _setup_up(event: Any) -> None:
        ui.setup.move(-1)

    @kb.add("down", filter=setup)
    def _setup_down(event: Any) -> None:
        ui.setup.move(1)

    @kb.add("left", filter=setup)
    def _setup_left(event: Any) -> None:
        ui.setup.change(-1)

    @kb.add("right", filter=setup)
    @kb.add("space", filter=setup)
    def _setup_right(event: Any) -> None:
        ui.setup.change(1)

    @kb.add("enter", filter=setup)
    def _setup_enter(event: Any) -> None:
        ui.setup_enter()

    @kb.add("escape", filter=setup)
    def _setup_back(event: Any) -> None:
        ui.setup_back()

    return kb

"""The full-screen client: lobby → (set-up) → table, in one prompt_toolkit Application.

The commands ``play``, ``join`` and ``lobby`` (``president.cli.commands``) build a
``PresidentUI`` and run it. The network is reached through ``president.cli.netbridge``;
tests inject their own connections, input and output.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.layout import DynamicContainer, Layout, Window, walk
from prompt_toolkit.layout.containers import Container

from president.actions import Action
from president.cli import settings as settings_store
from president.cli import table_setup
from president.cli.hosting import AGAIN_WAIT
from president.cli.table_setup import TableSetup
from president.cli.terminal.keys import make_bindings
from president.cli.terminal.layout import STYLE, HelpState, table_container
from president.cli.terminal.lobby import LobbyModel, SettingsModel, lobby_container
from president.cli.terminal.model import LineEdit, Seen, TableModel
from president.cli.terminal.setup_screen import SetupModel, setup_container
from president.cli.trust import KnownHosts
from president.cli.ui_text import load_texts
from president.errors import PresidentError
from president.net.discovery import format_address

# A PIN typed again may do (pin_again: its one guess was spent on a join that failed).
PIN_REFUSALS = frozenset({"wrong_pin", "bad_pin", "pin_again"})

class PresidentUI:
    """The controller: which screen shows, the text field being typed, the models,
    and the actions the key bindings call. The network goes through ``bridge``."""

    def __init__(
        self,
        settings: settings_store.Settings,
        language: str,
        *,
        input: Any = None,
        output: Any = None,
        bridge: Any = None,
        save_settings: Callable[[settings_store.Settings], Any] | None = settings_store.save,
    ) -> None:
        self.settings = settings
        self.language = language
        self.tr, self.text = load_texts(language)
        self.bridge = bridge
        self.save_settings = save_settings
        self.screen = "lobby"
        self.editor: LineEdit | None = None
        self.table: TableModel | None = None
        self.connection: Any = None
        self.hosted: Any = None          # an in-process host we started
        self.browser: Any = None
        self.help_state = HelpState()
        self.lobby = LobbyModel(self.tr, self.text)
        self.lobby.known = KnownHosts()
        self.settings_model = SettingsModel(self.tr, settings)
        self.setup = SetupModel(self.tr, self.text, settings.name)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.exit_code = 0
        self._containers: dict[str, Container] = {}
        self.lesson_options: dict[str, Any] = {}   # (tests: the bots' delay)
        self.app: Application[int] = Application(
            layout=Layout(DynamicContainer(self.container)),
            key_bindings=make_bindings(self),
            style=STYLE,
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
            refresh_interval=1.0,
        )
        self.app.ttimeoutlen = 0.05
        self.show(self.screen)

    # ---------------------------------------------------------------- screens

    def container(self) -> Container:
        screen = "lobby" if self.screen == "settings" else self.screen
        if screen not in self._containers:
            self._containers[screen] = self._build(screen)
        return self._containers[screen]

    def _build(self, screen: str) -> Container:
        if screen == "table":
            assert self.table is not None
            return table_container(self.table, self.help_state, self.click_card,
                                   lambda: self.editor, self.click_declaration)
        if screen == "setup":
            return setup_container(self.setup, lambda: self.editor)
        return lobby_container(self.lobby, lambda: self.settings_model, lambda: self.editor,
                               lambda: self.screen == "settings")

    def show(self, screen: str) -> None:
        self.screen = screen
        if screen == "lobby" and self.bridge is not None:
            self.lobby.set_tables(self.lobby.tables, self.bridge.my_tables())
        # The focused window decides the mouse's "modal area": keep it on this screen.
        window = next((c for c in walk(self.container()) if isinstance(c, Window)), None)
        if window is not None:
            self.app.layout.current_window = window
        self.invalidate()

    def invalidate(self) -> None:
        self.app.invalidate()

    def set_language(self, language: str) -> None:
        """Switch every screen's words to ``language``."""
        self.language = language
        self.tr, self.text = load_texts(language)
        self.lobby.tr = self.settings_model.tr = self.tr
        self.lobby.text = self.text
        self.setup.tr, self.setup.text = self.tr, self.text
        if self.table is not None:
            self.table.tr, self.table.text = self.tr, self.text
        self._containers.clear()
        self.show(self.screen)

    def spawn(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        error = None if task.cancelled() else task.exception()
        if error is not None:
            if isinstance(error, PresidentError):
                message = str(self.text.error(error))
            else:
                message = self.tr.gettext("Error: {detail}").format(detail=describe(error))
            if self.screen == "table" and self.table is not None:
                self.table.message = message
            elif self.screen == "setup":
                self.setup.message = message
            else:
                self.lobby.message = message
            self.invalidate()

    def quit(self) -> None:
        if self.app.is_running:
            self.app.exit(result=self.exit_code)

    def ask_quit(self) -> None:
        """Ctrl-Q / Ctrl-C: at a table in play, ask first (a second press steps away);
        at a table not in play (waiting, refused, over), back to the lobby; in the
        lobby and elsewhere, quit."""
        table = self.table
        if self.screen != "table" or table is None:
            return self.quit()
        if table.view is None or self.connection is None or table.phase == "session_over" \
                or table.lesson is not None:      # (a lesson: back to the lobby at once)
            return self.leave_table()
        if table.leave_asked and not table.hosted_here:
            return self.step_away()
        table.leave_asked = True
        self.invalidate()

    def answer_seat_request(self, give: bool) -> None:
        """As the owner: give the seat asked for by name, or refuse it."""
        table = self.table
        if table is None or table.seat_request is None or self.connection is None:
            return
        seat = table.seat_request
        self.spawn(self.connection.answer_seat_request(seat, give))

    def end_session(self) -> None:
        """The owner ends the session for everyone (after this hand)."""
        assert self.table is not None and self.connection is not None
        self.table.leave_asked = False
        self.table.message = self.tr.gettext("The session ends after this hand.")
        self.spawn(self._ask_end())

    async def _ask_end(self) -> None:
        reply = await self.connection.end_session()
        if reply.code and self.table is not None:
            self.table.message = self.text.reason(reply.code, reply.params)
            self.invalidate()

    def play_again(self, duplicate: bool = False) -> None:
        """The owner, at the end of the session: a new one with the same players
        (``duplicate``: the same deals, everyone one seat on)."""
        table = self.table
        if table is None or self.connection is None or not table.may_play_again or table.busy:
            return
        table.busy = True
        self.spawn(self._ask_again(duplicate))

    async def _ask_again(self, duplicate: bool = False) -> None:
        assert self.table is not None and self.connection is not None
        table = self.table
        try:
            reply = await (self.connection.play_duplicate() if duplicate
                           else self.connection.play_again())
        finally:
            table.busy = False
        if reply.code:
            table.message = self.text.reason(reply.code, reply.params)
        self.invalidate()

    def step_away(self) -> None:
        """Back to the lobby without a goodbye: a bot plays for us and the seat waits
        for the lobby (or ``president join``) to bring us back."""
        connection = self.connection
        self.connection, self.table = None, None
        if connection is not None:
            self.spawn(_quietly(connection.step_away()))
        self.show("lobby")
        self.start_browsing()

    # ---------------------------------------------------------------- text fields

    def edit(self, editor: LineEdit) -> None:
        self.editor = editor
        self.invalidate()

    def finish_editing(self, accept: bool) -> None:
        editor, self.editor = self.editor, None
        if editor is not None and accept:
            editor.on_done(editor.text)
        self.invalidate()

    # ---------------------------------------------------------------- table

    async def sit_down(self, connection: Any) -> None:
        """Show the table and let ``connection`` (a ``netbridge.NetConnection``) feed it."""
        self.table = TableModel(self.tr, self.text)
        self.table.address = connection.address
        self.table.owner = getattr(connection, "owner", False)
        self.table.hosted_here = self.hosted is not None
        self.table.web_url = getattr(connection, "web_url", None)
        self.table.unadvertised = getattr(connection, "unadvertised", False)
        self.table.lesson = getattr(connection, "lesson_line", None)
        self.table.listeners.append(self.invalidate)
        self.table.listeners.append(self.ring)
        self.table.listeners.append(self.pass_by_itself)
        self.connection = connection
        self._containers.pop("table", None)
        self.show("table")
        await connection.start(self.table.on_event)
        self._ask_pin_again(connection, self.table)
        self._offer_knock(connection, self.table)

    def _ask_pin_again(self, connection: Any, table: TableModel) -> None:
        """A wrong PIN: the PIN is asked again here (Esc: the refusal, and the way back)."""
        if self.table is not table or table.status != Seen.REFUSED \
                or table.status_detail not in PIN_REFUSALS:
            return

        def again(pin: str) -> None:
            self.spawn(self._retry_pin(connection, table, pin))

        prompt = (self.tr.gettext("Type the PIN again:") if table.status_detail == "pin_again"
                  else self.tr.gettext("Wrong PIN. Type it again:"))
        self.edit(LineEdit(prompt, "", again, secret=True, max_length=12))

    def _offer_knock(self, connection: Any, table: TableModel) -> None:
        """The PIN budget spent: Enter asks the owner to let us in (Esc: back)."""
        if self.table is not table or table.status != Seen.REFUSED \
                or table.status_detail != "too_many_attempts" or not hasattr(connection, "knock"):
            return

        def knock(_: str) -> None:
            table.knocking = True
            table.status_changed(Seen.CONNECTING)
            self.spawn(connection.knock(table.on_event))

        self.edit(LineEdit(self.tr.gettext(
            "Too many wrong PINs. Enter: ask the owner to let you in"), "", knock))

    async def _retry_pin(self, connection: Any, table: TableModel, pin: str) -> None:
        table.status_changed(Seen.CONNECTING)
        await connection.retry_with_pin(pin, table.on_event)
        self._ask_pin_again(connection, table)

    def ring(self) -> None:
        """The terminal's bell when our move or tax begins (if the settings ask for it)."""
        if self.table is not None and self.table.bell_due:
            self.table.bell_due = False
            if self.settings.bell:
                self.app.output.bell()

    def pass_by_itself(self) -> None:
        """With the setting on: our move begins and nothing we hold beats the pile: pass."""
        table = self.table
        if table is None or not table.only_pass_due:
            return
        table.only_pass_due = False
        if self.settings.auto_pass:
            self.send(table.pass_action())
            table.message = self.tr.gettext("Passed by itself: nothing you hold beats the pile.")

    def send(self, action: Action | None) -> None:
        """Send ``action`` unless one is already on its way (a double Enter sends one)."""
        table = self.table
        if action is None or self.connection is None or table is None or table.busy:
            self.invalidate()
            return
        table.selected.clear()
        table.busy = True
        self.spawn(self._send(action))

    async def _send(self, action: Action | None) -> None:
        assert self.table is not None
        try:
            reply = await self.connection.act(action)
        finally:
            self.table.busy = False
        if not reply.accepted:
            self.table.refused(reply.code or "refused")
        self.invalidate()

    def leave_table(self) -> None:
        """Leave the table for good (a table of this window closes) and go back to the
        lobby: the program's home."""
        connection, hosted = self.connection, self.hosted
        self.connection = self.hosted = None
        self.table = None
        self.spawn(self._leave(connection, hosted))
        self.show("lobby")
        self.start_browsing()

    async def _leave(self, connection: Any, hosted: Any) -> None:
        if connection is not None:
            await _quietly(connection.close())
        if hosted is not None:
            await _quietly(hosted.stop())

    def start_now(self) -> None:
        """Start before every seat is taken: bots take the free seats."""
        if self.connection is not None and self.table is not None and not self.table.busy:
            self.table.busy = True
            self.spawn(self._send(None))

    def click_card(self, index: int) -> None:
        if self.table is not None and self.editor is None and not self.table.help_open:
            self.table.toggle(index)

    def click_declaration(self, index: int) -> None:
        """A click on one of the values a wild joker may stand for: play it."""
        if self.table is not None and self.editor is None and self.table.declaring:
            self.send(self.table.declaration_action(index))

    def start_chat(self) -> None:
        """t: a line to everyone at the table (1-4 alone: a quick reaction)."""
        table = self.table
        if table is None or self.connection is None:
            return
        self.edit(LineEdit(table.chat_prompt(), "",
                           lambda text: self._say(table.chat_line(text)), max_length=200))

    def _say(self, line: str | None) -> None:
        if line and self.connection is not None:
            self.spawn(self.connection.chat(line))

    def start_decree(self) -> None:
        table = self.table
        if table is None or not table.may_decree():
            return
        self.edit(LineEdit(self.tr.gettext("Decree (Enter sends, Esc cancels):"), "",
                           lambda text: self.send(table.decree_action(text))))

    # ---------------------------------------------------------------- lobby

    def start_browsing(self) -> None:
        if self.bridge is None or self.browser is not None:
            return
        try:
            self.browser = self.bridge.browser(self._tables_changed)
        except Exception:  # noqa: BLE001 - no discovery here: join by address still works
            self.lobby.discovery_ok = False
            return
        self.spawn(self._browse())

    async def _browse(self) -> None:
        try:
            await self.browser.start()
        except Exception:  # noqa: BLE001 - multicast unavailable
            self.lobby.discovery_ok = False
            self.invalidate()

    def _tables_changed(self, *args: Any) -> None:
        found = self.browser.tables if self.browser is not None else self.lobby.tables
        self.lobby.set_tables(found, self.bridge.my_tables() if self.bridge else None)
        self.invalidate()

    def lobby_choose(self) -> None:
        entry = self.lobby.entry()
        if entry is None:
            return
        kind, key = entry
        if kind == "mine":
            mine = self.lobby.my_table(key)
            if mine.session is not None:
                self.spawn(self.resume_mine(mine))
            else:
                self.spawn(self.sit_down(self.bridge.join_my_table(mine, self.settings.name,
                                                                   self.language)))
        elif kind == "table":
            self.join_selected(watch=self.lobby.tables[key].watch_only)
        elif kind == "join":
            self.ask_address()
        elif kind == "host":   # as the last table of the evening was
            self.setup = SetupModel(self.tr, self.text, self.settings.name,
                                    last=table_setup.last())
            self._containers.pop("setup", None)
            self.show("setup")
        elif kind == "learn":
            self.spawn(self.learn())
        elif kind == "bots":
            self.spawn(self.play_bots(3, "classic", None))
        elif kind == "evening":
            self.spawn(self.tell_the_evening())
        elif kind == "settings":
            self.show("settings")
        elif kind == "quit":
            self.quit()

    async def tell_the_evening(self) -> None:
        """The night's story (cli/evening.py) from this computer's journal; Esc back."""
        from president.cli.evening import tell

        lines = await asyncio.to_thread(tell, self.text, columns_now(self) - 1)
        self.lobby.story = lines
        self.invalidate()

    def close_story(self) -> None:
        self.lobby.story = None
        self.invalidate()

    async def learn(self) -> None:
        """Learn to play: a guided hand against two bots (``cli.lesson``)."""
        from president.cli.lesson import LessonConnection

        await self.sit_down(LessonConnection(self.settings.name, self.tr, self.text,
                                             **self.lesson_options))

    async def resume_mine(self, mine: Any) -> None:
        """Start an unfinished table's host again and sit down at it."""
        self.lobby.message = self.tr.gettext("Resuming “{name}”…").format(name=mine.name)
        self.invalidate()
        again = await self.bridge.resume_my_table(mine)
        self.lobby.message = None
        await self.sit_down(self.bridge.join_my_table(again, self.settings.name, self.language))

    def ask_stop_mine(self) -> None:
        """x on one of our tables: ask before ending it for everyone (an unfinished one
        is only forgotten: its session stays in the journal)."""
        entry = self.lobby.entry()
        if entry is not None and entry[0] == "mine" and \
                self.lobby.my_table(entry[1]).session is not None:
            self.bridge.stop_my_table(self.lobby.my_table(entry[1]))
            return self._tables_changed()
        if entry is not None and entry[0] == "mine":
            self.lobby.stopping = entry[1]
            mine = self.lobby.my_table(entry[1])
            self.lobby.message = self.tr.gettext(
                "End the table “{name}” for everyone? y yes · Esc no").format(name=mine.name)

    def stop_mine(self, confirmed: bool) -> None:
        mine = self.lobby.my_table(self.lobby.stopping or "")
        self.lobby.stopping, self.lobby.message = None, None
        if confirmed and mine is not None:
            playing = self.bridge.stop_my_table(mine)
            self.lobby.message = (self.tr.gettext("“{name}” ends after the hand in play.")
                                  if playing else self.tr.gettext("“{name}” is closed.")
                                  ).format(name=mine.name)
            self.spawn(self._until_gone(mine.id))
        self._tables_changed()

    async def _until_gone(self, ident: str, seconds: float = 10.0) -> None:
        """Keep "my tables" current while one of them ends."""
        for _ in range(int(seconds / 0.2)):
            await asyncio.sleep(0.2)
            self._tables_changed()
            if self.lobby.my_table(ident) is None:
                return

    def join_selected(self, watch: bool = False) -> None:
        """Enter (or w: ``watch``) on a table found on the network: its PIN first, unless
        this computer holds one of its seats' tokens."""
        entry = self.lobby.entry()
        if entry is None or entry[0] != "table":
            return
        info = self.lobby.tables[entry[1]]
        address = format_address(info.addresses[0], info.port)
        if info.pin_required and (watch or not self.bridge.holds_seat(address,
                                                                      self.settings.name)):
            label = self.tr.gettext("PIN (to watch):") if watch else self.tr.gettext("PIN:")
            self.edit(LineEdit(label, "", lambda pin: self.join_found(info, pin, watch),
                               secret=True, max_length=12))
        else:
            self.join_found(info, None, watch)

    def join_found(self, info: Any, pin: str | None, watch: bool = False) -> None:
        self.spawn(self.join_address(format_address(info.addresses[0], info.port), pin,
                                     spectate=watch, host_key=info.key))

    def ask_address(self) -> None:
        """The address field (the one typed last, after a mistake)."""
        self.edit(LineEdit(self.tr.gettext("Address (host:port):"), self.lobby.typed,
                           self.join_typed, max_length=80))

    def join_typed(self, text: str) -> None:
        address = self.lobby.typed = text.strip()
        try:
            host, port = self.bridge.parse_address(address)
        except Exception:  # noqa: BLE001 - any parse error is shown the same way
            self.lobby.message = self.tr.gettext("Not an address: {text}").format(text=text)
            return
        self.spawn(self._knock(address, host, port))

    async def _knock(self, address: str, host: str, port: int) -> None:
        """Ask for the PIN only where a table answers; else say so at once."""
        self.lobby.message = self.tr.gettext("Looking for a table at {address}…").format(
            address=address)
        self.invalidate()
        found = await self.bridge.answers_as_table(host, port)
        self.lobby.message = None if found else self.text.reason(
            "not_a_table", {"address": address})
        if found and self.bridge.holds_seat(address, self.settings.name):
            self.spawn(self.join_address(address, None))    # our seat's token: no PIN
        elif found:
            self.edit(LineEdit(self.tr.gettext("PIN (empty: none):"), "",
                               lambda pin: self.spawn(self.join_address(address, pin or None)),
                               secret=True, max_length=12))
        self.invalidate()

    async def join_address(self, address: str, pin: str | None, spectate: bool = False,
                           host_key: str | None = None) -> None:
        """Join at ``address``; ``host_key``: the fingerprint the table advertised."""
        connection = self.bridge.connect(address, self.settings.name, self.language, pin,
                                         spectate=spectate, host_key=host_key)
        await self.sit_down(connection)

    async def play_bots(self, bots: int, preset: str, rules: Any, seed: int | None = None,
                        **bot_options: Any) -> None:
        """``bot_options``: the bots' ``levels`` and ``bot_budget`` (netbridge.local_table)."""
        handle, connection = await self.bridge.local_table(
            self.settings.name, self.language, bots=bots, preset=preset, rules=rules, seed=seed,
            again_wait=AGAIN_WAIT, **bot_options)
        self.hosted = handle
        await self.sit_down(connection)

    # ---------------------------------------------------------------- settings

    def settings_change(self, step: int) -> None:
        if self.settings_model.row == "language":
            self.set_language(self.settings_model.cycle_language(step))
            self._save()
        elif self.settings_model.row == "bell":
            self.settings.bell = not self.settings.bell
            self._save()
        elif self.settings_model.row == "auto_pass":
            self.settings.auto_pass = not self.settings.auto_pass
            self._save()

    def settings_enter(self) -> None:
        row = self.settings_model.row
        if row == "name":
            self.edit(LineEdit(self.tr.gettext("Your name:"), self.settings.name,
                               self.set_name, max_length=settings_store.NAME_MAX))
        elif row in ("language", "bell", "auto_pass"):
            self.settings_change(1)
        else:
            self.show("lobby")

    def welcome(self, then: Callable[[], Awaitable[Any]] | None = None) -> None:
        """The first time: the name the others will see, asked once and kept; then
        ``then()`` (a game, a join) if given."""
        def named(text: str) -> None:
            name = text.strip()
            if not name:
                return self.welcome(then)
            self.settings.name = name
            self.setup = SetupModel(self.tr, self.text, name)
            settings_store.remember_name(name)
            if then is not None:
                self.spawn(then())

        self.edit(LineEdit(self.tr.gettext("Welcome! Your name:"),
                           settings_store.suggested_name(), named,
                           max_length=settings_store.NAME_MAX))

    def set_name(self, name: str) -> None:
        if name.strip():
            self.settings.name = name.strip()
            self._save()

    def _save(self) -> None:
        if self.save_settings is not None:
            try:
                self.save_settings(self.settings)
            except OSError as error:
                self.lobby.message = self.tr.gettext("Could not save the settings: {detail}"
                                                     ).format(detail=error.strerror)

    # ---------------------------------------------------------------- host set-up

    def setup_enter(self) -> None:
        if self.setup.row == "start" and self.setup.for_table:
            self.spawn(self.apply_rules())
            return
        if self.setup.row == "start":
            return self.setup.confirm()
        if self.setup.row == "more":
            return self.setup.toggle_more()
        editor = self.setup.editor()
        if editor is not None:
            self.edit(editor)
        else:
            self.setup.change(1)

    def open_confirmed(self) -> None:
        self.setup.cancel()
        chosen = self.setup.result()
        table_setup.remember(chosen)
        self.spawn(self.host_table(chosen))

    def change_rules(self) -> None:
        """The owner, before the first deal or once the session is over (to play again
        with other rules): the set-up screen for the table's rules."""
        if self.table is None or not self.table.owner or self.table.table is None \
                or not (self.table.view is None or self.table.may_play_again):
            return
        self.setup = SetupModel(self.tr, self.text, self.settings.name, table=self.table.table)
        self._containers.pop("setup", None)
        self.show("setup")

    async def apply_rules(self) -> None:
        reply = await self.connection.change_rules(self.setup.preset, self.setup.rules)
        if reply.code:
            self.setup.message = self.text.reason(reply.code, reply.params)
            return self.invalidate()
        self.show("table")

    def setup_back(self) -> None:
        self.show("table" if self.setup.for_table and self.table is not None else "lobby")

    async def host_table(self, setup: TableSetup) -> None:
        handle, connection = await self.bridge.host_table(setup, self.settings.name,
                                                          self.language)
        self.hosted = handle
        await self.sit_down(connection)

    # ---------------------------------------------------------------- running

    async def run(self, start: Awaitable[Any] | None = None) -> int:
        if start is not None:
            self.spawn(start)
        elif self.screen == "lobby":
            self.app.after_render += self._browse_after_first_frame
        try:
            result = await self.app.run_async()
        finally:
            await self.shutdown()
        return int(result or 0)

    def _browse_after_first_frame(self, app: Any) -> None:
        """The lobby is drawn before zeroconf starts looking (it takes a tenth of a second)."""
        app.after_render -= self._browse_after_first_frame
        self.start_browsing()

    async def shutdown(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.connection is not None:
            await _quietly(self.connection.close())
        if self.browser is not None:
            await _quietly(self.browser.stop())
        if self.hosted is not None:
            await _quietly(self.hosted.stop())


def columns_now(ui: PresidentUI) -> int:
    return int(ui.app.output.get_size().columns)


async def _quietly(awaitable: Awaitable[Any]) -> None:
    try:
        await asyncio.wait_for(awaitable, 5)
    except Exception:  # noqa: BLE001 - leaving anyway
        pass


def describe(error: BaseException) -> str:
    code = getattr(error, "code", None)
    if code:
        return str(code)
    return type(error).__name__ + (f": {error}" if str(error) else "")

"""The lobby: the player's own tables (hosts running in the background), tables found on
the LAN (live), host, join by address, settings."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import HSplit, Window
from prompt_toolkit.layout.controls import FormattedTextControl

from president.cli.i18n import LANGUAGE_NAMES, LANGUAGES
from president.cli.settings import Settings
from president.cli.terminal.fit import pad, shorten, wrap
from president.cli.terminal.layout import columns, fit_line, footer_fragments
from president.net.discovery import format_address
from president.net.pake import short_fingerprint

MENU = ("host", "join", "bots", "learn", "evening", "settings", "quit")


class LobbyModel:
    def __init__(self, tr: Any, text: Any) -> None:
        self.tr, self.text = tr, text
        self.tables: dict[str, Any] = {}
        self.mine: list[Any] = []       # cli.hosting.MyTable: tables we opened, still running
        self.stopping: str | None = None  # the id of one of ours we ask about ending
        self.index = 0
        self.message: str | None = None
        self.discovery_ok = True
        self.moved = False      # until the player moves, the first table found is selected
        self.known: Any = None  # cli.trust.KnownHosts: the keys of tables joined before
        self.typed = ""         # the address typed last ("Join by address…")
        self.story: list[str] | None = None   # the evening's story, while it is shown

    def set_tables(self, tables: dict[str, Any], mine: list[Any] | None = None) -> None:
        current = self.entry()
        self.tables = dict(tables)
        if mine is not None:
            self.mine = list(mine)
        entries = self.entries()
        if not self.moved:
            self.index = 0
        else:
            self.index = entries.index(current) if current in entries else min(
                self.index, len(entries) - 1)

    def entries(self) -> list[tuple[str, str]]:
        ours = {(table.name, table.port) for table in self.mine}
        found = [key for key in self.tables
                 if (self.tables[key].name, self.tables[key].port) not in ours]
        ordered = sorted(found, key=lambda key: (self.tables[key].name.lower(), key))
        return ([("mine", table.id) for table in self.mine]
                + [("table", key) for key in ordered] + [(item, "") for item in MENU])

    def my_table(self, ident: str) -> Any:
        return next((table for table in self.mine if table.id == ident), None)

    def entry(self) -> tuple[str, str] | None:
        entries = self.entries() if hasattr(self, "tables") else []
        return entries[self.index] if 0 <= self.index < len(entries) else None

    def move(self, step: int) -> None:
        """Up and Down stop at the ends (no wrapping onto "Host a table…")."""
        self.index = max(0, min(len(self.entries()) - 1, self.index + step))
        self.moved = True
        self.message = None

    def label(self, entry: tuple[str, str]) -> str:
        tr = self.tr
        kind, key = entry
        if kind == "mine":
            mine = self.my_table(key)
            if mine.session is not None:
                return f"☆ {pad(mine.name, 28)} " + tr.gettext(
                    "unfinished: Enter resume · x forget")
            return f"★ {pad(mine.name, 28)} " + tr.gettext("your table: Enter sit down · x end it")
        if kind == "table":
            info = self.tables[key]
            lock = " 🔒" if info.pin_required else ""
            watch = " 👁" if info.watch_only else ""
            warn = " ⚠" if self.warning(key) else ""
            seats = tr.gettext("{taken}/{total} seats").format(
                taken=info.seats_taken, total=info.seats_total)
            preset = str(self.text.preset_name(info.preset))
            return f"{pad(info.name, 28)} {seats:>12}  {preset[:20]:<20}{lock}{watch}{warn}"
        return {
            "host": tr.gettext("Host a table…"),
            "join": tr.gettext("Join by address…"),
            "bots": tr.gettext("Play against bots"),
            "learn": tr.gettext("Learn to play"),
            "evening": tr.gettext("The evening's story…"),
            "settings": tr.gettext("Settings…"),
            "quit": tr.gettext("Quit"),
        }[kind]


    def warning(self, key: str) -> str | None:
        """Why a table found on the network may not be the one it seems to be."""
        info = self.tables[key]
        if self.known is not None and self.known.changed(info.name, info.key):
            return self.tr.gettext("This table's host key is not the one it had when you "
                                   "last joined: ask its host before you type a PIN.")
        folded = info.name.casefold()
        if any(k != key and other.name.casefold() == folded for k, other in self.tables.items()):
            return self.tr.gettext("Another table has the same name: compare the host key "
                                   "with the one on its host's screen.")
        return None

    def details(self) -> list[tuple[str, str]]:
        """Where the selected table is, its host key, and any warning about it."""
        entry = self.entry()
        if entry is None or entry[0] != "table":
            return []
        info = self.tables[entry[1]]
        key = short_fingerprint(info.key) if info.key else "?"
        address = format_address(info.addresses[0], info.port)
        out = [("class:dim", self.tr.gettext("{address} · host key {key}").format(
            address=address, key=key))]
        if info.watch_only:
            out.append(("class:message", self.tr.gettext(
                "Every seat is taken: you can watch this table (Enter or w).")))
        elif info.full and info.late_ask:
            out.append(("class:message", self.tr.gettext(
                "A bot plays a seat here: its owner may give it to you, with its score.")))
        elif info.full:
            out.append(("class:message", self.tr.gettext(
                "A bot plays a seat here: it is yours from the next hand, with its score.")))
        warning = self.warning(entry[1])
        if warning is not None:
            out.append(("class:warning", "⚠ " + warning))
        return out


class SettingsModel:
    ROWS = ("name", "language", "bell", "auto_pass", "back")

    def __init__(self, tr: Any, settings: Settings) -> None:
        self.tr = tr
        self.settings = settings
        self.index = 0

    @property
    def row(self) -> str:
        return self.ROWS[self.index]

    def move(self, step: int) -> None:
        self.index = (self.index + step) % len(self.ROWS)

    def cycle_language(self, step: int) -> str:
        current = self.settings.language or "en"
        language = LANGUAGES[(LANGUAGES.index(current) + step) % len(LANGUAGES)]
        self.settings.language = language
        return language


def lobby_container(model: LobbyModel, settings_model: Any, get_editor: Any,
                    showing_settings: Any) -> HSplit:
    tr = model.tr

    def title() -> StyleAndTextTuples:
        return [("class:title", " " + tr.gettext("President: the lobby") + " ")]

    def body() -> StyleAndTextTuples:
        if showing_settings():
            return settings_fragments(settings_model())
        if model.story is not None:
            return [("", line + "\n") for line in model.story]
        out: StyleAndTextTuples = []
        if model.tables or model.mine:
            out.append(("bold", tr.gettext("Tables on this network:") + "\n"))
        else:
            text = tr.gettext("Looking for tables on this network…") if model.discovery_ok \
                else tr.gettext("Table discovery is not available here; join by address.")
            out.append(("class:dim", text + "\n"))
        entries = model.entries()
        for i, entry in enumerate(entries):
            if entry[0] in MENU and (i == 0 or entries[i - 1][0] not in MENU):
                out.append(("", "\n"))
            chosen = i == model.index
            style = "class:menu.selected" if chosen else ""
            out.append((style, shorten(("▸ " if chosen else "  ") + model.label(entry),
                                       columns() - 1) + "\n"))
        details = model.details()
        if details:
            out.append(("", "\n"))
        for style, line in details:
            out.extend((style, part + "\n") for part in wrap(line, columns() - 1))
        return out

    def cursor() -> Point:
        if showing_settings():
            return Point(0, settings_model().index)
        if model.story is not None:
            return Point(0, 0)
        return Point(0, model.index + 2)

    def footer() -> StyleAndTextTuples:
        return fit_line(footer_fragments(get_editor(), model.message, []), columns() - 1)

    def keys() -> StyleAndTextTuples:
        keys = tr.gettext("↑↓ choose · Enter open · Esc back · Ctrl-Q quit")
        entry = model.entry()
        if entry is not None and entry[0] == "table":
            keys = tr.gettext("↑↓ choose · Enter join · w watch · Ctrl-Q quit")
        return [("class:keys", shorten(keys, columns() - 1))]

    return HSplit([
        Window(FormattedTextControl(title), height=1),
        Window(FormattedTextControl(body, get_cursor_position=cursor)),
        Window(FormattedTextControl(footer), height=1),
        Window(FormattedTextControl(keys), height=1),
    ])


def settings_fragments(model: SettingsModel) -> StyleAndTextTuples:
    tr = model.tr
    settings = model.settings
    values = {
        "name": (tr.gettext("Your name"), settings.name),
        "language": (tr.gettext("Language"),
                     "◀ " + LANGUAGE_NAMES.get(settings.language or "en", "") + " ▶"),
        "bell": (tr.gettext("Bell on your turn"),
                 "◀ " + (tr.gettext("on") if settings.bell else tr.gettext("off")) + " ▶"),
        "auto_pass": (tr.gettext("Pass when nothing beats the pile"),
                      "◀ " + (tr.gettext("on") if settings.auto_pass else tr.gettext("off"))
                      + " ▶"),
        "back": (tr.gettext("Back to the lobby"), ""),
    }
    out: StyleAndTextTuples = []
    labels = min(max(len(label) for label, _ in values.values()), (columns() - 1) // 2)
    for i, row in enumerate(model.ROWS):
        label, value = values[row]
        chosen = i == model.index
        style = "class:menu.selected" if chosen else ""
        line = f"{'▸' if chosen else ' '} {pad(label, labels)} {value}"
        out.append((style, shorten(line, columns() - 1) + "\n"))
    out.append(("class:dim", "\n" + "\n".join(
        wrap(tr.gettext("Saved for the next time you play."), columns() - 1))))
    return out

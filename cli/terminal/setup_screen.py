"""The host's set-up screen: table name, preset, seats, bots and their levels, PIN, and
"Open the table" under the cursor; the turn timer, stand-ins and every house rule one
level down ("More settings")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import HSplit, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension

from president.bots import DEFAULT_LEVEL, LEVELS
from president.cli.i18n import N_
from president.cli.table_setup import TableSetup
from president.cli.terminal.fit import pad, shorten, wrap
from president.cli.terminal.layout import columns, footer_fragments
from president.cli.terminal.model import LineEdit
from president.errors import RulesError
from president.rules import ALLOWED, MAX_PLAYERS, MIN_PLAYERS, PRESETS

FIRST_RULES = ("title_set", "session_end", "session_length")
TABLE_ROWS = ("name", "preset", "players", "bots", "pin", "start", "more")
MORE_ROWS = ("turn_timer", "hints", "late", "level")  # then the house rules, when "more" is open
BOT_ROW = "bot:"  # + the bot's number: one row per bot seat, after "bots"
TURN_TIMERS = (0, 15, 30, 60, 120)
LATE_ARRIVALS = {"take": N_("take a bot's seat"), "ask": N_("ask me first"),
                 "never": N_("watch only")}


class SetupModel:
    """The set-up of a new table (as the ``last`` one was, if given); with ``table`` (its
    ``TableInfo``), the owner changes an open table's rules (its name and seats stay)."""

    def __init__(self, tr: Any, text: Any, player_name: str, table: Any = None,
                 last: TableSetup | None = None) -> None:
        self.tr, self.text = tr, text
        self.for_table = table is not None
        self.name = tr.gettext("{name}'s table").format(name=player_name or "Party")
        self.preset = "classic"
        self.rules = PRESETS["classic"]
        self.players = self._player_range()[0]  # the preset's least; guests fill the seats
        self.bots = 0
        self.level = DEFAULT_LEVEL
        self.levels: list[str] = []
        self.pin = ""
        self.turn_timer = 0
        self.hints = True
        self.late_arrivals = "take"             # a newcomer takes a bot's seat, or watches
        self.more = False                       # the turn timer, stand-ins and house rules
        self.message: str | None = None
        self.confirming = False                 # "Open the table" asked: y opens it
        self._rule_rows = [*FIRST_RULES, *(f for f in ALLOWED if f not in FIRST_RULES)]
        if table is not None:
            self.name, self.preset, self.rules = table.name, table.preset, table.rules
            self.players = table.seats
        elif last is not None:
            self.name, self.preset, self.rules = last.name, last.preset, last.rules
            self.players, self.bots, self.pin = last.players, last.bots, last.pin or ""
            self.turn_timer, self.level = last.turn_timer, last.level
            self.levels, self.hints = list(last.levels), last.hints
            self.late_arrivals = last.late_arrivals
        self.index = self.rows.index("start")   # Enter opens the table at once

    @property
    def rows(self) -> list[str]:
        """The table's rows with one row per bot seat after "bots"; with "more" open,
        the turn timer, the stand-ins' level and the house rules."""
        if self.for_table:
            return ["preset", "start", *self._rule_rows]
        head = list(TABLE_ROWS)
        at = head.index("bots") + 1
        head[at:at] = [f"{BOT_ROW}{number}" for number in range(1, self.bots + 1)]
        return [*head, *MORE_ROWS, *self._rule_rows] if self.more else head

    @property
    def row(self) -> str:
        return self.rows[self.index]

    def toggle_more(self) -> None:
        self.more = not self.more
        self.index = self.rows.index("more")

    def move(self, step: int) -> None:
        self.index = (self.index + step) % len(self.rows)
        self.message = None

    def change(self, step: int) -> None:
        """Cycle the value of the current row."""
        row = self.row
        self.message = None
        if row == "preset":
            names = list(PRESETS)
            self.preset = names[(names.index(self.preset) + step) % len(names)]
            self.rules = PRESETS[self.preset]
            self._fit_players()
            self._check_seats()
        elif row == "players":
            low, high = self._player_range()
            span = range(low, high + 1)
            self.players = span[(span.index(self.players) + step) % len(span)] \
                if self.players in span else low
            self.bots = min(self.bots, self.players - 1)
            self._fit_levels()
        elif row == "bots":
            self.bots = (self.bots + step) % self.players
            self._fit_levels()
        elif row == "level":
            self.level = LEVELS[(LEVELS.index(self.level) + step) % len(LEVELS)]
            self.levels = [self.level] * self.bots  # every bot, then each may differ
        elif row.startswith(BOT_ROW):
            number = int(row[len(BOT_ROW):])
            level = self.levels[number - 1]
            self.levels[number - 1] = LEVELS[(LEVELS.index(level) + step) % len(LEVELS)]
        elif row == "hints":
            self.hints = not self.hints
        elif row == "late":
            choices = list(LATE_ARRIVALS)
            self.late_arrivals = choices[(choices.index(self.late_arrivals) + step)
                                         % len(choices)]
        elif row == "turn_timer":
            position = TURN_TIMERS.index(self.turn_timer)
            self.turn_timer = TURN_TIMERS[(position + step) % len(TURN_TIMERS)]
        elif row in ALLOWED:
            values = list(ALLOWED[row])
            current = getattr(self.rules, row)
            position = values.index(current) if current in values else 0
            value = values[(position + step) % len(values)]
            try:
                self.rules = replace(self.rules, **{row: value})
            except RulesError as error:
                self.message = self.tr.gettext("Not allowed: {detail}").format(
                    detail=", ".join(f"{k}={v}" for k, v in error.params.items()))
                return
            self._fit_players()
            self._check_seats()

    def _player_range(self) -> tuple[int, int]:
        return max(MIN_PLAYERS, self.rules.min_players), min(MAX_PLAYERS, self.rules.max_players)

    def _check_seats(self) -> None:
        """An open table keeps its seats: say so when these rules do not seat them."""
        low, high = self._player_range()
        if self.for_table and not low <= self.players <= high:
            self.message = self.text.reason("bad_player_count")

    def _fit_players(self) -> None:
        if self.for_table:
            return
        low, high = self._player_range()
        self.players = min(max(self.players, low), high)
        self.bots = min(self.bots, self.players - 1)
        self._fit_levels()

    def _fit_levels(self) -> None:
        """One level per bot seat: new seats get the table's level."""
        self.levels = (self.levels + [self.level] * self.bots)[:self.bots]

    def editor(self) -> LineEdit | None:
        """A text field for the current row, if it is one."""
        tr = self.tr
        if self.row == "name":
            return LineEdit(tr.gettext("Table name:"), self.name, self._set_name, max_length=40)
        if self.row == "pin":
            return LineEdit(tr.gettext("PIN (empty: none):"), self.pin, self._set_pin,
                            max_length=12)
        return None

    def _set_name(self, text: str) -> None:
        self.name = text.strip() or self.name

    def _set_pin(self, text: str) -> None:
        self.pin = text.strip()

    def confirm(self) -> None:
        """Enter on "Open the table": ask once before the table is shown to everyone."""
        self.confirming = True
        self.message = self.tr.gettext(
            "Open “{name}” and show it to everyone on this network? y yes · Esc no").format(
                name=self.name)

    def cancel(self) -> None:
        self.confirming, self.message = False, None

    def result(self) -> TableSetup:
        return TableSetup(self.name, self.preset, self.rules, self.players, self.bots,
                          self.pin or None, self.turn_timer, self.level, tuple(self.levels),
                          self.hints, self.late_arrivals)

    # ---------------------------------------------------------------- rendering

    def label(self, row: str) -> str:
        tr, text = self.tr, self.text
        labels = {
            "name": tr.gettext("Table name"), "preset": tr.gettext("Preset"),
            "players": tr.gettext("Seats"), "bots": tr.gettext("Bots"),
            "pin": tr.gettext("PIN"),
            "start": tr.gettext("Apply the rules") if self.for_table
            else tr.gettext("Open the table"),
            "more": tr.gettext("More settings…"),
            "turn_timer": tr.gettext("Turn timer"), "level": tr.gettext("Stand-in level"),
            "hints": tr.gettext("Hints"),
            "late": tr.gettext("Late arrivals"),
        }
        if row.startswith(BOT_ROW):
            return tr.gettext("Bot {number}").format(number=row[len(BOT_ROW):])
        return labels.get(row) or text.rule_name(row)

    def value(self, row: str) -> str:
        if row == "name":
            return self.name
        if row == "preset":
            return str(self.text.preset_name(self.preset))
        if row == "players":
            return str(self.players)
        if row == "bots":
            return str(self.bots)
        if row == "level":
            return str(self.text.bot_level(self.level))
        if row.startswith(BOT_ROW):
            return str(self.text.bot_level(self.levels[int(row[len(BOT_ROW):]) - 1]))
        if row == "pin":
            return self.pin or self.tr.gettext("none")
        if row == "start":
            return ""
        if row == "more":
            return "▾" if self.more else "▸"
        if row == "hints":
            return str(self.text.rule_value("hints", self.hints))
        if row == "late":
            return str(self.tr.gettext(LATE_ARRIVALS[self.late_arrivals]))
        if row == "turn_timer":
            if not self.turn_timer:
                return self.tr.gettext("none")
            return self.tr.gettext("{seconds} s").format(seconds=self.turn_timer)
        if row == "session_length" and hasattr(self.text, "session_length"):
            return str(self.text.session_length(self.rules.session_end, self.rules.session_length))
        return str(self.text.rule_value(row, getattr(self.rules, row)))

    def explanation(self) -> str:
        tr, row = self.tr, self.row
        own = {
            "name": tr.gettext("The name other players see in their lobby (Enter to edit)."),
            "preset": tr.gettext("A named set of house rules; ←→ to choose, then adjust below."),
            "players": tr.gettext("How many seats the table has, you included."),
            "bots": tr.gettext("Seats filled by bots; the others wait for players."),
            "pin": tr.gettext("Players must type this PIN to join (Enter to edit)."),
            "start": tr.gettext("Press Enter to give the table these rules.") if self.for_table
            else tr.gettext("Press Enter to open the table and sit down."),
            "more": tr.gettext("Enter shows or hides the turn timer, the stand-in bots' level "
                               "and every house rule of the preset."),
            "turn_timer": tr.gettext("Seconds a player has for a move before a bot plays it."),
            "hints": tr.gettext("Whether players may ask what a bot would play, and why (h)."),
            "late": tr.gettext("A friend who arrives once the game has started takes a bot's "
                               "seat and its score from the next hand (you may be asked "
                               "first), or may only watch."),
            "level": tr.gettext("How well a bot plays for an absent player; sets every bot "
                                "below too."),
        }
        if row.startswith(BOT_ROW):
            return tr.gettext("How well this bot plays: easy, medium (counts the cards) or "
                              "hard (thinks ahead).")
        return own.get(row) or self.text.rule_explanation(row)


def setup_container(model: SetupModel, get_editor: Any) -> HSplit:
    tr = model.tr

    def rows() -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for i, row in enumerate(model.rows):
            chosen = i == model.index
            style = "class:menu.selected" if chosen else ""
            value = model.value(row)
            arrows = "◀ " + value + " ▶" if row not in ("start", "name", "pin", "more") else value
            label = pad(model.label(row), min(34, max(12, columns() // 2 - 4)))
            line = f"{'▸' if chosen else ' '} {label} {arrows}"
            if row == "start":
                line = f"{'▸' if chosen else ' '} ▶▶ {model.label(row)}"
            out.append((style, shorten(line, columns() - 1) + "\n"))
        return out

    def footer() -> StyleAndTextTuples:
        return [(style, "\n".join(wrap(text, columns() - 1)), *rest)
                for style, text, *rest in footer_fragments(
                    get_editor(), model.message, [("class:message", model.explanation())])]

    def footer_height() -> int:
        return max(2, sum(text.count("\n") + 1 for _, text, *_ in footer()))

    return HSplit([
        Window(FormattedTextControl(lambda: [("class:title", " " + (
            tr.gettext("Change the rules") if model.for_table else tr.gettext("Host a table"))
            + " ")]), height=1),
        Window(FormattedTextControl(rows, get_cursor_position=lambda: Point(0, model.index))),
        Window(height=1, char="─", style="class:dim"),
        Window(FormattedTextControl(footer), height=lambda: Dimension.exact(footer_height())),
        Window(FormattedTextControl(lambda: [("class:keys", shorten(tr.gettext(
            "↑↓ choose · ←→ change · Enter edit/open · Esc back"), columns() - 1))]), height=1),
    ])

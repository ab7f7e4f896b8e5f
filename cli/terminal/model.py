"""The table's UI model: the last view, the selection, the log and messages.

Fed view dicts and event dicts (as the host sends them); produces action
dicts. Knows nothing about prompt_toolkit: the layout reads it to render.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from president.cards import Card, format_cards, parse_cards
from president.combos import classify, strengths
from president.engine import canonical_cards
from president.errors import PresidentError
from president.rules import HouseRules

LOG_LINES = 200

# rank key -> rank symbol in the card notation
RANK_KEYS: dict[str, str] = {
    "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "0": "10",
    "1": "10", "j": "J", "q": "Q", "k": "K", "a": "A", "2": "2", "x": "JK",
}


def normalize(cards: str) -> str:
    """A card list in canonical order, to compare selections with legal plays."""
    return " ".join(str(card) for card in parse_cards(cards))


class TableModel:
    def __init__(self, tr: Any, text: Any, clock: Any = time.monotonic) -> None:
        self.tr = tr
        self.text = text
        self.clock = clock
        self.view: dict[str, Any] | None = None
        self.info: dict[str, Any] = {}
        self.status = "connecting"
        self.status_detail: str | None = None
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.cursor = 0
        self.selected: set[int] = set()
        self.message: str | None = None
        self.help_open = False
        self.hand_summary: dict[str, Any] | None = None
        self.session_summary: dict[str, Any] | None = None
        self.turn_since: float | None = None
        self.busy = False                      # an action is on its way
        self.listeners: list[Any] = []         # called with no arguments on any change
        self.own_seat: int | None = None       # from the connection, before the first view
        self.log_back = 0                      # lines scrolled back from the newest

    # ------------------------------------------------------------ inputs

    def changed(self) -> None:
        for callback in self.listeners:
            callback()

    def view_changed(self, view: dict[str, Any]) -> None:
        old = self.view
        old_hand = old["hand"] if old else None
        if old is None or old.get("turn") != view.get("turn") or old.get("phase") != view["phase"]:
            self.turn_since = self.clock()
            self.message = None
        self.view = view
        if old_hand != view["hand"]:
            self.selected.clear()
        self.cursor = min(self.cursor, max(0, len(self.hand_cards()) - 1))
        self.changed()

    def event(self, event: dict[str, Any]) -> None:
        players = self.view["players"] if self.view else self.info.get("players", [])
        seat = self.seat
        kind = event.get("type")
        if kind == "hand_end":
            self.hand_summary = dict(event)
        elif kind == "session_end":
            self.session_summary = dict(event)
        elif kind == "deal":
            self.hand_summary = None
        self.log.append(self.text.event(event, list(players), seat))
        if self.log_back:
            self.log_back = min(self.log_back + 1, len(self.log) - 1)  # keep the same lines
        self.changed()

    def scroll_log(self, lines: int) -> None:
        """Scroll the log back (positive) or forward; 0 lines back shows the newest."""
        self.log_back = max(0, min(len(self.log) - 1, self.log_back + lines))
        self.changed()

    def status_changed(self, status: str, detail: str | None = None) -> None:
        self.status = status
        self.status_detail = detail
        self.changed()

    # ------------------------------------------------------------ derived

    @property
    def seat(self) -> int | None:
        if self.view is not None:
            return self.view.get("seat")
        return self.own_seat

    @property
    def rules(self) -> HouseRules:
        data = self.info.get("rules")
        if isinstance(data, dict):
            try:
                return HouseRules.from_dict(data)
            except (PresidentError, TypeError):
                pass
        return HouseRules()

    @property
    def phase(self) -> str | None:
        return self.view["phase"] if self.view else None

    @property
    def my_turn(self) -> bool:
        return self.view is not None and self.view["turn"] == self.seat and self.phase == "play"

    def strength(self, card: Card) -> tuple[int, int]:
        table = strengths(self.rules.rank_order, bool(self.view and self.view["reversed"]))
        return (table[card.rank], -1 if card.suit is None else int(card.suit))

    def hand_cards(self) -> list[Card]:
        """The hand, lowest first under the current order (a revolution flips it)."""
        if not self.view:
            return []
        return sorted(parse_cards(self.view["hand"]), key=self.strength)

    def selected_cards(self) -> list[Card]:
        hand = self.hand_cards()
        return [hand[i] for i in sorted(self.selected) if i < len(hand)]

    def legal_of(self, kind: str) -> list[dict[str, Any]]:
        return [a for a in (self.view or {}).get("legal", []) if a.get("type") == kind]

    def can(self, kind: str) -> bool:
        return bool(self.legal_of(kind))

    # ------------------------------------------------------------ selection

    def move(self, step: int) -> None:
        count = len(self.hand_cards())
        if count:
            self.cursor = (self.cursor + step) % count
        self.changed()

    def toggle(self, index: int | None = None) -> None:
        index = self.cursor if index is None else index
        if 0 <= index < len(self.hand_cards()):
            self.selected ^= {index}
            self.cursor = index
        self.message = None
        self.changed()

    def set_selected(self, chosen: bool) -> None:
        """Raise (select) or lower (unselect) the card under the cursor."""
        if 0 <= self.cursor < len(self.hand_cards()):
            if chosen:
                self.selected.add(self.cursor)
            else:
                self.selected.discard(self.cursor)
        self.message = None
        self.changed()

    def clear_selection(self) -> None:
        self.selected.clear()
        self.message = None
        self.changed()

    def select_rank(self, symbol: str) -> None:
        """Select the cards of one rank: as many as the pile asks for, then one fewer
        on each press (wrapping to all)."""
        hand = self.hand_cards()
        indices = [i for i, card in enumerate(hand) if card.rank.symbol == symbol]
        self.message = None
        if not indices:
            self.message = self.tr.gettext("You have no card of that rank.")
            self.changed()
            return
        current = self.selected
        if current and current <= set(indices):
            size = len(current) - 1 or len(indices)
        else:
            size = min(self.pile_size() or len(indices), len(indices))
        self.selected = set(indices[:size])
        self.cursor = indices[0]
        self.changed()

    def rank_for_letter(self, letter: str) -> str | None:
        """The rank whose letter in the player's language is ``letter``."""
        for symbol in ("J", "Q", "K", "A", "JK"):
            if str(self.text.rank(symbol)).lower() == letter.lower():
                return symbol
        return None

    def pile_size(self) -> int:
        pile = (self.view or {}).get("pile") or []
        return len(pile[-1][1].split()) if pile else 0

    def select_lowest(self) -> bool:
        """Select the lowest legal set; True when it was already selected."""
        plays = self.legal_of("play") or self.legal_of("give_back")
        if not plays:
            self.message = self.tr.gettext("You have nothing to play now.")
            self.changed()
            return False
        leading = not (self.view or {}).get("pile")

        def key(action: dict[str, Any]) -> tuple[int, int]:
            cards = parse_cards(action["cards"])
            top = max(self.strength(card)[0] for card in cards)
            return (top, -len(cards) if leading else len(cards))

        best = normalize(min(plays, key=key)["cards"])
        already = self.selection_text() == best
        self._select_cards(best)
        self.message = None
        self.changed()
        return already

    def _select_cards(self, cards: str) -> None:
        wanted = list(parse_cards(cards))
        chosen: set[int] = set()
        for i, card in enumerate(self.hand_cards()):
            if card in wanted:
                wanted.remove(card)
                chosen.add(i)
        self.selected = chosen
        if chosen:
            self.cursor = min(chosen)

    def selection_text(self) -> str:
        return " ".join(str(card) for card in sorted(self.selected_cards()))

    # ------------------------------------------------------------ actions

    def confirm_action(self) -> dict[str, Any] | None:
        """What Enter sends now, or None (with ``message`` saying why)."""
        phase = self.phase
        self.message = None
        if phase == "play":
            return self._play_action()
        if phase == "tax":
            return self._give_back_action()
        if phase == "hand_over":
            return self.ready_action()
        return None

    def listed_form(self, *, single: bool) -> str:
        """The selection as ``legal`` lists it: cards that differ only in suit stand
        for each other (engine.canonical_cards)."""
        hand = tuple(sorted(parse_cards((self.view or {}).get("hand", ""))))
        cards = tuple(sorted(self.selected_cards()))
        return format_cards(canonical_cards(hand, cards, self.rules, single=single))

    def _play_action(self) -> dict[str, Any] | None:
        if self.selection_is_legal():
            return {"type": "play", "cards": self.selection_text()}
        self.message = self.text.reason(self.why_not(self.selected_cards()), {})
        self.changed()
        return None

    def selection_is_legal(self) -> bool:
        listed = self.listed_form(single=True)
        return bool(self.selected) and any(
            normalize(a["cards"]) == listed for a in self.legal_of("play"))

    def selection_hint(self) -> str | None:
        """While choosing: why the selection could not be played (None if it could)."""
        if not self.my_turn or not self.selected or self.selection_is_legal():
            return None
        return str(self.text.reason(self.why_not(self.selected_cards()), {}))

    def why_not(self, cards: list[Card]) -> str:
        """The reason code why a selection is not a legal play."""
        view = self.view or {}
        if view.get("phase") != "play":
            return "wrong_phase"
        if view.get("turn") != self.seat:
            return "not_your_turn"
        if not cards:
            return "empty_play"
        combo = classify(tuple(sorted(cards)), self.rules, bool(view.get("reversed")))
        if isinstance(combo, str):
            return combo
        pile = view.get("pile") or []
        if pile and self.rules.set_size_rule == "same" and len(cards) != self.pile_size():
            return "wrong_size"
        return "too_low"

    def _give_back_action(self) -> dict[str, Any] | None:
        owed = (self.view or {}).get("tax_owed", 0)
        if not owed:
            self.message = self.text.reason("no_tax_due", {})
            self.changed()
            return None
        chosen = self.selection_text()
        listed = self.listed_form(single=False)
        if any(normalize(a["cards"]) == listed for a in self.legal_of("give_back")):
            return {"type": "give_back", "cards": chosen}
        self.message = self.text.reason("wrong_count", {})
        self.changed()
        return None

    def pass_action(self) -> dict[str, Any] | None:
        if self.can("pass"):
            return {"type": "pass"}
        view = self.view or {}
        if view.get("phase") != "play":
            code = "wrong_phase"
        elif view.get("turn") != self.seat:
            code = "not_your_turn"
        else:
            code = "must_lead"
        self.message = self.text.reason(code, {})
        self.changed()
        return None

    def ready_action(self) -> dict[str, Any] | None:
        if self.can("ready"):
            return {"type": "ready"}
        if self.phase == "hand_over":
            self.message = self.tr.gettext("Waiting for the others to be ready.")
            self.changed()
        return None

    def refused(self, reason: str) -> None:
        self.message = self.text.reason(reason, {})
        self.changed()

    # ------------------------------------------------------------ decree

    def may_decree(self) -> bool:
        if not self.can("decree"):
            self.message = self.text.reason("not_president", {})
            self.changed()
            return False
        return True

    @staticmethod
    def decree_action(text: str) -> dict[str, Any] | None:
        text = text.strip()
        return {"type": "decree", "text": text} if text else None

    # ------------------------------------------------------------ timer

    def turn_seconds_left(self) -> int | None:
        limit = self.info.get("turn_timer") or 0
        if not limit or self.turn_since is None or self.phase not in ("play", "tax"):
            return None
        return max(0, int(limit - (self.clock() - self.turn_since) + 0.999))


class LineEdit:
    """A one-line text field typed into from the key bindings (names, PIN, decree)."""

    def __init__(self, label: str, text: str, on_done: Any, max_length: int = 200,
                 secret: bool = False) -> None:
        self.label = label
        self.text = text
        self.on_done = on_done
        self.max_length = max_length
        self.secret = secret

    def insert(self, chars: str) -> None:
        chars = "".join(c for c in chars if c.isprintable())
        self.text = (self.text + chars)[: self.max_length]

    def backspace(self) -> None:
        self.text = self.text[:-1]

    def shown(self) -> str:
        return ("*" * len(self.text) if self.secret else self.text) + "▏"

"""The table's UI model: the last view, the selection, the log and messages.

Fed the client's events (``on_event``: views, game events, the table, the status);
produces engine actions. Asks the engine (``president.refusals``) whether a
selection may be played and why not. Knows nothing about prompt_toolkit: the layout
reads it to render.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from enum import StrEnum
from itertools import combinations
from typing import Any

from president.actions import Action, Decree, Discard, Give, GiveBack, Pass, Play, Ready
from president.bots.advice import Suggestion
from president.bots.knowledge import PlayTracker
from president.bots.medium import MediumBot
from president.cards import Card, format_cards, parse_cards
from president.cli.text import HINTS_OFF, NO_HINT, REACTIONS, RULE_OF_EVENT, reaction_code
from president.combos import classify, strengths
from president.events import Event
from president.moves import canonical_declaration
from president.net.client import ClientEvent, StatusChanged
from president.net.pake import short_fingerprint
from president.net.protocol import TableInfo
from president.net.session import (
    ChatReceived,
    GameEvent,
    Joined,
    JoinFailed,
    Status,
    TableChanged,
    ViewChanged,
)
from president.refusals import refusal, wild_reason
from president.rules import HouseRules
from president.view import Choosing, View

LOG_LINES = 200

# rank key -> rank symbol in the card notation
RANK_KEYS: dict[str, str] = {
    "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "0": "10",
    "1": "10", "j": "J", "q": "Q", "k": "K", "a": "A", "2": "2", "x": "JK",
}


# The kind of move a hint names (``cli.text.HINT_MOVES``), by its action.
HINT_MOVE: dict[type, str] = {Play: "play", Pass: "pass", Give: "give", Discard: "discard",
                              GiveBack: "give_back"}


class Seen(StrEnum):
    """The table as the screen shows the connection to it."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    LOST = "lost"               # dropped (or not reachable yet): trying again
    REFUSED = "refused"         # the host said no for good
    CLOSED = "closed"


SEEN = {Status.NEW: Seen.CONNECTING, Status.CONNECTING: Seen.CONNECTING,
        Status.CONNECTED: Seen.CONNECTED, Status.RECONNECTING: Seen.LOST,
        Status.CLOSED: Seen.CLOSED}


class TableModel:
    def __init__(self, tr: Any, text: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.tr = tr
        self.text = text
        self.clock = clock
        self.view: View | None = None
        self.table: TableInfo | None = None
        self.owner = False                    # we opened the table: we may start early
        self.hosted_here = False              # ... and it lives in this window (play --bots)
        self.address: str | None = None       # where others join a table we host
        self.web_url: str | None = None       # ... and where phones open its page
        self.unadvertised = False             # ... not in the lobbies: join by address
        self.qr_open = False                  # ... its page's QR code shown alone (u)
        self.host_key: str | None = None      # the fingerprint of the key the host proved
        self.status = Seen.CONNECTING
        self.status_detail: str | None = None
        self.knocking = False               # past the PIN budget: asking the owner instead
        self.status_params: dict[str, Any] = {}   # ... and its particulars (an address)
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.cursor = 0
        self.selected: set[int] = set()
        self.message: str | None = None
        self.help_open = False
        self.leave_asked = False              # Ctrl-Q / Ctrl-C at the table: step away or leave?
        self.hand_summary: dict[str, Any] | None = None
        # seats sent to the bottom this hand, and why ("forbidden", "downfall")
        self.sent_down: dict[int, str] = {}
        self.session_summary: dict[str, Any] | None = None
        self.turn_since: float | None = None
        self.busy = False                      # an action is on its way: Enter waits
        self.listeners: list[Callable[[], None]] = []  # called on any change
        self.own_seat: int | None = None       # from the welcome, before the first view
        self.log_back = 0                      # lines scrolled back from the newest
        self._sheet: dict[int, list[int]] = {}  # hand -> totals, from the hand ends seen
        self.duplicate: dict[str, Any] | None = None  # a duplicate session's comparison
        self.received: list[Card] = []         # cards the tax gave us this hand
        self.gifted = False                    # ... or a 7-pass (some of them)
        self.bell_due = False                  # our move or tax has just begun
        self.only_pass_due = False             # ... a move where we can only pass
        self.summary_top = 0                   # the summary's first line shown
        self.summary_below = 0                 # ... its lines below the screen, and
        self.summary_rows = 1                  # ... how many it shows (set by the layout)
        # Wild jokers: what the selected jokers may stand for (the chooser is open while
        # not None), most useful first, and the one under the cursor.
        self.declaring: list[tuple[Card, ...]] | None = None
        self.declare_index = 0
        self._declarations: tuple[View, tuple[Card, ...], list[tuple[Card, ...]]] | None = None
        self._no_value: tuple[View, tuple[Card, ...], str] | None = None
        # Hints (issue 28): the cards this seat saw played this hand (the medium bot's
        # memory, from our own views only), and the hints of the view they were made for.
        self.memory = PlayTracker()
        self.last_rule: str | None = None      # the house rule the last special event showed
        self.lesson: Callable[[], str] | None = None  # "Learn to play": the step's line
        self._hints: tuple[View, list[Suggestion]] | None = None
        self.hint_index = 0

    # ------------------------------------------------------------ inputs

    def changed(self) -> None:
        for callback in self.listeners:
            callback()

    def on_event(self, event: ClientEvent) -> None:
        """The client's events: the one way the table reaches the model."""
        match event:
            case Joined(seat=seat, table=table, host_key=host_key, key_was=key_was):
                self.own_seat, self.table, self.host_key = seat, table, host_key
                if key_was is not None and host_key is not None:
                    self.add_log_line("⚠ " + self.tr.gettext(
                        "This table's host key changed since you last joined ({old} → {new}): "
                        "if its host did not reinstall, ask them.").format(
                            old=short_fingerprint(key_was), new=short_fingerprint(host_key)))
                self.status_changed(Seen.CONNECTED)
            case TableChanged(table=table):
                self.table = table
                self.changed()
            case ViewChanged(view=view):
                self.view_changed(view)
            case GameEvent(event=game_event, by=by):
                self.event(game_event, by)
            case ChatReceived(name=name, text=text):
                line = self.tr.gettext("{name}: {text}").format(
                    name=name, text=self.text.chat_text(text))
                if self.summary_shown:     # the summary hides the log: show it below
                    self.message = line
                self.add_log_line(line)
            case JoinFailed(code=code, params=params, final=True):
                self.status_changed(Seen.REFUSED, code, params)
            case JoinFailed(code=code, final=False):      # e.g. the owner decides
                self.status_changed(Seen.LOST, code)
            case StatusChanged(status=status, code=code):
                self.status_changed(SEEN[status], code)

    def view_changed(self, view: View) -> None:
        old = self.view
        if old is None or old.turn != view.turn or old.phase != view.phase:
            self.turn_since = self.clock()
            self.message = None
        began = our_call(view) and (old is None or not our_call(old))
        self.bell_due = self.bell_due or began
        self.only_pass_due = began and view.phase == "play" and not any(
            isinstance(action, Play) for action in view.legal)
        if self.session_summary is not None and view.phase != "session_over":
            self.new_session()               # the owner played again (seen in a snapshot)
        self.view = view
        if view.seat is not None and view.phase == "play":
            self.memory.update(view)
        if old is None or old.hand != view.hand:
            self.selected.clear()
        if old is None or old.hand != view.hand or old.turn != view.turn or old.top != view.top:
            self.declaring = None
        self.cursor = min(self.cursor, max(0, len(self.hand_cards()) - 1))
        self.changed()

    def event(self, event: Event, by: str = "") -> None:
        if event.code in RULE_OF_EVENT:
            self.last_rule = RULE_OF_EVENT[event.code]
        if event.code == "hand_end":
            self.hand_summary = dict(event.params)
            self.summary_top = 0
            self._sheet[int(event.params["hand"])] = list(event.params["scores"])
        elif event.code == "session_end":
            self.session_summary = dict(event.params)
        elif event.code == "deal":
            if self.session_summary is not None:
                self.new_session()           # the owner played again
            self.hand_summary = None
            self.received, self.gifted = [], False
            self.sent_down = {}
        elif event.code == "duplicate":     # the same deals: who held which cards
            self.duplicate = dict(event.params)
        elif event.code == "away":          # back at the table: what the bot did
            self.message = self.text.event(event, self.players, self.seat, by)
        elif event.code in ("forbidden", "downfall"):
            self.sent_down[int(event.params["seat"])] = event.code
        elif event.code in ("tax", "give") and event.params.get("to") == self.seat \
                and event.params.get("cards"):
            self.received.extend(parse_cards(event.params["cards"]))
            self.gifted = self.gifted or event.code == "give"
        self.add_log_line(self.text.event(event, self.players, self.seat, by))

    def new_session(self) -> None:
        """A new session at the same table: the last one's summaries are history."""
        self.session_summary = self.hand_summary = None
        self._sheet.clear()
        self.duplicate = None
        self.received = []
        self.summary_top = 0
        self.add_log_line(self.tr.gettext("A new session at this table: the scores start "
                                          "again."))

    def add_log_line(self, line: str) -> None:
        self.log.append(line)
        if self.log_back:
            self.log_back = min(self.log_back + 1, len(self.log) - 1)  # keep the same lines
        self.changed()

    def scroll_log(self, lines: int) -> None:
        """Scroll the log back (positive) or forward; 0 lines back shows the newest.
        At the end of a hand or session, scroll its summary instead."""
        if self.summary_shown:  # by a page
            return self.scroll_summary(self.summary_rows * (-1 if lines > 0 else 1))
        self.log_back = max(0, min(len(self.log) - 1, self.log_back + lines))
        self.changed()

    def chat_prompt(self) -> str:
        """The chat field's label, with the quick reactions' numbers."""
        reactions = " · ".join(f"{n} {self.tr.gettext(text)}"
                               for n, text in enumerate(REACTIONS, 1))
        return self.tr.gettext("Say ({reactions}):").format(reactions=reactions)

    def chat_line(self, text: str) -> str | None:
        """What a chat field's ``text`` sends: a quick reaction's code by its number (each
        reader sees it in their own language), or the text."""
        text = text.strip()
        if text in {str(n) for n in range(1, len(REACTIONS) + 1)}:
            return reaction_code(int(text))
        return text or None

    def scroll_summary(self, lines: int) -> None:
        """Scroll the end-of-hand / end-of-session summary down (positive) or up."""
        self.summary_top = max(0, self.summary_top + lines)
        self.changed()

    @property
    def summary_shown(self) -> bool:
        """The log's place shows the summary of the hand or session that just ended."""
        return self.phase in ("hand_over", "session_over") and bool(
            self.hand_summary or self.session_summary)

    def status_changed(self, status: Seen, detail: str | None = None,
                       params: Mapping[str, Any] | None = None) -> None:
        self.status = status
        self.status_detail = detail
        self.status_params = dict(params or {})
        self.changed()

    # ------------------------------------------------------------ derived

    @property
    def seat(self) -> int | None:
        if self.view is not None:
            return self.view.seat
        return self.own_seat

    @property
    def players(self) -> list[str]:
        """Names by seat ("?" for a free seat)."""
        if self.view is not None:
            return list(self.view.players)
        return [name or "?" for name in (self.table.players if self.table else ())]

    @property
    def score_sheet(self) -> list[tuple[int, list[int]]]:
        """(hand, totals) for the hands of the session: those whose end we saw (live, or
        told on our return) and those the view carries between hands (its results, the
        hands before we sat down included)."""
        sheet = dict(self._sheet)
        view = self.view
        if view is not None and view.phase in ("hand_over", "session_over"):
            for back, result in enumerate(reversed(view.results)):
                sheet.setdefault(view.hand_number - back, list(result.scores))
        return sorted(sheet.items())

    @property
    def seat_request(self) -> int | None:
        """As the owner: a seat someone asks for by name, to give or refuse."""
        if not self.owner or self.table is None or not self.table.seat_requests:
            return None
        return self.table.seat_requests[0]

    @property
    def again(self) -> bool:
        """The session is over and the table waits for its owner to play again."""
        return (self.phase == "session_over" and self.status == Seen.CONNECTED
                and self.table is not None and self.table.again)

    @property
    def may_play_again(self) -> bool:
        """We own the table and may start a new session at it with the same players."""
        return self.owner and self.again

    @property
    def rules(self) -> HouseRules:
        return self.table.rules if self.table is not None else HouseRules()

    @property
    def phase(self) -> str | None:
        return self.view.phase if self.view else None

    @property
    def my_turn(self) -> bool:
        return self.view is not None and self.view.turn == self.seat and self.phase == "play"

    @property
    def choosing(self) -> Choosing | None:
        """A 7-pass or 10-discard this seat is to choose now (None otherwise)."""
        choosing = self.view.choosing if self.view else None
        return choosing if choosing is not None and choosing.seat == self.seat else None

    def choice_action(self, cards: tuple[Card, ...]) -> Give | Discard:
        """The 7-pass or 10-discard of ``cards`` (while ``choosing``)."""
        kind = Give if self.choosing and self.choosing.kind == "give" else Discard
        return kind(self.seat or 0, cards)

    def strength(self, card: Card) -> tuple[int, int]:
        table = strengths(self.rules.rank_order, bool(self.view and self.view.reversed))
        return (table[card.rank], -1 if card.suit is None else int(card.suit))

    def hand_cards(self) -> list[Card]:
        """The hand, lowest first under the current order (a revolution flips it)."""
        if not self.view:
            return []
        return sorted(self.view.hand, key=self.strength)

    def playable_indices(self) -> frozenset[int] | None:
        """On our turn, where the cards are that some legal play uses (None otherwise)."""
        if not self.my_turn:
            return None
        usable = {card for action in self.view.legal if isinstance(action, (Play, Give, Discard))
                  for card in action.cards} if self.view else set()
        return frozenset(i for i, card in enumerate(self.hand_cards()) if card in usable)

    def received_indices(self) -> frozenset[int]:
        """Where in the hand the cards received in this hand's tax are."""
        left = list(self.received)
        found = set()
        for i, card in enumerate(self.hand_cards()):
            if card in left:
                left.remove(card)
                found.add(i)
        return frozenset(found)

    def selected_cards(self) -> tuple[Card, ...]:
        hand = self.hand_cards()
        return tuple(sorted(hand[i] for i in self.selected if i < len(hand)))

    def selection_text(self) -> str:
        return format_cards(self.selected_cards())

    def legal_of(self, kind: type[Action]) -> list[Action]:
        return [a for a in (self.view.legal if self.view else ()) if isinstance(a, kind)]

    def can(self, kind: type[Action]) -> bool:
        return bool(self.legal_of(kind))

    def refusal(self, action: Action) -> str | None:
        """The engine's answer for ``action`` now: None (legal) or the reason code."""
        if self.view is None or self.seat is None:
            return "spectator" if self.view is not None else "not_started"
        return refusal(self.view, action)

    # ------------------------------------------------------------ selection

    def no_hand_here(self) -> bool:
        """Before the first deal, or watching: say so (a card key did nothing)."""
        if self.view is not None and self.view.seat is not None:
            return False
        self.message = self.tr.gettext("The game has not started yet.") if self.view is None \
            else self.tr.gettext("You are watching this table.")
        self.changed()
        return True

    def unknown_key(self, key: str) -> None:
        """A key that does nothing here: say so, and where the keys are."""
        self.message = self.tr.gettext("{key}: nothing to do with this key here · ? help").format(
            key=key)
        self.changed()

    def move(self, step: int) -> None:
        if self.no_hand_here():
            return
        count = len(self.hand_cards())
        if count:
            self.cursor = (self.cursor + step) % count
        self.changed()

    def toggle(self, index: int | None = None) -> None:
        if self.no_hand_here():
            return
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
        on each press (wrapping to all). While choosing a 7-pass or 10-discard, each
        press adds one more card of the rank to the selection (then takes them all off)."""
        if self.no_hand_here():
            return
        hand = self.hand_cards()
        indices = [i for i, card in enumerate(hand) if card.rank.symbol == symbol]
        self.message = None
        if not indices:
            self.message = self.tr.gettext("You have no card of that rank.")
            self.changed()
            return
        current = self.selected
        if self.choosing is not None:  # a 7-pass or 10-discard: a rank key adds one card
            free = [i for i in indices if i not in current]
            self.selected = current | {free[0]} if free else current - set(indices)
            self.cursor = free[0] if free else indices[0]
            self.changed()
            return
        if current and current <= set(indices):
            size = len(current) - 1 or len(indices)
        else:
            size = min(self.pile_size() or len(indices), len(indices))
        chosen = self._fitting(hand, indices, size)
        self.selected = set(chosen)
        self.cursor = chosen[0]
        self.changed()

    def _fitting(self, hand: list[Card], indices: list[int], size: int) -> list[int]:
        """``size`` of ``indices`` (cards of one rank in ``hand``): the first choice the
        table would take (a suit lock asks for its suits), else the first ones."""
        if self.my_turn and size < len(indices):
            for choice in combinations(indices, size):
                if self.refusal(Play(self.seat or 0, tuple(hand[i] for i in choice))) is None:
                    return list(choice)
        return indices[:size]

    def rank_for_letter(self, letter: str) -> str | None:
        """The rank whose letter in the player's language is ``letter``."""
        for symbol in ("J", "Q", "K", "A", "JK"):
            if str(self.text.rank(symbol)).lower() == letter.lower():
                return symbol
        return None

    def pile_size(self) -> int:
        pile = self.view.pile if self.view else ()
        return len(pile[-1][1]) if pile else 0

    def select_lowest(self) -> bool:
        """Select the lowest legal set; True when it was already selected."""
        plays: list[Play | GiveBack | Give | Discard] = [
            a for a in self.view.legal if isinstance(a, (Play, GiveBack, Give, Discard))
        ] if self.view else []
        if not plays:
            self.message = self.tr.gettext("You have nothing to play now.")
            self.changed()
            return False
        leading = not (self.view and self.view.pile)

        def key(action: Play | GiveBack | Give | Discard) -> tuple[int, int]:
            top = max(self.strength(card)[0] for card in action.cards)
            return (top, -len(action.cards) if leading else len(action.cards))

        best = min(plays, key=key).cards
        already = self.selected_cards() == best
        self._select_cards(best)
        self.message = None
        self.changed()
        return already

    def _select_cards(self, cards: tuple[Card, ...]) -> None:
        wanted = list(cards)
        chosen: set[int] = set()
        for i, card in enumerate(self.hand_cards()):
            if card in wanted:
                wanted.remove(card)
                chosen.add(i)
        self.selected = chosen
        if chosen:
            self.cursor = min(chosen)

    # ------------------------------------------------------------ hints

    @property
    def hints_allowed(self) -> bool:
        """The table's owner may turn hints off for everyone (``TableInfo.hints``)."""
        return bool(getattr(self.table, "hints", True))

    def hint(self) -> None:
        """Select what the medium bot would play from our view and say why; asked again
        for the same view, the next option it ranked."""
        if self.no_hand_here():
            return
        view = self.view
        assert view is not None
        if not self.hints_allowed:
            self.message = self.tr.gettext(HINTS_OFF)
            return self.changed()
        known = self._hints
        if known is not None and known[0] is view:
            self.hint_index += 1
        else:
            known = self._hints = (view, MediumBot(memory=self.memory).suggest(view))
            self.hint_index = 0
        suggestions = known[1]
        if not suggestions:
            self.message = self.tr.gettext(NO_HINT)
            return self.changed()
        chosen = suggestions[self.hint_index % len(suggestions)]
        action = chosen.action
        cards: tuple[Card, ...] = getattr(action, "cards", ())
        self._select_cards(cards)
        self.declaring = None
        self.message = self.text.hint(HINT_MOVE[type(action)], cards, chosen.reason,
                                      chosen.params)
        self.changed()

    def hinted_pass(self) -> bool:
        """Whether the hint shown for this view says to pass (then Enter passes, as the
        hint's cards would be played)."""
        known = self._hints
        if known is None or known[0] is not self.view or not known[1]:
            return False
        return isinstance(known[1][self.hint_index % len(known[1])].action, Pass)

    # ------------------------------------------------------------ actions

    def confirm_action(self) -> Action | None:
        """What Enter sends now, or None (with ``message`` saying why)."""
        self.message = None
        if self.no_hand_here():
            return None
        if self.choosing is not None:  # a 7-pass or 10-discard
            return self._checked(self.choice_action(self.selected_cards()))
        if self.phase == "play":
            cards = self.selected_cards()
            if not cards and self.hinted_pass():
                return self._checked(Pass(self.seat or 0))
            if self.wild_selection(cards):
                return self._declared(cards)
            return self._checked(Play(self.seat or 0, cards))
        if self.phase == "tax":
            return self._checked(GiveBack(self.seat or 0, self.selected_cards()))
        if self.phase == "hand_over":
            return self.ready_action()
        return None

    # ------------------------------------------------------------ wild jokers

    def wild_selection(self, cards: tuple[Card, ...]) -> bool:
        """Whether ``cards`` hold a joker that stands for another card (``joker_mode =
        wild``: jokers with other cards), so that its player says which."""
        jokers = sum(1 for card in cards if card.suit is None)
        return self.rules.joker_mode == "wild" and 0 < jokers < len(cards)

    def declarations(self, cards: tuple[Card, ...]) -> list[tuple[Card, ...]]:
        """What the jokers among ``cards`` may legally stand for, the most useful first
        (the play that ranks highest in the order in force). Where suits do not matter
        the suits are those the hand lacks (``moves.canonical_declaration``)."""
        view, seat = self.view, self.seat
        if view is None or seat is None:
            return []
        known = self._declarations
        if known is not None and known[0] is view and known[1] == cards:
            return known[2]  # (asked again at every redraw while the selection stands)
        found: dict[tuple[Card, ...], int] = {}
        table = strengths(self.rules.rank_order, view.reversed)
        for action in view.legal:
            if not isinstance(action, Play) or not action.declared:
                continue
            declared = canonical_declaration(view.hand, cards, action.declared, self.rules)
            if declared in found or refusal(view, Play(seat, cards, declared)) is not None:
                continue
            combo = classify(cards, self.rules, view.reversed, declared)
            found[declared] = table[combo.rank] if not isinstance(combo, str) else -1
        options = sorted(found, key=lambda declared: -found[declared])
        self._declarations = (view, cards, options)
        return options

    def no_value_reason(self, cards: tuple[Card, ...]) -> str:
        """Why the jokers among ``cards`` have no value to offer: the engine's reason for
        the cards as they are (not the turn...), else ``refusals.wild_reason``."""
        code = self.refusal(Play(self.seat or 0, cards))
        if code not in (None, "joker_undeclared") or self.view is None:
            return code or "bad_declaration"
        known = self._no_value
        if known is None or known[0] is not self.view or known[1] != cards:
            known = self._no_value = (self.view, cards, wild_reason(self.view, cards))
        return known[2]  # (asked again at every redraw while the selection stands)

    def _declared(self, cards: tuple[Card, ...]) -> Action | None:
        """Enter with a wild joker selected: the play when one value is legal, else the
        chooser opens (None) on the most useful value; or the reason none is."""
        options = self.declarations(cards)
        if not options:
            self.refused(self.no_value_reason(cards))
            return None
        if len(options) == 1:
            return Play(self.seat or 0, cards, options[0])
        self.declaring, self.declare_index = options, 0
        self.changed()
        return None

    def move_declaration(self, step: int) -> None:
        if self.declaring:
            self.declare_index = (self.declare_index + step) % len(self.declaring)
            self.changed()

    def declaration_action(self, index: int | None = None) -> Action | None:
        """The play with the value chosen (``index``, else the one under the cursor);
        the chooser closes."""
        options = self.declaring
        if not options:
            return None
        chosen = options[self.declare_index if index is None else index]
        self.declaring = None
        self.changed()
        return self._checked(Play(self.seat or 0, self.selected_cards(), chosen))

    def cancel_declaration(self) -> None:
        self.declaring = None
        self.changed()

    def _checked(self, action: Action) -> Action | None:
        """``action`` if the engine would take it, else None and the reason shown."""
        code = self.refusal(action)
        if code is None:
            return action
        self.refused(code)
        return None

    def selection_hint(self) -> str | None:
        """While choosing: why the selection could not be played (None if it could)."""
        if not self.my_turn or not self.selected or self.choosing is not None:
            return None  # (a 7-pass or 10-discard: the header says how many)
        cards = self.selected_cards()
        if self.wild_selection(cards):
            if self.declarations(cards):
                return None  # Enter asks what the joker stands for
            return str(self.text.reason(self.no_value_reason(cards)))
        code = self.refusal(Play(self.seat or 0, cards))
        return None if code is None else str(self.text.reason(code))

    def pass_action(self) -> Action | None:
        return self._checked(Pass(self.seat or 0))

    def ready_action(self) -> Action | None:
        if self.can(Ready):
            return Ready(self.seat or 0)
        if self.phase == "hand_over":
            self.message = self.tr.gettext("Waiting for the others to be ready.")
            self.changed()
        return None

    def refused(self, reason: str) -> None:
        self.message = self.text.reason(reason, {})
        self.changed()

    # ------------------------------------------------------------ decree

    def may_decree(self) -> bool:
        if not self.can(Decree):
            self.refused("not_president")
            return False
        return True

    def decree_action(self, text: str) -> Action | None:
        text = text.strip()
        return Decree(self.seat or 0, text) if text else None

    # ------------------------------------------------------------ timer

    def turn_seconds_left(self) -> int | None:
        limit = self.table.turn_timer if self.table else 0
        if not limit or self.turn_since is None or self.phase not in ("play", "tax"):
            return None
        return max(0, int(limit - (self.clock() - self.turn_since) + 0.999))


def our_call(view: View) -> bool:
    """Whether ``view`` waits for its own seat: its move, or the cards it gives back."""
    return view.seat is not None and (
        (view.phase == "play" and view.turn == view.seat)
        or (view.phase == "tax" and bool(view.tax_owed)))


class LineEdit:
    """A one-line text field typed into from the key bindings (names, PIN, decree).
    A suggested text (the login name, the table's name) is replaced by the first key
    typed, as a selected text is; Enter keeps it."""

    def __init__(self, label: str, text: str, on_done: Any, max_length: int = 200,
                 secret: bool = False) -> None:
        self.label = label
        self.text = text
        self.on_done = on_done
        self.max_length = max_length
        self.secret = secret
        self.suggested = bool(text)

    def insert(self, chars: str) -> None:
        chars = "".join(c for c in chars if c.isprintable())
        if self.suggested and chars:
            self.text, self.suggested = "", False
        self.text = (self.text + chars)[: self.max_length]

    def backspace(self) -> None:
        self.text = "" if self.suggested else self.text[:-1]
        self.suggested = False

    def shown(self) -> str:
        return ("*" * len(self.text) if self.secret else self.text) + "▏"

"""The table's journal hook on top of ``journal.Journal``, and resuming tables from it.

``TableJournal`` implements ``table_core.JournalHook``: a session is started when the
table deals its first hand, every accepted action is appended before the table
broadcasts it, the scores are recorded after each hand and the session is
marked finished when it ends. ``resume_tables`` re-creates a ``Table`` for
every unfinished session: same seed, seats, tokens and state (the journaled
actions replayed through the engine).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
from collections.abc import Collection
from dataclasses import dataclass, field, fields
from typing import Any
from weakref import WeakKeyDictionary

from president.errors import PresidentError
from president.rules import HouseRules
from president.state import Phase, State

from .journal import END_SESSION, Journal, JournalError, SessionRecord, replay
from .table import Table, TableOptions
from .table_core import TableCore

log = logging.getLogger("president.net.persist")

# TableOptions fields kept in a session's options (the rules, seed and name live in the header).
_KEPT_OPTIONS = ("table_id", "pin", "seats", "bots", "bot_kind", "bot_levels", "bot_budget",
                 "bot_delay", "grace", "turn_timer", "timer_action", "ready_timeout",
                 "auto_start", "owner_token", "again_wait", "hints", "late_arrivals")


@dataclass
class _Session:
    id: int
    appended: int = 0               # actions journaled so far
    hands: int = 0                  # hand results whose scores are recorded


@dataclass
class TableJournal:
    """``table_core.JournalHook`` on a ``journal.Journal``. ``host`` holds host facts to keep
    (e.g. the port)."""

    journal: Journal
    host: dict[str, Any] = field(default_factory=dict)
    _sessions: WeakKeyDictionary[TableCore, _Session] = field(default_factory=WeakKeyDictionary)

    def session_id(self, table: Table | TableCore) -> int | None:
        entry = self._sessions.get(table.core if isinstance(table, Table) else table)
        return entry.id if entry is not None else None

    def started(self, table: TableCore) -> None:
        assert table.state is not None
        options = table.options
        kept = {name: getattr(options, name) for name in _KEPT_OPTIONS}
        kept["pin"] = pin_record(options.pin)   # never the PIN itself
        session_id = self.journal.start_session(
            table_name=options.name, preset=options.preset, rules=table.rules,
            players=list(table.state.players), seed=table.seed, seats=seats_of(table),
            options={**kept, **self.host},
        )
        self._sessions[table] = _Session(session_id)

    def seated(self, table: TableCore, seat: int) -> None:
        entry = self._sessions.get(table)
        if entry is not None:  # before the deal nothing is kept: the table is not started
            self.journal.update_seats(entry.id, seats_of(table))

    def accepted(self, table: TableCore, action: dict[str, Any]) -> None:
        entry = self._sessions[table]
        self.journal.append(entry.id, entry.appended, action)  # JournalError: not accepted
        entry.appended += 1
        state = table.state
        assert state is not None
        # The action is safe now; the scores and the finished mark can be redone from the
        # actions (``resume_tables`` does), so failing to write them does not stop the table.
        try:
            if state.phase is Phase.SESSION_OVER:
                self.journal.finish(entry.id, state.scores)
                self.journal.hand_over()
            elif len(state.results) != entry.hands:
                entry.hands = len(state.results)
                self.journal.record_scores(entry.id, state.scores)
                self.journal.hand_over()
        except JournalError as error:
            log.warning("session %s: cannot record the scores: %s", entry.id, error)

    def adopt(self, table: TableCore, record: SessionRecord, appended: int) -> None:
        """Continue journaling a resumed table in its own session."""
        assert table.state is not None
        self._sessions[table] = _Session(record.id, appended, len(table.state.results))


def seats_of(table: TableCore) -> list[dict[str, Any]]:
    """What a resumed table needs of each seat: name, token (humans), kind and a bot's level."""
    return [{"name": seat.name, "token": seat.token, "kind": "bot" if seat.is_bot else "human",
             **({"level": seat.level} if seat.is_bot else {})}
            for seat in table.seats]


def pin_record(pin: str | None) -> dict[str, str] | None:
    """What the journal keeps of a table's PIN: a salted scrypt hash (a PIN is a few
    digits: the hash only keeps it from being read at a glance)."""
    if not pin:
        return None
    salt = os.urandom(16)
    return {"salt": salt.hex(), "scrypt": _scrypt(pin, salt).hex()}


def _scrypt(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)


def pin_matches(kept: object, pin: str | None) -> bool:
    """Whether ``pin`` is the PIN a journal's ``pin_record`` was made of."""
    if not isinstance(kept, dict) or not pin:
        return False
    try:
        wanted = bytes.fromhex(str(kept["scrypt"]))
        return hmac.compare_digest(_scrypt(pin, bytes.fromhex(str(kept["salt"]))), wanted)
    except (KeyError, ValueError):
        return False


def options_of(record: SessionRecord, table_id: str | None = None,
               pin: str | None = None) -> TableOptions:
    """The options of a journaled table (unknown or missing keys: the defaults); ``pin``:
    the PIN its journal keeps the hash of (checked by ``resume_tables``)."""
    known = {f.name for f in fields(TableOptions)}
    kept = {key: value for key, value in record.options.items()
            if key in known and key in _KEPT_OPTIONS}
    if not isinstance(kept.get("pin"), str | None):  # a hash: the PIN given again
        kept["pin"] = pin
    if table_id is not None:
        kept["table_id"] = table_id
    if "bot_levels" in kept:
        kept["bot_levels"] = tuple(kept["bot_levels"])
    return TableOptions(name=record.table_name, preset=record.preset,
                        rules=HouseRules.from_dict(record.rules), seed=record.seed, **kept)


def resume_tables(journal: Journal, hook: TableJournal | None = None,
                  ids: Collection[int] | None = None,
                  skipped: list[JournalError] | None = None,
                  pin: str | None = None) -> list[Table]:
    """A table for every unfinished session (or those of ``ids``: a "resume" list),
    exactly where its journal left it. A session that cannot be read or replayed is
    left where it is: its error (naming it) goes to ``skipped``, or is raised when
    nothing collects it.

    A table with a PIN needs it given again (``pin``: the journal keeps only its
    hash): without it, or with another, the session is skipped (``pin_needed``).
    Table ids stay as they were; a clash (two unfinished sessions of one table)
    gives the older one the id ``s<session id>``. A session whose journal ends
    after its last hand is marked finished and not resumed.
    """
    tables: list[Table] = []
    used: set[str] = set()
    unreadable: list[int] = []
    records = journal.sessions(unfinished_only=True, unreadable=unreadable)
    problems = [JournalError("bad_row", id=session, detail="session")
                for session in unreadable if ids is None or session in ids]
    for record in reversed(records):
        if ids is not None and record.id not in ids:
            continue
        kept_pin = record.options.get("pin")
        if isinstance(kept_pin, dict) and not pin_matches(kept_pin, pin):
            problems.append(JournalError("pin_needed", id=record.id))
            continue
        moves: list[tuple[State, int]] = []  # (the state before, who moved)
        try:
            actions = journal.actions(record.id)
            for (state, _), action in zip(replay(record, actions), [*actions, None],
                                          strict=True):
                if action is not None and action != END_SESSION:
                    moves.append((state, int(action["seat"])))
        except JournalError as error:
            problems.append(error)
            continue
        except (PresidentError, KeyError, TypeError, ValueError) as error:
            problems.append(JournalError("session_unreplayable", id=record.id,
                                         detail=getattr(error, "code", type(error).__name__)))
            continue
        if state.phase is Phase.SESSION_OVER:
            journal.finish(record.id, state.scores)
            continue
        table_id = str(record.options.get("table_id") or "main")
        if table_id in used:
            table_id = f"s{record.id}"
        used.add(table_id)
        table = Table.restore(options_of(record, table_id, pin), state, len(actions),
                              record.seats, journal=hook,
                              elapsed=max(0.0, record.updated - record.created))
        table.recall([(before, seat) for before, seat in moves
                      if before.hand_number == state.hand_number])
        if hook is not None:
            hook.adopt(table.core, record, len(actions))
        log.info("resumed session %s as table %s after %d actions", record.id, table_id,
                 len(actions))
        tables.append(table)
    tables.reverse()
    if problems and skipped is None:
        raise problems[0]
    if skipped is not None:
        skipped.extend(problems)
    return tables


EVENING = 12 * 3600.0
"""Seconds: unfinished sessions last played this close to the newest are one evening's."""


def last_evening(records: Collection[SessionRecord]
                 ) -> tuple[list[SessionRecord], list[SessionRecord]]:
    """Unfinished sessions split into the last evening's (last played within ``EVENING`` of
    the newest: what a crash or a closed window left) and the older ones (abandoned on
    another day: brought back only when named), each in ``records``' order."""
    if not records:
        return [], []
    since = max(record.updated for record in records) - EVENING
    return ([record for record in records if record.updated >= since],
            [record for record in records if record.updated < since])


def remembered_port(journal: Journal, key: str = "port") -> int:
    """The port (``key``: which one, e.g. ``web_port``) of the most recent unfinished
    session (0: none remembered)."""
    for record in reversed(journal.sessions(unfinished_only=True)):
        port = record.options.get(key)
        if type(port) is int and 0 < port < 65536:
            return port
    return 0

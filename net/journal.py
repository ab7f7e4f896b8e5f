"""The host's journal: every accepted action of every table, in SQLite, before broadcast.

A session is its header (rules, players, seed, seats and their tokens) plus the
list of accepted actions; replaying them through the engine restores the table
exactly (``restore``). Finished sessions stay as the evening's records.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from president.actions import action_from_dict
from president.engine import apply, end_session, new_session
from president.errors import JournalError
from president.events import Event
from president.rules import HouseRules
from president.state import State

log = logging.getLogger("president.net.journal")

END_SESSION = {"type": "end_session"}
CHECKPOINT_EVERY = 1000  # appends between two checkpoints when no hand ends (the WAL's bound)
_APPEND = "INSERT INTO actions (session_id, seq, action) VALUES (?, ?, ?)"
_ACTION_JSON = json.JSONEncoder(sort_keys=True).encode  # json.dumps(…, sort_keys=True), made once

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    table_name TEXT NOT NULL,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    players TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    finished INTEGER NOT NULL DEFAULT 0,
    scores TEXT NOT NULL DEFAULT '[]'
);
-- One b-tree keyed by (session, seq): an append writes one page (a rowid table has a
-- second one, its key's index). Journals made before keep their rowid table.
CREATE TABLE IF NOT EXISTS actions (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
-- Earlier journals set "updated" from a trigger on every append (a second page written
-- per action): ``Journal.append`` does it at most once a second.
DROP TRIGGER IF EXISTS action_updates_session;
"""
PAGE_SIZE = 1024  # of a new journal file: an append writes one small page to the WAL
TOUCH_EVERY = 1.0  # seconds between two updates of a session's "updated" by its appends


@dataclass(frozen=True, slots=True)
class SessionRecord:
    id: int
    created: float
    updated: float
    table_name: str
    preset: str
    rules: dict[str, Any]
    players: list[str]
    seed: int
    seats: list[dict[str, Any]]    # per seat: {"kind": "human"|"bot", "token": ..., ...}
    options: dict[str, Any]        # host options of the table (pin, bots, timers, port)
    finished: bool
    scores: list[int]


def default_path() -> Path:
    """``$PRESIDENT_JOURNAL``, else the user's data directory."""
    override = os.environ.get("PRESIDENT_JOURNAL")
    if override:
        return Path(override)
    return data_folder() / "journal.sqlite3"


def data_folder() -> Path:
    """The user's data folder for President (the journal's, by default)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "president"


class Journal:
    """One SQLite file (WAL). Every write commits before it returns.

    The promise: an accepted action is in the journal before anything is broadcast,
    so a host process that crashes or is killed resumes every table where its players
    saw it. WAL with ``synchronous=NORMAL`` keeps that promise: a commit is in the WAL
    file (handed to the operating system) when ``append`` returns, and SQLite's commits
    survive any crash of the application whatever the sync setting; what NORMAL gives
    up is the fsync of every commit (about 0.05 ms of CPU and 0.15 ms of waiting per
    action here, more than the rest of the host's work on it), so a power cut or a
    crash of the machine itself may lose the last commits (never corrupt the file).
    ``hand_over`` syncs (a checkpoint): such a loss is bounded by the hand in play.
    ``durable=True`` syncs every commit instead (``synchronous=FULL``).

    Checkpoints (copying the WAL into the database, and their fsyncs: several
    milliseconds) run on a thread of their own, at the end of every hand and after
    ``CHECKPOINT_EVERY`` appends, never in the middle of an append: the host's loop,
    and every table on it, never waits for the disk.
    """

    def __init__(self, path: str | Path | None = None, *, timeout: float = 2.0,
                 durable: bool = False, read_only: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._checkpointer = _Checkpointer(self.path, timeout, durable)
        self._appended = 0              # appends since the last checkpoint asked for
        self._touch_due: dict[int, float] = {}  # session -> when its "updated" is due (monotonic)
        if read_only:  # `president history`: a journal it may not write is still read
            try:
                self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                           timeout=timeout, isolation_level=None)
                self._db.execute("SELECT 1 FROM sessions LIMIT 1")
            except sqlite3.Error as error:
                raise _journal_error(error, self.path) from None
            return
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if self.path.parent == data_folder():  # ours (not a --journal's): the user's alone
                os.chmod(self.path.parent, 0o700)
            # Seat tokens and every hand are in here: readable by the host's user only
            # (SQLite gives its -wal and -shm files the same permissions).
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
            self._db.execute(f"PRAGMA page_size={PAGE_SIZE}")  # a new file's (else no effect)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._db.execute("PRAGMA wal_autocheckpoint=0")  # _Checkpointer's work
            self._db.executescript(_SCHEMA)
            # Prove we can write now rather than failing in the middle of a hand.
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            raise _journal_error(error, self.path) from None
        except OSError as error:
            raise JournalError("journal_unwritable", path=str(self.path),
                               detail=error.strerror or str(error)) from None

    def close(self) -> None:
        self._checkpointer.close()
        self._db.close()

    def _write(self, sql: str, params: Sequence[Any]) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, params)
        except sqlite3.Error as error:
            raise _journal_error(error, self.path) from None

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise _journal_error(error, self.path) from None

    def start_session(
        self, *, table_name: str, preset: str, rules: HouseRules, players: Sequence[str],
        seed: int, seats: Sequence[dict[str, Any]], options: dict[str, Any] | None = None,
    ) -> int:
        now = time.time()
        cursor = self._write(
            "INSERT INTO sessions (created, updated, table_name, preset, rules, players, seed,"
            " seats, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (now, now, table_name, preset, json.dumps(rules.to_dict()), json.dumps(list(players)),
             _seed_column(seed), json.dumps(list(seats)), json.dumps(options or {})),
        )
        return int(cursor.lastrowid or 0)

    def append(self, session_id: int, seq: int, action: dict[str, Any]) -> None:
        """Record the ``seq``-th accepted action (0-based) of a session: one INSERT (its
        statement prepared once and cached by ``sqlite3``), its own transaction. The
        session's ``updated`` (a resumed session of minutes counts its time with it)
        follows at most ``TOUCH_EVERY`` seconds behind, in a transaction of its own."""
        self._write(_APPEND, (session_id, seq, _ACTION_JSON(action)))
        now = time.monotonic()
        if now >= self._touch_due.get(session_id, 0.0):
            self._touch_due[session_id] = now + TOUCH_EVERY
            self._write("UPDATE sessions SET updated = ? WHERE id = ?", (time.time(), session_id))
        self._appended += 1
        if self._appended >= CHECKPOINT_EVERY:  # a long hand: keep the WAL short
            self.hand_over()

    def update_seats(self, session_id: int, seats: Sequence[dict[str, Any]]) -> None:
        self._write("UPDATE sessions SET seats = ?, updated = ? WHERE id = ?",
                    (json.dumps(list(seats)), time.time(), session_id))

    def finish(self, session_id: int, scores: Sequence[int]) -> None:
        self._write("UPDATE sessions SET finished = 1, scores = ?, updated = ? WHERE id = ?",
                    (json.dumps(list(scores)), time.time(), session_id))

    def record_scores(self, session_id: int, scores: Sequence[int]) -> None:
        self._write("UPDATE sessions SET scores = ? WHERE id = ?",
                    (json.dumps(list(scores)), session_id))

    def hand_over(self) -> Future[None]:
        """A hand ended: sync what is written (a passive checkpoint syncs the WAL first),
        so that a power cut can take at most the hand in play (see the class). Returns
        at once; the future is done when the checkpoint is."""
        self._appended = 0
        return self._checkpointer.request()

    def sessions(self, *, unfinished_only: bool = False,
                 unreadable: list[int] | None = None) -> list[SessionRecord]:
        """The sessions whose row reads; the ids of the others go to ``unreadable``."""
        sql = "SELECT * FROM sessions"
        if unfinished_only:
            sql += " WHERE finished = 0"
        records = []
        for row in self._read(sql + " ORDER BY id"):
            try:
                records.append(_record(row))
            except JournalError:
                if unreadable is not None:
                    unreadable.append(row[0])
        return records

    def session(self, session_id: int) -> SessionRecord:
        rows = self._read("SELECT * FROM sessions WHERE id = ?", (session_id,))
        row = rows[0] if rows else None
        if row is None:
            raise JournalError("no_such_session", id=session_id)
        return _record(row)

    def actions(self, session_id: int) -> list[dict[str, Any]]:
        rows = self._read("SELECT action FROM actions WHERE session_id = ? ORDER BY seq",
                          (session_id,))
        try:
            return [json.loads(action) for (action,) in rows]
        except (ValueError, TypeError):
            raise JournalError("bad_row", id=session_id, detail="actions") from None


class _Checkpointer:
    """Checkpoints of one journal file, one after the other on a thread of their own
    (with a connection of their own: SQLite lets a checkpoint run beside the writer)."""

    def __init__(self, path: Path, timeout: float, durable: bool) -> None:
        self.path, self.timeout, self.durable = path, timeout, durable
        self._pool: ThreadPoolExecutor | None = None     # made on the first request
        self._db: sqlite3.Connection | None = None       # used on the pool's thread only

    def request(self) -> Future[None]:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1,
                                            thread_name_prefix="journal-checkpoint")
        return self._pool.submit(self._checkpoint)

    def _checkpoint(self) -> None:
        try:
            if self._db is None:
                self._db = sqlite3.connect(self.path, timeout=self.timeout,
                                           isolation_level=None)
                self._db.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as error:  # the actions are safe in the WAL: try again later
            log.warning("journal %s: checkpoint failed: %s", self.path, error)

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()

    def close(self) -> None:
        """After the checkpoints asked for so far."""
        if self._pool is not None:
            self._pool.submit(self._close)
            self._pool.shutdown(wait=True)
            self._pool = None


def _seed_column(seed: int) -> int | str:
    """A session seed as the INTEGER column holds it: SQLite's integers are 64-bit, so a
    larger seed (new hosts draw 128 bits) is kept as ``x`` + hex, text SQLite never
    turns into a number."""
    return seed if -2**63 <= seed < 2**63 else f"x{seed:x}"


def _seed_of(value: int | str) -> int:
    return int(value[1:], 16) if isinstance(value, str) else int(value)


def _record(row: tuple) -> SessionRecord:
    """The session of a row; ``JournalError("bad_row")`` naming it when it does not read."""
    try:
        return _session_of(row)
    except (ValueError, TypeError, KeyError):
        raise JournalError("bad_row", id=row[0], detail="session") from None


def _session_of(row: tuple) -> SessionRecord:
    (id_, created, updated, table_name, preset, rules, players, seed, seats, options,
     finished, scores) = row
    return SessionRecord(
        id=id_, created=created, updated=updated, table_name=table_name, preset=preset,
        rules=json.loads(rules), players=json.loads(players), seed=_seed_of(seed),
        seats=json.loads(seats), options=json.loads(options), finished=bool(finished),
        scores=json.loads(scores),
    )


def _journal_error(error: sqlite3.Error, path: Path) -> JournalError:
    text = str(error)
    code = "journal_locked" if "locked" in text or "busy" in text else "journal_unwritable"
    return JournalError(code, path=str(path), detail=text)


def replay(record: SessionRecord,
           actions: Sequence[dict[str, Any]]) -> Iterator[tuple[State, list[Event]]]:
    """The session replayed through the engine: (state, events) of the deal, then of
    every journaled action in turn. The one place journaled actions are applied."""
    rules = HouseRules.from_dict(record.rules)
    state, events = new_session(rules, record.players, record.seed)
    yield state, events
    for action in actions:
        if action == END_SESSION:
            state, events = end_session(state)
        else:
            state, events = apply(state, action_from_dict(action))
        yield state, events


def restore(record: SessionRecord, actions: Sequence[dict[str, Any]]) -> State:
    """The table's state after replaying its journal through the engine."""
    (last,) = deque(replay(record, actions), maxlen=1)
    return last[0]

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest
from journal_kit import play_some, start

from president.actions import action_to_dict
from president.engine import new_session
from president.net import journal as journal_module
from president.net.journal import _SCHEMA, Journal, JournalError, restore
from president.rules import PRESETS


def test_restore_reproduces_the_exact_state_mid_hand(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    rules, players = PRESETS["bga"], ["ann", "bob", "cid", "dee", "eve"]
    state, _ = new_session(rules, players, 7)
    session_id = start(journal, rules, players, 7)
    state, taken = play_some(state, 137)
    for seq, action in enumerate(taken):
        journal.append(session_id, seq, action_to_dict(action))
    journal.close()

    reopened = Journal(tmp_path / "j.sqlite3")
    record = reopened.session(session_id)
    assert record.seats[2]["token"] == "t2" and not record.finished
    restored = restore(record, reopened.actions(session_id))
    assert restored == state
    assert [r.id for r in reopened.sessions(unfinished_only=True)] == [session_id]


def test_finished_sessions_are_kept_but_not_offered_for_resume(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    rules, players = PRESETS["classic"], ["a", "b", "c"]
    first = start(journal, rules, players, 1)
    second = start(journal, rules, players, 2)
    journal.finish(first, [3, 0, -3])
    assert [r.id for r in journal.sessions()] == [first, second]
    assert [r.id for r in journal.sessions(unfinished_only=True)] == [second]
    assert journal.session(first).scores == [3, 0, -3]


def test_a_locked_database_is_reported_not_ignored(tmp_path):
    path = tmp_path / "j.sqlite3"
    Journal(path).close()
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalError) as caught:
            Journal(path, timeout=0.1)
        assert caught.value.code == "journal_locked"
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def test_an_unwritable_location_is_reported(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    with pytest.raises(JournalError) as caught:
        Journal(blocked / "j.sqlite3")
    assert caught.value.code == "journal_unwritable"
    assert caught.value.params["path"].endswith("j.sqlite3")


def test_a_file_that_is_not_a_database_is_reported_not_a_traceback(tmp_path):
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalError) as caught:
        Journal(path)
    assert caught.value.code == "journal_unwritable"
    assert caught.value.params["path"] == str(path)


def test_an_append_is_one_transaction_and_a_duplicate_is_refused(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3", durable=False)
    session_id = start(journal, PRESETS["classic"], ["a", "b", "c"], 1)
    journal.append(session_id, 0, {"type": "ready", "seat": 0})
    with pytest.raises(JournalError):
        journal.append(session_id, 0, {"type": "ready", "seat": 1})
    assert journal.actions(session_id) == [{"type": "ready", "seat": 0}]
    journal.append(session_id, 1, {"type": "ready", "seat": 1})  # still usable afterwards
    assert len(journal.actions(session_id)) == 2


def test_a_new_journal_is_private_to_the_host_user(tmp_path):
    journal = Journal(tmp_path / "deep" / "j.sqlite3")
    start(journal, PRESETS["classic"], ["a", "b", "c"], 1)
    for name in ("j.sqlite3", "j.sqlite3-wal"):
        assert (tmp_path / "deep" / name).stat().st_mode & 0o077 == 0, name


def test_the_journal_keeps_a_128_bit_seed_whole_and_old_seeds_as_they_were(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    rules, players = PRESETS["classic"], ["ann", "bob", "cid", "dee"]
    for seed in (2**127 + 12345, 7, 2**63 - 1, 2**63):
        state, _ = new_session(rules, players, seed)
        session = start(journal, rules, players, seed)
        state, taken = play_some(state, 40)
        for seq, action in enumerate(taken):
            journal.append(session, seq, action_to_dict(action))
        record = journal.session(session)
        assert record.seed == seed
        assert restore(record, journal.actions(session)) == state


def _backdate(path, session_id):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("UPDATE sessions SET created = 1000.0, updated = 1000.0 WHERE id = ?",
               (session_id,))
    db.close()


def test_each_appended_action_moves_its_sessions_updated_time(tmp_path):
    """The session's ``updated`` (a resumed session of minutes counts its time with it)
    follows its appends (at most ``TOUCH_EVERY`` behind); a refused append moves nothing."""
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    session_id = start(journal, PRESETS["classic"], ["a", "b", "c"], 1)
    other = start(journal, PRESETS["classic"], ["a", "b", "c"], 2)
    _backdate(path, session_id)
    _backdate(path, other)
    before = time.time()
    journal.append(session_id, 0, {"type": "ready", "seat": 0})
    after = time.time()
    assert before - 1 <= journal.session(session_id).updated <= after + 1
    assert journal.session(other).updated == 1000.0
    with pytest.raises(JournalError):  # a refused append changes nothing
        _backdate(path, session_id)
        journal.append(session_id, 0, {"type": "ready", "seat": 1})
    assert journal.session(session_id).updated == 1000.0


_OLD_ACTIONS = """
CREATE TABLE actions (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TRIGGER action_updates_session AFTER INSERT ON actions BEGIN
    UPDATE sessions SET updated = (julianday('now') - 2440587.5) * 86400.0
    WHERE id = NEW.session_id;
END;
"""


def test_a_journal_of_an_earlier_host_is_written_and_replayed_as_before(tmp_path):
    """A journal made with the rowid table and the trigger: opened, its trigger goes (the
    journal keeps ``updated`` itself), its table stays, and its sessions play on."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("PRAGMA journal_mode=WAL")
    old.executescript(_SCHEMA.split("-- One b-tree")[0] + _OLD_ACTIONS)
    old.close()
    journal = Journal(path)
    rules, players = PRESETS["classic"], ["ann", "bob", "cid", "dee"]
    state, _ = new_session(rules, players, 9)
    session_id = start(journal, rules, players, 9)
    _backdate(path, session_id)
    state, taken = play_some(state, 30)
    for seq, action in enumerate(taken):
        journal.append(session_id, seq, action_to_dict(action))
    assert journal.session(session_id).updated > 1000.0
    assert restore(journal.session(session_id), journal.actions(session_id)) == state
    db = sqlite3.connect(path)
    kinds = dict(db.execute("SELECT name, type FROM sqlite_master"))
    assert "action_updates_session" not in kinds and kinds["actions"] == "table"
    assert "WITHOUT ROWID" not in db.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()[0]


def test_a_new_journal_writes_an_action_as_one_small_page(tmp_path):
    """A new file: small pages, the actions keyed by (session, seq) in one b-tree, no
    trigger: an append adds about one page to the WAL, not three of 4 KiB."""
    path = tmp_path / "new.sqlite3"
    journal = Journal(path)
    session_id = start(journal, PRESETS["classic"], ["a", "b", "c"], 1)
    before = os.path.getsize(f"{path}-wal")
    for seq in range(200):
        journal.append(session_id, seq, {"type": "ready", "seat": seq % 3})
    grown = (os.path.getsize(f"{path}-wal") - before) / 200
    assert grown < 2 * (1024 + 24), grown        # a page and its frame header, or two
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA page_size").fetchone()[0] == 1024
    assert "WITHOUT ROWID" in db.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()[0]
    assert not db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()


def test_an_appended_action_survives_the_host_process_being_killed(tmp_path):
    """The durability the journal promises (WAL, synchronous=NORMAL): once ``append``
    returns, a crash of the process loses nothing."""
    path = tmp_path / "j.sqlite3"
    child = textwrap.dedent(f"""
        import os, signal
        from president.net.journal import Journal
        from president.rules import PRESETS
        journal = Journal({str(path)!r})
        session = journal.start_session(table_name="K", preset="classic",
                                        rules=PRESETS["classic"], players=["a", "b", "c"],
                                        seed=1, seats=[])
        for seq in range(50):
            journal.append(session, seq, {{"type": "ready", "seat": seq % 3}})
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    journal = Journal(path)
    (record,) = journal.sessions()
    assert len(journal.actions(record.id)) == 50


def test_the_end_of_a_hand_moves_the_actions_into_the_database_file(tmp_path):
    """``hand_over`` checkpoints (syncing the WAL first) on the journal's own thread: the
    database file alone, as a machine that lost its unsynced WAL would find it, then holds
    every action so far; appends never checkpoint by themselves."""
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    session_id = start(journal, PRESETS["classic"], ["a", "b", "c"], 1)
    journal.hand_over().result(timeout=30)
    for seq in range(3):
        journal.append(session_id, seq, {"type": "ready", "seat": seq})

    def actions_in_the_file_alone() -> int:
        copy = tmp_path / "copy.sqlite3"
        shutil.copyfile(path, copy)
        db = sqlite3.connect(copy)
        try:
            return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
        finally:
            db.close()
            copy.unlink()

    assert actions_in_the_file_alone() == 0
    journal.hand_over().result(timeout=30)
    assert actions_in_the_file_alone() == 3
    journal.close()


def test_a_long_hand_asks_for_a_checkpoint_every_so_many_appends(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module, "CHECKPOINT_EVERY", 5)
    journal = Journal(tmp_path / "j.sqlite3")
    asked = []
    monkeypatch.setattr(journal._checkpointer, "request", lambda: asked.append(1))
    session_id = start(journal, PRESETS["classic"], ["a", "b", "c"], 1)
    for seq in range(12):
        journal.append(session_id, seq, {"type": "ready", "seat": seq % 3})
    assert len(asked) == 2
    journal.hand_over()
    for seq in range(12, 16):
        journal.append(session_id, seq, {"type": "ready", "seat": seq % 3})
    assert len(asked) == 3    # counted afresh from the hand's end

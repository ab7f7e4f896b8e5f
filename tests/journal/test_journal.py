import sqlite3

import pytest
from journal_kit import play_some, start

from president.actions import action_to_dict
from president.engine import new_session
from president.net.journal import Journal, JournalError, restore
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

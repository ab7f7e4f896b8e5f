"""A host that stops while a 7-pass is being chosen resumes at that very choice (issue 11):
the journal's actions include the gives and discards and replay through the engine."""

from journal_kit import play_some, start

from president.actions import Discard, Give, action_to_dict
from president.engine import new_session
from president.net.journal import Journal, restore
from president.rules import PRESETS


def test_restore_mid_choice_reproduces_the_state(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    rules, players = PRESETS["daihinmin_local"], ["ann", "bob", "cid", "dee"]
    state, _ = new_session(rules, players, 3)
    session_id = start(journal, rules, players, 3)
    taken = []
    for _ in range(40):  # until a choice is due, a few actions at a time
        state, more = play_some(state, 1, seed=len(taken))
        taken += more
        if state.giving:
            break
    assert state.giving, "no 7-pass or 10-discard came up"
    for seq, action in enumerate(taken):
        journal.append(session_id, seq, action_to_dict(action))
    journal.close()
    reopened = Journal(tmp_path / "j.sqlite3")
    restored = restore(reopened.session(session_id), reopened.actions(session_id))
    assert restored == state and restored.giving == state.giving
    state, more = play_some(state, 30)
    assert any(isinstance(action, (Give, Discard)) for action in more)

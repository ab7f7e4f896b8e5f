import io

from journal_kit import play_some, start

from president.actions import action_to_dict
from president.cli.commands.history import run
from president.cli.main import build_parser, main
from president.engine import new_session
from president.history import HistoryWriter, read_history_file, replay_history
from president.net.journal import Journal
from president.rules import PRESETS


def journaled_session(tmp_path, actions=300):
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    rules, players = PRESETS["classic"], ["ann", "bob", "cid", "dee"]
    session_id = start(journal, rules, players, 3)
    state, opening = new_session(rules, players, 3)
    state, taken = play_some(state, actions, seed=5)
    for seq, action in enumerate(taken):
        journal.append(session_id, seq, action_to_dict(action))
    journal.close()
    return path, session_id, rules, players, taken


def test_history_lists_sessions_with_table_and_players(tmp_path):
    path, session_id, *_ = journaled_session(tmp_path, actions=10)
    out = io.StringIO()
    assert run(build_parser().parse_args(["history", "--journal", str(path)]), out) == 0
    line = out.getvalue().strip()
    assert line.split()[0] == str(session_id) and "Kitchen" in line and "unfinished" in line
    assert "ann" in line and "dee" in line


def test_export_equals_the_history_written_live_and_replays(tmp_path):
    path, session_id, rules, players, taken = journaled_session(tmp_path)
    exported = tmp_path / "export.jsonl"
    code = main(["history", "export", str(session_id), "--journal", str(path),
                 "--output", str(exported)])
    assert code == 0

    from president.engine import apply
    live = io.StringIO()
    state, events = new_session(rules, players, 3)
    writer = HistoryWriter(live, rules, "classic", players, 3)
    writer.write(events)
    for action in taken:
        state, events = apply(state, action)
        writer.write(events)
    assert exported.read_text() == live.getvalue()
    final, _ = replay_history(read_history_file(exported), complete=False)
    assert final.hand_number == state.hand_number


def test_export_of_an_unknown_session_fails_clearly(tmp_path, capsys):
    path, *_ = journaled_session(tmp_path, actions=1)
    assert main(["history", "export", "99", "--journal", str(path)]) == 1
    assert "There is no such session in the journal. (99)" in capsys.readouterr().err


def test_an_unusable_journal_is_named_in_plain_words(tmp_path, capsys):
    path = tmp_path / "not-a-db.sqlite3"
    path.write_bytes(b"garbage" * 100)
    assert main(["history", "--journal", str(path)]) == 2
    err = capsys.readouterr().err
    assert "The table's journal cannot be written." in err and str(path) in err
    assert "Traceback" not in err

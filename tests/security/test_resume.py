"""The journal hook in a live host: resume exactly where a crash left off; a broken journal."""

from __future__ import annotations

import asyncio
import io
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import datetime
from typing import Any

import pytest
from security_kit import LOCAL, play_steadily, run, short_rules, wait_until

from president.cli.commands.history import export_lines
from president.cli.commands.history import run as history_run
from president.cli.main import build_parser
from president.cli.text import text_for
from president.history import replay_history
from president.net.client import Client, StatusChanged
from president.net.host import Host
from president.net.journal import Journal, JournalError, restore
from president.net.persist import TableJournal, last_evening, remembered_port, resume_tables
from president.net.table import Table, TableOptions
from president.state import Phase
from president.view import view


def crash(host: Host) -> None:
    """Stop a host the hard way: no bye, no goodbye to the journal (as SIGKILL would)."""
    for server in host.servers:
        server.close()
    for conn in list(host.connections):
        conn.abort()
    for task in list(host._tasks):
        task.cancel()


class Interrupting(TableJournal):
    """Cancels the table's task after ``limit`` accepted actions (a crash in mid-hand)."""

    def __init__(self, journal: Journal, limit: int) -> None:
        super().__init__(journal)
        self.limit, self.count = limit, 0
        self.task: asyncio.Task[Any] | None = None

    def accepted(self, table: Table, action: dict[str, Any]) -> None:
        super().accepted(table, action)
        self.count += 1
        if self.count == self.limit and self.task is not None:
            self.task.cancel()


def bot_options(**changes: Any) -> TableOptions:
    return TableOptions(**{"seats": 4, "bots": 4, "rules": short_rules(hands=3), "seed": 11,
                           "ready_timeout": 0, **changes})


async def run_table(table: Table) -> None:
    task = asyncio.get_running_loop().create_task(table.run())
    if isinstance(table.journal, Interrupting):
        table.journal.task = task
    try:
        await task
    except asyncio.CancelledError:
        pass


def test_host_bots_resumed_mid_hand_play_on_as_if_never_stopped(tmp_path):
    async def scenario():
        straight = Journal(tmp_path / "straight.sqlite3")
        await run_table(Table(bot_options(), journal=TableJournal(straight)))
        broken = Journal(tmp_path / "broken.sqlite3")
        hook = Interrupting(broken, 57)
        first = Table(bot_options(), journal=hook)
        await run_table(first)
        assert not first.over and first.state.phase is not Phase.SESSION_OVER
        crashed_state = first.state
        resumed_hook = TableJournal(broken)
        (table,) = resume_tables(broken, resumed_hook)
        assert table.state == crashed_state and table.version == first.version
        await run_table(table)
        return straight, broken

    straight, broken = run(scenario())
    (done,) = straight.sessions()
    (again,) = broken.sessions()
    assert done.finished and again.finished and again.scores == done.scores
    assert broken.actions(again.id) == straight.actions(done.id)
    assert broken.sessions(unfinished_only=True) == []


def test_clients_reconnect_to_a_resumed_host_and_finish_the_session(tmp_path):
    path = tmp_path / "j.sqlite3"

    async def scenario():
        journal = Journal(path)
        hook = TableJournal(journal)
        table = Table(TableOptions(seats=4, bots=2, rules=short_rules(hands=3), seed=5,
                                   ready_timeout=0, grace=60), journal=hook)
        host = Host([table])
        port = await host.start([LOCAL])
        hook.host["port"] = port
        clients = [Client(LOCAL, port, name) for name in ("ann", "bob")]
        for client in clients:
            await client.connect()
        tokens = [client.token for client in clients]
        players = [asyncio.ensure_future(play_steadily(c)) for c in clients]
        # Crash in the middle of the second hand, with cards on the pile.
        await wait_until(lambda: table.state is not None and table.state.hand_number == 2
                         and table.state.phase is Phase.PLAY and len(table.state.pile) >= 1)
        crash(host)
        crashed = table.state
        session_id = hook.session_id(table)
        record = journal.session(session_id)
        assert not record.finished and len(record.scores) == 4   # scores after hand 1
        assert restore(record, journal.actions(session_id)) == crashed
        assert remembered_port(journal) == port

        resumed_hook = TableJournal(journal)
        (again,) = resume_tables(journal, resumed_hook)
        assert again.state == crashed
        assert [s.token for s in again.seats[:2]] == tokens
        assert [s.name for s in again.seats] == [s.name for s in table.seats]
        host2 = Host([again], key=host.key)
        await host2.start([LOCAL], port=port)
        await asyncio.gather(*players)
        await host2.stop()
        return clients, tokens, again, session_id

    clients, tokens, table, session_id = run(scenario(), timeout=90)
    assert table.state.phase is Phase.SESSION_OVER
    for client, token in zip(clients, tokens, strict=True):
        assert client.token == token and client.bye.code == "session_over"
        assert client.view.scores == table.state.scores
    journal = Journal(path)
    record = journal.session(session_id)
    assert record.finished and record.scores == list(table.state.scores)
    lines = list(export_lines(record, journal.actions(session_id)))
    final, hands = replay_history(lines)
    assert final.scores == table.state.scores and len(hands) == 3
    out = io.StringIO()
    assert history_run(build_parser().parse_args(["history", "--journal", str(path)]), out) == 0
    assert "[finished]" in out.getvalue() and "ann" in out.getvalue()


def test_a_locked_journal_refuses_to_start_the_table(tmp_path):
    path = tmp_path / "j.sqlite3"

    async def scenario():
        journal = Journal(path, timeout=0.05)
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        table = Table(bot_options(bots=3), journal=TableJournal(journal))
        host = Host([table])
        port = await host.start([LOCAL])
        watcher = Client(LOCAL, port, "eve", reconnect=False)
        await watcher.connect()  # the last seat: the table starts
        await watcher.wait_for(lambda c: c.status == "closed")
        await host.stop()
        blocker.rollback()
        return table, watcher, journal

    table, watcher, journal = run(scenario())
    assert watcher.bye.code == "journal_locked"
    assert table.state is None and table.over
    assert journal.sessions() == []


def test_a_journal_that_fails_mid_session_stops_the_table_before_broadcasting(tmp_path):
    path = tmp_path / "j.sqlite3"

    class Seen(TableJournal):
        def accepted(self, table, action):
            if len(self.journal.actions(self.session_id(table))) == 40:
                blocker.execute("BEGIN EXCLUSIVE")
            super().accepted(table, action)

    blocker = sqlite3.connect(path, isolation_level=None)

    async def scenario():
        journal = Journal(path, timeout=0.05)
        hook = Seen(journal)
        table = Table(bot_options(bots=3), journal=hook)
        host = Host([table])
        port = await host.start([LOCAL])
        watcher = Client(LOCAL, port, "eve", spectate=True, reconnect=False)
        await watcher.connect()
        player = Client(LOCAL, port, "ann", reconnect=False)
        await player.connect()
        await play_steadily(player)
        await watcher.wait_for(lambda c: c.status == "closed")
        await host.stop()
        blocker.rollback()
        return table, watcher, journal, hook.session_id(table)

    table, watcher, journal, session_id = run(scenario())
    assert watcher.bye.code == "journal_locked"
    actions = journal.actions(session_id)
    assert len(actions) == 40 and table.version == 40
    record = journal.session(session_id)
    assert restore(record, actions) == table.state   # nothing played beyond the journal
    # The watcher saw exactly the journaled state, never the unrecorded 41st action.
    assert watcher.view == view(table.state, None)


def test_a_resumed_timed_session_keeps_only_its_remaining_minutes(tmp_path):
    path = tmp_path / "j.sqlite3"

    async def scenario():
        journal = Journal(path, durable=False)
        hook = Interrupting(journal, 30)
        first = Table(bot_options(rules=short_rules(session_end="minutes", session_length=1)),
                      journal=hook)
        await run_table(first)
        session_id = hook.session_id(first)
        # The session had played its whole minute when the host went down, in mid-hand:
        # the resumed table ends it after this hand (it played on with no deadline before).
        raw = sqlite3.connect(path, isolation_level=None)
        raw.execute("UPDATE sessions SET created = updated - 75 WHERE id = ?", (session_id,))
        raw.close()
        (table,) = resume_tables(journal, TableJournal(journal))
        hand = table.state.hand_number
        await run_table(table)
        return table, hand, journal.session(session_id)

    table, hand, record = run(scenario(), timeout=60)
    assert table.state.phase is Phase.SESSION_OVER and table.state.hand_number == hand
    assert record.finished and record.scores == list(table.state.scores)


def _three_sessions(tmp_path):
    async def scenario():
        journal = Journal(tmp_path / "j.sqlite3", durable=False)
        ids = []
        for seed in (1, 2, 3):
            hook = Interrupting(journal, 10)
            table = Table(bot_options(seed=seed), journal=hook)
            await run_table(table)
            ids.append(hook.session_id(table))
        return journal, ids

    return run(scenario())


def test_resume_only_the_sessions_picked_and_clashing_table_ids(tmp_path):
    journal, ids = _three_sessions(tmp_path)
    picked = resume_tables(journal, ids={ids[0], ids[2]})
    every = resume_tables(journal)
    assert [t.seed for t in picked] == [1, 3]
    # All three were table "main": the newest keeps the id, the others get their session's.
    assert [t.options.table_id for t in every] == [f"s{ids[0]}", f"s{ids[1]}", "main"]


def test_a_session_that_does_not_replay_is_named_not_resumed_wrongly(tmp_path):
    path = tmp_path / "j.sqlite3"

    async def scenario():
        journal = Journal(path, durable=False)
        hook = Interrupting(journal, 12)
        table = Table(bot_options(), journal=hook)
        await run_table(table)
        return journal, hook.session_id(table)

    journal, session_id = run(scenario())
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("UPDATE actions SET action = '{\"type\": \"pass\", \"seat\": 9}' "
                "WHERE session_id = ? AND seq = 5", (session_id,))
    raw.close()
    with pytest.raises(JournalError) as caught:
        resume_tables(journal)
    assert caught.value.code == "session_unreplayable"
    assert text_for("en").error(caught.value) == (
        f"The session in the journal can no longer be replayed. ({session_id}, bad_seat)")


def test_a_host_stopped_at_once_pauses_and_its_clients_come_back_to_the_resumed_table(tmp_path):
    async def scenario():
        journal = Journal(tmp_path / "j.sqlite3", durable=False)
        table = Table(TableOptions(seats=3, bots=2, rules=short_rules(hands=2), seed=8,
                                   ready_timeout=0, grace=60), journal=TableJournal(journal))
        host = Host([table])
        port = await host.start([LOCAL])
        ann = Client(LOCAL, port, "ann")
        statuses: list[tuple[str, str | None]] = []
        ann.on_event = lambda e: statuses.append((e.status, e.code)) \
            if isinstance(e, StatusChanged) else None
        await ann.connect()
        playing = asyncio.ensure_future(play_steadily(ann))
        await wait_until(lambda: table.version >= 20)
        await host.stop()  # Ctrl-C twice: stop now
        paused = ann.bye
        (again,) = resume_tables(journal, TableJournal(journal))
        host = Host([again], key=host.key)
        await host.start([LOCAL], port=port)
        await playing
        await host.stop()
        return paused, statuses, ann, again

    paused, statuses, ann, table = run(scenario())
    assert paused is not None and (paused.code, paused.params) == ("host_paused", {})
    assert ("reconnecting", None) in statuses
    assert ann.bye.code == "session_over" and table.state.phase is Phase.SESSION_OVER


def test_a_damaged_session_is_named_and_skipped_and_the_others_resume(tmp_path):
    journal, ids = _three_sessions(tmp_path)
    raw = sqlite3.connect(tmp_path / "j.sqlite3", isolation_level=None)
    raw.execute("UPDATE sessions SET players = 'not json' WHERE id = ?", (ids[0],))
    raw.execute("UPDATE actions SET action = '{' WHERE session_id = ? AND seq = 3", (ids[1],))
    raw.close()
    skipped: list[JournalError] = []
    tables = resume_tables(journal, skipped=skipped)
    assert [t.seed for t in tables] == [3]
    assert sorted((e.code, e.params["id"]) for e in skipped) == [
        ("bad_row", ids[0]), ("bad_row", ids[1])]
    assert text_for("en").error(skipped[0]).startswith(
        "A session's row in the journal cannot be read.")


def test_history_names_unreadable_rows_and_reads_a_journal_a_host_is_writing(tmp_path, capsys):
    journal, ids = _three_sessions(tmp_path)
    path = tmp_path / "j.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("UPDATE sessions SET scores = '[' WHERE id = ?", (ids[1],))
    writer = sqlite3.connect(path, isolation_level=None, timeout=0.1)
    writer.execute("BEGIN IMMEDIATE")           # a host in the middle of a write
    try:
        out = io.StringIO()
        code = history_run(build_parser().parse_args(["history", "--journal", str(path)]), out)
        listed = out.getvalue()
        export = build_parser().parse_args(["history", "export", str(ids[1]),
                                            "--journal", str(path)])
        exported = history_run(export, io.StringIO())
    finally:
        writer.execute("ROLLBACK")
        raw.close()
        writer.close()
    errors = capsys.readouterr().err
    assert code == 1 and exported == 1
    sessions = listed.split("\n\n")[0]        # (then the evening's story, if it tells)
    assert [line.split()[0] for line in sessions.splitlines()] == [str(ids[0]), str(ids[2])]
    assert f"cannot be read. ({ids[1]}" in errors and "Traceback" not in errors


def test_two_resumed_sessions_of_one_table_name_take_back_their_own_players(tmp_path):
    """Both were table "main": a player's token finds the table that gave it out."""
    async def scenario():
        journal = Journal(tmp_path / "j.sqlite3", durable=False)
        tokens = []
        for seed in (1, 2):
            table = Table(TableOptions(seats=3, bots=2, rules=short_rules(hands=2), seed=seed,
                                       ready_timeout=0, grace=60, bot_delay=3600),
                          journal=TableJournal(journal))
            host = Host([table])
            port = await host.start([LOCAL])
            player = Client(LOCAL, port, f"P{seed}", reconnect=False)
            await player.connect()
            await player.wait_for(lambda c: c.view is not None)
            tokens.append((player.token, player.view.hand))
            crash(host)
        tables = resume_tables(journal, TableJournal(journal))
        host = Host(tables)
        port = await host.start([LOCAL])
        back = []
        for n, (token, hand) in enumerate(tokens, start=1):
            player = Client(LOCAL, port, f"P{n}", token=token, reconnect=False)
            await player.connect()
            await player.wait_for(lambda c: c.view is not None)
            back.append(player.view.hand == hand)
        await host.stop()
        return [t.options.table_id for t in tables], back

    table_ids, back = run(scenario())
    assert len(set(table_ids)) == 2 and back == [True, True]


def _record_at(journal: Journal, session_id: int, updated: float) -> None:
    raw = sqlite3.connect(journal.path, isolation_level=None)
    raw.execute("UPDATE sessions SET updated = ? WHERE id = ?", (updated, session_id))
    raw.close()


def test_the_last_evening_is_the_unfinished_sessions_played_within_hours_of_the_newest(tmp_path):
    journal, ids = _three_sessions(tmp_path)
    newest = 1_800_000_000.0
    for session, hours_before in zip(ids, (50, 5, 0), strict=True):
        _record_at(journal, session, newest - hours_before * 3600)
    recent, older = last_evening(journal.sessions(unfinished_only=True))
    assert [r.id for r in recent] == ids[1:] and [r.id for r in older] == ids[:1]
    assert last_evening([]) == ([], [])


@pytest.mark.slow
def test_a_bare_resume_brings_back_the_last_evenings_tables_and_names_the_older_ones(tmp_path):
    """A table abandoned two days ago came back with every ``--resume`` (its players long
    gone, it waited in everyone's lobby): a bare ``--resume`` now opens the last evening's
    tables and says how to bring back an older one; ``--resume ID`` does."""
    path = tmp_path / "j.sqlite3"

    async def scenario() -> tuple[Journal, list[int]]:
        journal = Journal(path, durable=False)
        ids = []
        for name in ("Cucina", "Tavern", "Kitchen"):
            hook = Interrupting(journal, 10)
            table = Table(bot_options(name=name, table_id=name.lower()), journal=hook)
            await run_table(table)
            ids.append(hook.session_id(table))
        return journal, ids

    journal, ids = run(scenario())
    now = time.time()
    for session, hours_before in zip(ids, (50, 5, 0), strict=True):
        _record_at(journal, session, now - hours_before * 3600)

    def host_lines(*args: str, opened: int) -> str:
        """What ``president host`` prints until it has opened ``opened`` tables (then it
        is stopped; after 30 s at the latest)."""
        process = subprocess.Popen(
            [sys.executable, "-m", "president", "host", "--no-advertise", "--no-web",
             "--interface", LOCAL, "--port", "0", "--journal", str(path), "--lang", "it",
             *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        watchdog = threading.Timer(30, process.kill)
        watchdog.start()
        lines = []
        try:
            assert process.stdout is not None
            for line in process.stdout:
                lines.append(line)
                if sum(" aperto, " in seen for seen in lines) == opened:
                    break
        finally:
            watchdog.cancel()
            process.kill()
            process.wait(30)
        return "".join(lines)

    shown = host_lines("--resume", opened=2)
    assert "tavolo 'Kitchen' aperto" in shown and "tavolo 'Tavern' aperto" in shown
    assert "'Cucina' aperto" not in shown
    assert (f"non ripreso, di un altro giorno: il tavolo 'Cucina' (ultima mossa "
            f"{datetime.fromtimestamp(now - 50 * 3600):%Y-%m-%d %H:%M}): "
            f"president host --resume {ids[0]}") in shown
    shown = host_lines("--resume", str(ids[0]), opened=1)
    assert "tavolo 'Cucina' aperto" in shown and "Kitchen" not in shown

"""The real host process, SIGKILLed twice in mid-hand and restarted with --resume.

Four bot-driven clients (``my_move``: a fixed sequence of actions for a given seed)
reconnect by themselves with their tokens and finish the session. The journal's
actions and the exported hand history must equal those of the same table played
straight through the engine without interruption.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import sys
from pathlib import Path

import pytest
from security_kit import LOCAL, Raw, play_steadily, run, uninterrupted

from president.actions import action_from_dict
from president.engine import apply, new_session
from president.history import history_lines, replay_history
from president.net.client import Client
from president.net.journal import Journal, restore
from president.rules import load_rules_file
from president.state import Phase

pytestmark = pytest.mark.slow

SEED = 424242
PORT_LINE = re.compile(rb"president join 127\.0\.0\.1:(\d+)")


class HostProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[bytes] = []
        self.port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, *args: str) -> HostProcess:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("PRESIDENT_JOURNAL", None)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "president", "host", "--no-advertise",
            "--interface", LOCAL, *args, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env=env)
        host = cls(process)
        await asyncio.wait_for(asyncio.shield(host.port), 30)
        return host

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for line in self.process.stdout:
            self.lines.append(line)
            found = PORT_LINE.search(line)
            if found and not self.port.done():
                self.port.set_result(int(found.group(1)))
        if not self.port.done():
            self.port.set_exception(RuntimeError(b"".join(self.lines).decode()))

    async def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self.reader

    async def finished(self) -> int:
        code = await asyncio.wait_for(self.process.wait(), 30)
        await self.reader
        return code


def in_mid_hand(hand: int):
    def check(client: Client) -> bool:
        v = client.view
        return v is not None and v.hand_number == hand and v.phase == "play" \
            and len(v.pile) >= 1 and sum(v.counts) >= 10
    return check


def test_sigkilled_host_resumes_and_the_history_equals_an_uninterrupted_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PRESIDENT_PIN", "2468")  # the PIN, at the start and at each resume
    journal_path = tmp_path / "journal.sqlite3"
    rules_path = tmp_path / "rules.toml"
    rules_path.write_text('preset = "classic"\nsession_end = "hands"\nsession_length = 3\n')
    names = ["ann", "bob", "cid", "dee"]
    kills: list[dict] = []
    refusals: list[str] = []

    async def scenario():
        host = await HostProcess.start(
            "--port", "0", "--players", "4", "--bots", "0", "--rules", str(rules_path),
            "--journal", str(journal_path), "--seed", str(SEED), "--grace", "120")
        port = await host.port
        clients = [Client(LOCAL, port, name, pin="2468") for name in names]
        for client in clients:
            await client.connect()
        tokens = [client.token for client in clients]
        playing = [asyncio.ensure_future(play_steadily(c, pause=0.004)) for c in clients]
        for hand in (1, 2):
            await clients[0].wait_for(in_mid_hand(hand), timeout=60)
            await host.kill()
            kills.append(_journal_state(journal_path))
            host = await HostProcess.start("--resume", "--journal", str(journal_path))
            assert await host.port == port  # the journal remembers the port
            stranger = await Raw.open(port)
            refusals.append((await stranger.hello("eve", spectate=True))["code"])
            stranger.abort()
        await asyncio.wait_for(asyncio.gather(*playing), 90)
        code = await host.finished()
        return clients, tokens, code, host

    clients, tokens, code, host = run(scenario(), timeout=150)
    assert code == 0, b"".join(host.lines).decode()
    for client, token in zip(clients, tokens, strict=True):
        assert client.token == token and client.bye.code == "session_over"
    # Both kills landed in a hand in progress (cards on the pile, not between hands).
    assert [k["hand"] for k in kills] == [1, 2]
    assert all(k["phase"] in ("play", "tax") for k in kills), kills

    _, rules = load_rules_file(rules_path)
    expected = uninterrupted(rules, names, SEED)
    journal = Journal(journal_path)
    (record,) = journal.sessions()
    assert record.finished and record.seats[0]["token"] == tokens[0]
    assert refusals == ["wrong_pin", "wrong_pin"]  # the resumed table kept its PIN
    assert journal.actions(record.id) == expected

    # The exported history, through the real command line.
    exported = tmp_path / "export.jsonl"
    from president.cli.main import main
    assert main(["history", "export", str(record.id), "--journal", str(journal_path),
                 "--output", str(exported)]) == 0
    lines = exported.read_text(encoding="utf-8").splitlines()
    assert lines == list(_straight_history(rules, names, expected))
    final, hands = replay_history(lines)
    assert final.phase is Phase.SESSION_OVER and len(hands) == 3
    assert list(final.scores) == list(clients[0].view.scores) == record.scores


def _journal_state(path: Path) -> dict:
    journal = Journal(path)
    try:
        (record,) = journal.sessions(unfinished_only=True)
        state = restore(record, journal.actions(record.id))
        return {"hand": state.hand_number, "phase": state.phase.value}
    finally:
        journal.close()


def _straight_history(rules, names, actions):
    def events():
        state, opening = new_session(rules, names, SEED)
        yield from opening
        for action in actions:
            state, happened = apply(state, action_from_dict(action))
            yield from happened
    return history_lines(rules, "classic", names, SEED, events())


def test_the_host_refuses_a_locked_journal_unless_told_no_journal(tmp_path: Path):
    journal_path = tmp_path / "journal.sqlite3"
    Journal(journal_path).close()
    blocker = sqlite3.connect(journal_path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")

    async def scenario():
        refused = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "president", "host", "--no-advertise", "--interface", LOCAL,
            "--port", "0", "--journal", str(journal_path), stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        said, _ = await asyncio.wait_for(refused.communicate(), 30)
        host = await HostProcess.start("--port", "0", "--journal", str(journal_path),
                                       "--no-journal")
        port = await host.port
        await host.kill()
        return refused.returncode, said.decode(), port

    code, said, port = run(scenario())
    blocker.rollback()
    assert code == 2 and "Another host is using this table's journal." in said
    assert "--no-journal" in said
    assert str(journal_path) in said
    assert port > 0  # without the journal it starts

"""``president host``: headless, logs, prints where to join, exits when the session ends."""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
import sys

from netkit import autoplay, run

from president.cli.main import build_parser
from president.net.client import Client
from president.net.host_command import Printer, serve


def host_args(*extra: str):
    args = build_parser().parse_args(["host", "--no-advertise", "--interface", "127.0.0.1",
                                      *extra])
    args.bot_delay = 0.0
    return args


def test_host_command_runs_a_session_and_journals_it(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text('preset = "classic"\nsession_length = 2\n')
    journal = tmp_path / "journal.sqlite3"
    stream = io.StringIO()
    printer = Printer(stream)

    async def scenario():
        args = host_args("--players", "3", "--bots", "1", "--rules", str(rules), "--name",
                         "Kitchen", "--journal", str(journal), "--seed", "5")
        serving = asyncio.ensure_future(serve(args, printer))
        while "join with:" not in stream.getvalue():
            await asyncio.sleep(0.01)
        port = int(re.search(r"127\.0\.0\.1:(\d+)", stream.getvalue()).group(1))
        clients = [Client("127.0.0.1", port, name) for name in ("Ada", "Bob")]
        for client in clients:
            await client.connect()
        await asyncio.gather(*(autoplay(c, i) for i, c in enumerate(clients)))
        return await serving, clients

    code, clients = run(scenario())
    log = stream.getvalue()
    assert code == 0
    assert all(c.bye["code"] == "session_over" for c in clients)
    for text in ("table 'Kitchen' open", "Ada joined (seat 0)", "Bob joined (seat 1)",
                 "session started: Ada, Bob, Bot 1", "hand 1 over:", "hand 2 over:",
                 "session over; winner(s):"):
        assert text in log, text
    from president.net.journal import Journal
    sessions = Journal(journal).sessions()
    assert len(sessions) == 1 and sessions[0].table_name == "Kitchen"


def test_host_command_refuses_a_bad_table_size():
    result = subprocess.run(
        [sys.executable, "-m", "president.cli.main", "host", "--players", "2", "--no-journal",
         "--no-advertise", "--interface", "127.0.0.1"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--players 2" in result.stdout

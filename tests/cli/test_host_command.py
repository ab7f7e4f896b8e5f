"""``president host``: headless, logs, prints where to join, exits when the session ends."""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
import sys

from netkit import autoplay, run

from president.cli.commands.host import Printer, serve
from president.cli.main import build_parser
from president.net.client import Client
from president.net.pake import short_fingerprint
from president.net.protocol import PROTOCOL_VERSION


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
    assert all(c.bye.code == "session_over" for c in clients)
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
    assert "That number of players is not allowed by these rules." in result.stdout


def test_host_command_advertises_and_updates_the_seats(monkeypatch):
    from president.net import discovery

    published: list[dict[str, str]] = []
    calls: list[str] = []

    class FakeAdvertiser:
        def __init__(self, name, port, addresses, properties, interfaces):
            calls.append(f"init {name} {addresses} {interfaces}")
            published.append(dict(properties))

        async def start(self):
            calls.append("start")

        async def update(self, properties):
            published.append(dict(properties))

        async def stop(self):
            calls.append("stop")

    monkeypatch.setattr(discovery, "TableAdvertiser", FakeAdvertiser)
    monkeypatch.setenv("PRESIDENT_OWNER_TOKEN", "ab" * 16)  # as the lobby starts a host
    monkeypatch.setenv("PRESIDENT_PIN", "99")               # ... and gives it the PIN
    stream = io.StringIO()

    async def scenario():
        args = build_parser().parse_args(
            ["host", "--interface", "127.0.0.1", "--players", "3", "--bots", "1",
             "--no-journal", "--name", "Den"])
        args.bot_delay = 0.0
        serving = asyncio.ensure_future(serve(args, Printer(stream)))
        while "join with:" not in stream.getvalue():
            await asyncio.sleep(0.01)
        port = int(re.search(r"127\.0\.0\.1:(\d+)", stream.getvalue()).group(1))
        first = Client("127.0.0.1", port, "Ada", pin="99")
        await first.connect()
        await first.wait_for(lambda c: True)
        while not any(p["seats"] == "2/3" for p in published):
            await asyncio.sleep(0.01)
        second = Client("127.0.0.1", port, "Bob", pin="99")
        await second.connect()
        await asyncio.gather(autoplay(first, 1), autoplay(second, 2))
        return await serving, first.session.host_key

    code, proved_key = run(scenario())
    assert code == 0
    assert calls[0] == "init Den ['127.0.0.1'] ['127.0.0.1']" and calls[1] == "start"
    assert calls[-1] == "stop"
    url = re.search(r"phones and browsers: (http://127\.0\.0\.1:\d+/#key=[0-9A-F]{16})",
                    stream.getvalue())
    assert url is not None
    # the page's address names the host key, which the printed join command names too
    key = short_fingerprint(proved_key)
    assert url.group(1).endswith(key.replace("-", "")) and f"--key {key}" in stream.getvalue()
    # the owner may sit down from a phone: the page's address with the owner's token
    assert f"{url.group(1)}&owner={'ab' * 16}" in stream.getvalue()
    assert published[0] == {"name": "Den", "seats": "1/3", "preset": "classic",
                            "proto": str(PROTOCOL_VERSION), "pin": "1",  # the bot's seat is taken
                            "web": url.group(1),  # the page for phones
                            "key": proved_key}  # the key the host proved in the handshake
    assert f"host key: {short_fingerprint(proved_key)}" in stream.getvalue()
    seats = [p["seats"] for p in published]
    assert seats.index("2/3") < seats.index("3/3")


def test_a_host_that_cannot_advertise_keeps_its_table_open_for_joining_by_address(tmp_path):
    """No interface but loopback (a fresh network namespace): zeroconf finds no
    address to announce; the host says so and stays up."""
    import shutil
    import threading

    import pytest

    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs unshare and ip (a network namespace)")
    script = (
        "ip link set lo up; exec " + sys.executable + " -m president host --no-journal"
        " --players 3 --bots 2 --name Lonely --port 0"
    )
    process = subprocess.Popen(["unshare", "-n", "sh", "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    watchdog = threading.Timer(30, process.kill)  # never hang: EOF ends the loop below
    watchdog.start()
    try:
        seen = []
        for line in process.stdout:  # type: ignore[union-attr]
            seen.append(line)
            if "cannot advertise" in line:
                break
        assert any("join with: president join" in line for line in seen), seen
        assert any("cannot advertise the table (This computer has no network address to "
                   "offer.)" in line for line in seen), seen  # a sentence, not a code
        assert process.poll() is None, "the host stopped"
    finally:
        watchdog.cancel()
        process.kill()
        process.wait(10)


def test_the_host_types_start_and_bots_fill_the_empty_seats():
    from president.cli.commands.host import _console
    from president.net.host import Host
    from president.net.table import Table, TableOptions

    async def scenario():
        table = Table(TableOptions(seats=4, bots=1, bot_delay=0.0))
        host = Host([table])
        await host.start(["127.0.0.1"], 0)
        stopped = []
        try:
            assert not table.started
            _console(io.StringIO("help\nstart\n"), [table], Printer(io.StringIO()),
                     asyncio.get_running_loop(), lambda: stopped.append(True))
            while not table.started:
                await asyncio.sleep(0.01)
            assert all(seat.robot is not None for seat in table.seats)
            _console(io.StringIO("stop\n"), [table], Printer(io.StringIO()),
                     asyncio.get_running_loop(), lambda: stopped.append(True))
            while not stopped:
                await asyncio.sleep(0.01)
        finally:
            await host.stop()

    run(scenario(), 30)


def test_bots_are_given_by_number_or_by_level():
    import pytest

    from president.bots import HardBot, HeuristicBot, MediumBot
    from president.cli.commands.host import options_from_args
    from president.errors import RulesError
    from president.net.table import Table

    options = options_from_args(host_args("--players", "4", "--bots", "easy,hard",
                                          "--level", "easy", "--bot-budget", "50"))
    assert (options.bots, options.bot_levels, options.bot_kind) == (2, ("easy", "hard"), "easy")
    assert options.bot_budget == 0.05
    table = Table(options)
    assert [seat.level for seat in table.seats] == [None, None, "easy", "hard"]
    assert isinstance(table.seats[2].bot, HeuristicBot)
    assert isinstance(table.seats[3].bot, HardBot) and table.seats[3].bot.budget == 0.05
    counted = options_from_args(host_args("--players", "4", "--bots", "2"))
    assert counted.bot_levels == ("medium", "medium") and counted.bot_kind == "medium"
    assert isinstance(Table(counted).seats[3].bot, MediumBot)
    for spec in ("wizard", "easy,,hard", "5"):
        with pytest.raises(RulesError) as refused:
            options_from_args(host_args("--players", "4", "--bots", spec))
        assert refused.value.params["field"] == "bots"


def test_a_journal_that_fails_mid_session_makes_the_host_exit_non_zero(tmp_path, monkeypatch):
    """'Disk full' in the middle of a hand: the table stops, the host says why and exits
    with a failure status (it used to exit 0 as if the session had ended)."""
    from president.errors import JournalError
    from president.net.journal import Journal

    appended = {"count": 0}
    real_append = Journal.append

    def append(self, *args, **kwargs):
        appended["count"] += 1
        if appended["count"] > 5:
            raise JournalError("journal_unwritable", path="j", detail="No space left on device")
        return real_append(self, *args, **kwargs)

    monkeypatch.setattr(Journal, "append", append)
    stream = io.StringIO()

    async def scenario():
        args = host_args("--players", "3", "--bots", "3", "--journal",
                         str(tmp_path / "journal.sqlite3"), "--seed", "5")
        return await serve(args, Printer(stream))

    code = run(scenario())
    assert code == 3
    assert "stopped: The table's journal cannot be written. The session is not finished." \
        in stream.getvalue()


def test_the_page_keeps_one_address_from_table_to_table():
    """No --web-port: the page takes 8026 when free (the same origin from one table to the
    next: a phone keeps the name and language it typed), another port when it is taken."""
    import pytest

    from president.cli.commands.host import WEB_PORT, Printer, _serve_web
    from president.net.host import Host
    from president.net.table import Table, TableOptions

    async def scenario():
        host = Host([Table(TableOptions(name="Den"))])
        first = await _serve_web(host, ["127.0.0.1"], 0, Printer(io.StringIO()))
        second = await _serve_web(host, ["127.0.0.1"], 0, Printer(io.StringIO()))
        ports = (first.port, second.port, second.listening)
        await first.stop()
        third = await _serve_web(host, ["127.0.0.1"], 0, Printer(io.StringIO()))
        again = third.port
        await second.stop()
        await third.stop()
        return ports, again

    (first, second, listening), again = run(scenario())
    if first != WEB_PORT:
        pytest.skip(f"port {WEB_PORT} is taken on this machine")
    assert second != first and listening
    assert again == WEB_PORT

"""Secrets at rest (issue 25, point 7): no PIN in the journal (a salted hash, the PIN given
again to resume), no PIN on the command line (``--pin`` asks, ``$PRESIDENT_PIN``,
``--pin-file``; ``--pin 1234`` is refused and says why), the data folder is the user's
alone."""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

import pytest
from security_kit import LOCAL, run, short_rules

from president.cli.main import build_parser, main
from president.cli.pins import pin_of
from president.cli.seats import write_private
from president.errors import ClientError, JournalError
from president.net.client import Client
from president.net.host import Host
from president.net.journal import Journal
from president.net.persist import TableJournal, resume_tables
from president.net.table import Table, TableOptions

PIN = "48213579"


def test_a_pin_on_the_command_line_is_refused_and_says_how_to_give_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "join", "127.0.0.1:9", "--pin", "4321"]) == 2
    said = capsys.readouterr().err
    assert "every user of this computer" in said and "PRESIDENT_PIN" in said
    assert main(["--lang", "it", "host", "--pin", "4321"]) == 2
    assert "PRESIDENT_PIN" in capsys.readouterr().err


def args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["join", "127.0.0.1:9", *argv])


def test_the_pin_is_asked_for_read_from_a_file_or_the_environment(tmp_path: Path) -> None:
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return " 7788 "

    assert pin_of(args("--pin"), {}, ask) == "7788" and asked
    (tmp_path / "pin").write_text("5566\nanything else\n")
    assert pin_of(args("--pin-file", str(tmp_path / "pin")), {}) == "5566"
    assert pin_of(args(), {"PRESIDENT_PIN": "1122"}) == "1122"
    assert pin_of(args(), {}) is None
    with pytest.raises(ClientError) as unreadable:
        pin_of(args("--pin-file", str(tmp_path / "none")), {})
    assert unreadable.value.code == "pin_file"


def test_the_journal_keeps_no_pin_and_a_resume_needs_it_again(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"

    async def play() -> None:
        journal = Journal(path)
        table = Table(TableOptions(name="Kitchen", seats=3, bots=2, pin=PIN, seed=3,
                                   rules=short_rules(hands=3), bot_delay=5.0, ready_timeout=0),
                      journal=TableJournal(journal))
        host = Host([table])
        port = await host.start([LOCAL])
        client = Client(LOCAL, port, "Ada", pin=PIN, reconnect=False)
        await client.connect()
        await client.wait_for(lambda c: c.view is not None)
        await host.stop()
        journal.close()

    run(play())
    kept = b"".join(p.read_bytes() for p in tmp_path.iterdir())  # the file, its -wal
    assert PIN.encode() not in kept and b"scrypt" in kept
    journal = Journal(path)
    for given in (None, "11111111"):
        skipped: list[JournalError] = []
        assert resume_tables(journal, skipped=skipped, pin=given) == []
        assert [e.code for e in skipped] == ["pin_needed"]
    [table] = resume_tables(journal, pin=PIN)
    assert table.options.pin == PIN
    journal.close()


def test_the_data_folder_is_closed_to_other_users(tmp_path: Path) -> None:
    folder = tmp_path / "president"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)  # as an older version (or the umask) left it
    write_private(folder / "host_key", b"p256:01")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "host_key").stat().st_mode) == 0o600


def test_a_new_journal_folder_is_the_users_alone(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("PRESIDENT_JOURNAL", raising=False)
    (tmp_path / "president").mkdir(mode=0o755)
    os.chmod(tmp_path / "president", 0o755)
    Journal().close()
    assert stat.S_IMODE((tmp_path / "president").stat().st_mode) == 0o700

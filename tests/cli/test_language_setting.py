"""``--lang`` is remembered: the next command without it speaks the same language."""

from __future__ import annotations

import io
from argparse import Namespace
from typing import Any

from president.cli import settings
from president.cli.commands.host import Printer
from president.cli.main import main
from president.cli.text import text_for
from president.net.journal import Journal


def test_lang_is_remembered_for_the_next_command() -> None:
    assert settings.load().language is None
    player, language = settings.for_command(Namespace(lang="pl", name=None))
    assert language == "pl" and settings.load().language == "pl"
    assert settings.load().name == ""          # the first-run name question still comes
    _, language = settings.for_command(Namespace(lang=None, name=None))
    assert language == "pl"
    _, language = settings.for_command(Namespace(lang="it_IT.UTF-8", name="Bea"))
    assert language == "it" and settings.load().language == "it"
    _, language = settings.for_command(Namespace(lang="xx", name=None))   # unknown: kept
    assert settings.load().language == "it"


def test_replay_and_history_speak_the_saved_language(tmp_path: Any, capsys: Any) -> None:
    history = tmp_path / "a.jsonl"
    assert main(["selfplay", "--players", "4", "--hands", "2", "--seed", "3",
                 "--history", str(history)]) == 0
    capsys.readouterr()
    settings.for_command(Namespace(lang="pl", name=None))      # remembered
    assert main(["replay", str(history)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("rozdanie 1: 1. ") and "(Prezydent, " in out[0]
    assert out[-2].startswith("sesja zakończona po 2 rozdaniach: ")
    assert out[-1] == f"historia poprawna: {history}"
    Journal(tmp_path / "empty.sqlite3").close()
    assert main(["--lang", "nl", "history", "--journal", str(tmp_path / "empty.sqlite3")]) == 0
    assert capsys.readouterr().out == "nog geen sessies\n"


def test_the_host_console_speaks_the_hosts_language(capsys: Any) -> None:
    stream = io.StringIO()
    printer = Printer(stream, text_for("pl"))
    printer("joined", {"name": "Ada", "seat": 0})
    printer("refused", {"code": "wrong_pin"})
    said = stream.getvalue()
    assert "Ada dołącza (miejsce 0)" in said
    assert text_for("pl").reason("wrong_pin", {}) in said and "wrong_pin" not in said
    assert main(["--lang", "it", "host", "--players", "1", "--no-journal", "--no-web",
                 "--no-advertise"]) == 2
    out = capsys.readouterr().out
    assert "president host: Queste regole non ammettono questo numero di giocatori." in out


def test_the_bell_setting_survives_a_restart() -> None:
    settings.save(settings.Settings("Ada", "it", bell=True))
    assert settings.load() == settings.Settings("Ada", "it", bell=True)
    player, _ = settings.for_command(Namespace(lang="nl", name=None))
    assert player.bell and settings.load().bell

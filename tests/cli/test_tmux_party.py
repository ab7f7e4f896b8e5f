"""A party under tmux, in a network namespace: three people and a bot at a table opened
from a lobby. One player's client is killed mid-hand (SIGKILL) and comes back with
``president join``; the owner steps away and comes back from "my tables"; the session
ends with every seat in its place and the host's journal complete."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tmux import PRESIDENT, Tmux, pytestmark  # noqa: F401 - the same marks

LANGUAGES = {"ada": "en", "bea": "nl", "cy": "pl"}
NAMES = {"ada": "Ada", "bea": "Bea", "cy": "Cy"}
PLAY_DEADLINE = 240


def _respawn(tmux: Tmux, who: str, command: str) -> None:
    """The same terminal, the same home: run ``command`` in it again."""
    home = tmux.tmp / who
    env = (f"env PRESIDENT_CONFIG_DIR={home} PRESIDENT_INTERFACES=127.0.0.1 "
           f"PRESIDENT_JOURNAL={home}/journal.sqlite3 PRESIDENT_DATA_DIR={home}/data "
           f"LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color")
    tmux.run("respawn-pane", "-k", "-t", who,
             f"{env} {command} 2>>{home}/stderr; echo EXITED $?; sleep 60")


def _kill_client(tmux: Tmux, who: str) -> None:
    """SIGKILL the client running in ``who``'s terminal (a crash: no goodbye)."""
    shell = int(tmux.run("display-message", "-p", "-t", who, "#{pane_pid}").strip())
    for pid in _children(shell):
        os.kill(pid, signal.SIGKILL)
    tmux.wait(who, "EXITED")


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (from /proc: no procps needed)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == parent:
            found.append(int(stat.parent.name))
    return found


def _name(tmux: Tmux, who: str) -> None:
    tmux.wait(who, "▏")                                  # the first run asks for a name
    tmux.keys(who, *["BSpace"] * 16)
    tmux.keys(who, NAMES[who], "Enter")


def _play_until(tmux: Tmux, players: list[str], done: object, seconds: float) -> None:
    """Everyone plays their lowest set or passes (and readies) until ``done()``."""
    deadline = time.monotonic() + seconds
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "\n\n".join(tmux.screen(p) for p in players)
        for who in players:
            tmux.keys(who, "l", "l", "p", "Enter")
        time.sleep(0.3)


def test_a_party_survives_a_crash_and_the_owner_stepping_away(tmux: Tmux) -> None:
    pytest.importorskip("president.cli.text")
    for who, language in LANGUAGES.items():
        tmux.start(who, f"{PRESIDENT} --lang {language}")
        _name(tmux, who)
    # Ada opens a table: 4 seats, 1 bot, a session of 1 hand
    tmux.wait("ada", "Host a table")
    tmux.keys("ada", "Enter")
    tmux.wait("ada", "Open the table")
    tmux.keys("ada", "Up", "Up", "Up", "Right", "Down", "Right")          # 4 seats, 1 bot
    tmux.wait("ada", "Bot 1")
    tmux.keys("ada", "Down", "Down", "Down", "Down", "Enter")               # More settings
    tmux.wait("ada", "Turn timer")
    # (the turn timer, hints, late arrivals and level rows, the title set, the end)
    tmux.keys("ada", *["Down"] * 7, "Left", "Left", "Left")                # 10 -> 1 hand
    screen = tmux.wait("ada", "◀ 1 hand ▶")
    tmux.keys("ada", *["Up"] * 8, "Enter", "y")                            # Open the table
    screen = tmux.wait("ada", "Others can join at 127.0.0.1:")
    address = re.search(r"127\.0\.0\.1:\d+", screen).group(0)            # type: ignore[union-attr]
    for who in ("bea", "cy"):                                              # found in the lobby
        tmux.wait(who, "Ada's table")
        tmux.keys(who, "Enter")
    players = list(LANGUAGES)
    tmux.wait("ada", "hand 1")                                             # 3 people + 1 bot: dealt
    # a few moves, then Bea's client is killed mid-hand and comes back by itself
    for _ in range(3):
        for who in players:
            tmux.keys(who, "l", "l", "p")
        time.sleep(0.5)
    _kill_client(tmux, "bea")
    _respawn(tmux, "bea", f"{PRESIDENT} --lang nl join {address}")
    tmux.wait("bea", "ronde 1")                                            # back at the table
    assert "(jij)" in tmux.screen("bea")
    # Ada steps away (Ctrl-C, a): the lobby; she comes back from "my tables"
    tmux.keys("ada", "C-c")
    tmux.wait("ada", "e end the session for everyone")
    tmux.keys("ada", "a")
    tmux.wait("ada", "your table")
    assert "EXITED" not in tmux.screen("ada")
    tmux.keys("ada", "Enter")
    tmux.wait("ada", "hand 1")
    # everyone plays the hand out: the session (1 hand) ends for all
    over = {"ada": "The session is over", "bea": "De sessie is voorbij",
            "cy": "Sesja zakończona"}
    _play_until(tmux, players,
                lambda: all(over[w] in tmux.screen(w) for w in players), PLAY_DEADLINE)
    standings = tmux.screen("ada")
    for name in ("Ada", "Bea", "Cy", "Bot 1"):
        assert name in standings, standings
    # the host saw each player sit down once and come back to the same seat
    (log,) = (tmux.tmp / "ada" / "data" / "tables").glob("*.log")
    said = log.read_text()
    for name in ("Bea", "Ada"):
        (joined,) = re.findall(rf"{name} joined \(seat (\d)\)", said)
        assert re.findall(rf"{name} is back \(seat (\d)\)", said) == [joined], said
    # the host's journal holds the whole session, and it replays
    journal = tmux.tmp / "ada" / "journal.sqlite3"
    listing = _president("history", "--journal", str(journal))
    assert "[finished]" in listing and all(n in listing for n in ("Ada", "Bea", "Cy"))
    session = listing.split()[0]
    exported = tmux.tmp / "history.jsonl"
    _president("history", "export", session, "--journal", str(journal),
               "--output", str(exported))
    assert "1" in _president("replay", str(exported))


def _president(*args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "president", *args], capture_output=True,
                            text=True, timeout=60, cwd=Path(__file__).parents[2])
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout

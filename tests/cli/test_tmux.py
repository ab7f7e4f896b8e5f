"""End to end under tmux: the real ``president`` console script in real terminals.

Each test runs its own tmux server (``-L`` socket) and kills only that.
Network: TCP and zeroconf on 127.0.0.1 only (``PRESIDENT_INTERFACES``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from president.cli import hosting

PRESIDENT = Path(sys.executable).with_name("president")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not PRESIDENT.exists(), reason="no president console script"),
]
CAN_UNSHARE = shutil.which("unshare") is not None and os.geteuid() == 0
TIMEOUT = 40.0


class Tmux:
    def __init__(self, tmp: Path, netns: bool = CAN_UNSHARE) -> None:
        self.netns = netns
        self.socket = f"president-test-{uuid.uuid4().hex[:8]}"
        self.tmp = tmp
        self.started = False

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True, timeout=10).stdout

    def start(self, name: str, command: str, columns: int = 80, rows: int = 24) -> None:
        home = self.tmp / name
        home.mkdir()
        env = (f"env PRESIDENT_CONFIG_DIR={home} PRESIDENT_INTERFACES=127.0.0.1 "
               f"PRESIDENT_JOURNAL={home}/journal.sqlite3 PRESIDENT_DATA_DIR={home}/data "
               f"LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color")
        script = f"{env} {command} 2>{home}/stderr; echo EXITED $?; sleep 60"
        # one session (one terminal) per player; the tmux server, and so every
        # program in it, lives in its own network namespace when we may make one:
        # the lobby sees only this test's tables, and nothing leaves the machine.
        args = ["new-session", "-d", "-s", name, "-x", str(columns), "-y", str(rows), script]
        if self.started or not self.netns:
            self.started = True
            self.run(*args)
            return
        self.started = True
        tmux = " ".join(shlex.quote(a) for a in ["tmux", "-L", self.socket, *args])
        subprocess.run(["unshare", "-n", "sh", "-c", f"ip link set lo up && {tmux}"],
                       check=True, timeout=10)

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", name)

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def wait(self, name: str, text: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen(name)
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                stderr = (self.tmp / name / "stderr").read_text(errors="replace")[-2000:]
                raise AssertionError(f"{name}: no {text!r} on screen:\n{screen}\n{stderr}")
            time.sleep(0.1)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        for folder in self.tmp.glob("*/data/tables"):  # tables opened from a lobby live on
            for table in hosting.my_tables(folder):
                hosting.stop(table, now=True)


def _open(tmux: Tmux, name: str, command: str, **size: int) -> None:
    tmux.start(name, command, **size)


@pytest.mark.skipif(not CAN_UNSHARE, reason="needs root and unshare (network namespace)")
@pytest.mark.netns
def test_a_host_and_two_clients_play_a_hand_to_the_end(tmux: Tmux) -> None:
    """Three terminals, three languages: the host sets up a table in its lobby, the
    others find it in theirs; they play a whole hand and each sees the roles in
    their own language."""
    text = pytest.importorskip("president.cli.text")
    languages = {"host": "en", "ann": "it", "bob": "pl"}
    for name, language in languages.items():
        _open(tmux, name, f"{PRESIDENT} --lang {language}")
    for name in languages:  # first run: each is asked for a name, once
        tmux.wait(name, "▏")
        tmux.keys(name, name.capitalize(), "Enter")
    # the host: a table for three humans, no bots, is what the set-up screen offers
    tmux.wait("host", "Host a table")
    tmux.keys("host", "Enter")
    screen = tmux.wait("host", "Table name")
    assert [line.split()[-2] for line in screen.splitlines()
            if line[1:].strip().startswith(("Seats", "Bots"))] == ["3", "0"]
    assert "▸ ▶▶ Open the table" in screen
    tmux.keys("host", "Enter")
    tmux.wait("host", "show it to everyone on this network? y yes")
    tmux.keys("host", "y")
    tmux.wait("host", "Others can join at 127.0.0.1:")
    # the clients find it in their lobby and sit down
    for name in ("ann", "bob"):
        screen = tmux.wait(name, "'s table")
        assert "/3 " in screen
        tmux.keys(name, "Enter")
    # each plays its lowest set, or passes, until the hand is over
    over_words = {name: text.text_for(lang).phase("hand_over") for name, lang in languages.items()}
    deadline = time.monotonic() + 90
    over: set[str] = set()
    while len(over) < len(languages):
        assert time.monotonic() < deadline, "\n".join(tmux.screen(n) for n in languages)
        for name in languages:
            if over_words[name] in tmux.screen(name).splitlines()[0]:
                over.add(name)
            else:
                tmux.keys(name, "l", "l", "p")
        time.sleep(0.2)
    for name, language in languages.items():
        screen = tmux.screen(name)
        words = text.text_for(language)
        for role in ("president", "scum"):
            assert words.role_title(role, "classic") in screen, (name, role, screen)
    assert "Presidente" in tmux.screen("ann") and "Prezydent" in tmux.screen("bob")


@pytest.mark.parametrize(("language", "titles"), [
    ("it", ("Presidente",)),
    ("pl", ("Prezydent",)),
])
def test_role_titles_in_the_players_language(tmux: Tmux, language: str,
                                              titles: tuple[str, ...]) -> None:
    text = pytest.importorskip("president.cli.text")
    if text.text_for(language).role_title("president", "classic") == "President":
        pytest.skip(f"the {language} catalog has no role titles yet")
    _open(tmux, "solo", f"{PRESIDENT} --lang {language} play --bots 3 --seed 4 --name Solo")
    tmux.wait("solo", "(")
    tmux.keys("solo", "?")
    screen = tmux.wait("solo", titles[0])
    for title in titles:
        assert title in screen
    assert "Asshole" not in screen and "Vice President" not in screen

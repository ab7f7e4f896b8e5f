"""The evening end to end under tmux, in a network namespace: a bot-filled table runs;
``president join HOST:PORT --name Fay`` sits Fay in a bot's seat within one hand; Ctrl-Q,
l brings her back to the lobby and the program stays open."""

from __future__ import annotations

import re
import time

import pytest
from test_tmux import CAN_UNSHARE, PRESIDENT, Tmux

pytestmark = [pytest.mark.slow, pytest.mark.netns,
              pytest.mark.skipif(not CAN_UNSHARE, reason="needs root and unshare")]


def test_a_late_arrival_takes_a_bots_seat_and_leaves_for_the_lobby(tmux: Tmux) -> None:
    tmux.start("host", f"{PRESIDENT} host --name Kitchen --players 3 --bots 3 --no-web "
                       "--no-journal --no-advertise --interface 127.0.0.1 --bot-delay 0.05 "
                       "--ready-timeout 1")
    screen = tmux.wait("host", "127.0.0.1:")
    port = re.search(r"127\.0\.0\.1:(\d+)", screen).group(1)          # type: ignore[union-attr]
    tmux.wait("host", "hand 1")                                        # the bots play
    tmux.start("fay", f"{PRESIDENT} join 127.0.0.1:{port} --name Fay")
    tmux.wait("fay", "You take the seat of Bot")
    screen = tmux.wait("fay", "Fay (you)")
    # within one hand Fay plays her seat herself
    own_lines: list[str] = []
    for _ in range(300):
        tmux.keys("fay", "l", "l", "p")
        screen = tmux.screen("fay")
        own_lines = [line for line in screen.splitlines()
                          if re.match(r"(You play|You pass)", line.strip())]
        if own_lines:
            break
        time.sleep(0.2)
    assert own_lines, screen
    tmux.keys("fay", "C-q")
    tmux.wait("fay", "l leave for good")
    tmux.keys("fay", "l")
    screen = tmux.wait("fay", "Host a table")
    assert "President: the lobby" in screen and "EXITED" not in screen

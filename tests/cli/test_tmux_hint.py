"""A hint in a real terminal (issue 28): tmux at 80x24, English, in a network namespace.
At the player's turn ``h`` shows a line starting "Hint" and selects the cards it
names; Enter plays them."""

from __future__ import annotations

import re
import time

import pytest
from test_tmux import CAN_UNSHARE, PRESIDENT, Tmux, pytestmark  # noqa: F401 - the same marks

TURN = "Your turn!"
DEADLINE = 60


@pytest.mark.skipif(not CAN_UNSHARE, reason="needs root and unshare (network namespace)")
@pytest.mark.netns
def test_h_shows_a_hint_selects_its_cards_and_enter_plays_them(tmux: Tmux) -> None:
    tmux.start("solo", f"{PRESIDENT} --lang en play --bots 3 --seed 7 --name Solo")
    deadline = time.monotonic() + DEADLINE
    while True:
        assert time.monotonic() < deadline, tmux.screen("solo")
        tmux.wait("solo", TURN)
        tmux.keys("solo", "h")
        screen = tmux.wait("solo", "Hint: ")
        hint = next(line for line in screen.splitlines() if line.startswith("Hint: "))
        played = re.match(r"Hint: play (.+?): ", hint)
        if played:
            break
        assert hint.startswith("Hint: pass (p): "), hint
        tmux.keys("solo", "p")          # the hint says pass: pass, and wait for a play
        time.sleep(0.5)
    cards = played.group(1)
    assert all(len(line) <= 80 for line in screen.splitlines())
    tmux.keys("solo", "Enter")
    screen = tmux.wait("solo", "You play")
    line = next(line for line in screen.splitlines() if "You play" in line)
    assert line.rstrip(".").endswith(cards), (line, cards)
    assert "Hint: " not in screen   # the next view takes the hint away

"""A wild joker and a 7-pass in a real terminal at 80x24, under tmux, in a network
namespace: ``president play`` with a rules file (wild jokers, runs of three, 7-pass) and
a seed that deals the player the lead with 6♥ 7♠ and a joker but neither a 5 nor an 8.
The player selects the three cards; Enter opens the joker chooser on the most useful
value (8♣, then 5♣); Enter plays the run 6-7-8, whose 7 opens the give screen ('choose
1 card to give to Bot 1'); a rank key and Enter give the 3♣. The screens show the
chooser, the give header, the pile line 'Joker as 8♣', the log's run and its 7-pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.utils import get_cwidth
from test_tmux import CAN_UNSHARE, PRESIDENT, Tmux, pytestmark  # noqa: F401 - the same marks

RULES = """preset = "classic"
jokers = 1
joker_mode = "wild"
sequences = 3
seven_pass = true
"""
SEED = 502     # the player leads: 3♣ 3♥ 6♥ 7♠ 9♥ 10♠ J♥ Q♣ K♣ A♣ A♥ 2♣ 2♦ JK
COLUMNS, ROWS = 80, 24


def _line(screen: str, start: str) -> str:
    """The first line that starts with ``start`` (after a seat's turn mark ▶)."""
    return next((line for line in screen.splitlines()
                 if line.lstrip("▶ ").startswith(start)), "")


def _cards_left(screen: str, seat: str) -> int:
    return int(_line(screen, seat).removeprefix("▶").split(seat, 1)[1].split()[0])


def _fits(screen: str) -> None:
    for line in screen.splitlines():
        assert get_cwidth(line) <= COLUMNS, repr(line)


@pytest.mark.skipif(not CAN_UNSHARE, reason="needs root and unshare (network namespace)")
@pytest.mark.netns
def test_a_wild_joker_is_chosen_and_a_seven_gives_a_card_in_a_real_terminal(
        tmux: Tmux, tmp_path: Path) -> None:
    rules = tmp_path / "wild-seven.toml"
    rules.write_text(RULES, encoding="utf-8")
    tmux.start("tess", f"{PRESIDENT} --lang en play --rules {rules} --seed {SEED} "
               "--name Tess --bots 3", columns=COLUMNS, rows=ROWS)
    screen = tmux.wait("tess", "You lead.")
    hand = screen.splitlines()[-4]
    assert hand.split() == ["3♣", "3♥", "6♥", "7♠", "9♥", "10♠", "J♥", "Q♣", "K♣", "A♣",
                            "A♥", "2♣", "2♦", "JK"], screen
    # the cursor starts on the first card: 6♥ and 7♠ to its right, the joker (last) to
    # its left, round the end
    tmux.keys("tess", "Right", "Right", "Space", "Right", "Space",
              "Left", "Left", "Left", "Left", "Space")
    screen = tmux.wait("tess", "[JK]")
    assert "[6♥] [7♠]" in screen, screen
    tmux.keys("tess", "Enter")
    screen = tmux.wait("tess", "The joker stands for:")
    assert _line(screen, "The joker stands for:").split()[-2:] == ["[8♣]", "5♣"], screen
    assert "Esc back" in screen.splitlines()[-1], screen
    _fits(screen)

    tmux.keys("tess", "Enter")
    screen = tmux.wait("tess", "7-pass: choose 1 card to give to Bot 1 (one per 7 you played), "
                               "then Enter.")
    assert _line(screen, "Pile:") == "Pile: Tess 6♥ 7♠ JK (Joker as 8♣)", screen
    assert "You play a run: 6♥ 7♠ Joker as 8♣." in screen, screen
    assert _cards_left(screen, "Tess (you)") == 11, screen
    assert _line(screen, "Tess (you)").startswith("▶"), screen
    assert _line(screen, "Tess (you)").endswith("choosing to give"), screen
    assert "Enter give" in screen.splitlines()[-1], screen
    _fits(screen)

    tmux.keys("tess", "3")
    tmux.wait("tess", "[3♣]")
    tmux.keys("tess", "Enter")
    screen = tmux.wait("tess", "7-pass: you give 3♣ to Bot 1.")
    assert _cards_left(screen, "Tess (you)") == 10, screen
    assert _line(screen, "Tess (you)").endswith("6♥ 7♠ JK→8♣"), screen
    assert "3♣" not in screen.splitlines()[-4], screen
    _fits(screen)

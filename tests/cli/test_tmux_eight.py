"""Eight at a table at 80x24, under tmux, in a network namespace: a headless host whose
console speaks Dutch, a Dutch and two Polish players in their own terminals, five bots.
They play the first hand out; each player's end-of-hand screen shows every seat, every
finishing place down to the last and the tax to come, the keys in their language, and
no line wider than the terminal."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from prompt_toolkit.utils import get_cwidth
from test_tmux import CAN_UNSHARE, PRESIDENT, Tmux, pytestmark  # noqa: F401 - the same marks

from president.cli.text import text_for

PLAYERS = {"daan": ("Daan", "nl"), "ewa": ("Ewa", "pl"), "olek": ("Olek", "pl")}
COLUMNS, ROWS = 80, 24
DEADLINE = 90


def template(message: str) -> re.Pattern[str]:
    """A catalog message with its ``{fields}`` as wildcards."""
    parts = re.split(r"\{\w+\}", message)
    return re.compile(".+?".join(re.escape(part) for part in parts))


@pytest.mark.skipif(not CAN_UNSHARE, reason="needs root and unshare (network namespace)")
@pytest.mark.netns
def test_eight_players_see_the_whole_end_of_a_hand_at_80x24(tmux: Tmux) -> None:
    tmux.start("host", f"{PRESIDENT} --lang nl host --name Feest --players 8 --bots 5 "
               "--level easy --bot-delay 0 --ready-timeout 0 --no-web --no-advertise "
               "--interface 127.0.0.1 --seed 7", columns=COLUMNS, rows=ROWS)
    console = tmux.wait("host", "127.0.0.1:")
    address = re.search(r"127\.0\.0\.1:\d+", console).group(0)          # type: ignore[union-attr]
    for who, (name, language) in PLAYERS.items():
        tmux.start(who, f"{PRESIDENT} --lang {language} join {address} --name {name}",
                   columns=COLUMNS, rows=ROWS)
    words = {who: text_for(language) for who, (_, language) in PLAYERS.items()}
    over = {who: w.tr.gettext("Hand {number} is over. Finishing order:").format(number=1)
            for who, w in words.items()}
    deadline = time.monotonic() + DEADLINE
    done: set[str] = set()
    while len(done) < len(PLAYERS):
        assert time.monotonic() < deadline, "\n\n".join(tmux.screen(w) for w in PLAYERS)
        for who in PLAYERS:
            if who in done:
                continue
            if over[who] in tmux.screen(who):
                done.add(who)
            else:
                tmux.keys(who, "l", "l", "p")
        time.sleep(0.2)
    names = {name for name, _ in PLAYERS.values()} | {f"Bot {n}" for n in range(1, 6)}
    orders = []
    for who in PLAYERS:
        first = tmux.screen(who)
        rows = first.splitlines()
        seated = {name for name in names if any(r[2:].startswith(name) for r in rows[1:9])}
        assert seated == names, first
        orders.append(end_of_hand(tmux, who, words[who].tr, names))
    assert orders[0] == orders[1] == orders[2]


def end_of_hand(tmux: Tmux, who: str, tr: Any, names: set[str]) -> list[str]:
    """Page through ``who``'s end-of-hand summary (PageDown): every screen fits 80
    columns and shows the keys in the player's language; the summary reaches its last
    place and both tax lines. Returns the finishing order."""
    place = template(tr.gettext("{place}. {name}: {title}, score {score}"))
    tax = [template(tr.ngettext("Next hand: {giver} gives their best card to {receiver}.",
                                "Next hand: {giver} gives their {n} best cards to {receiver}.",
                                n)) for n in (1, 2)]
    keys = [tr.gettext("Enter ready"), tr.gettext("t chat"), tr.gettext("? help")]
    seen: list[str] = []
    for _ in range(4):
        screen = tmux.screen(who)
        lines = screen.splitlines()
        for line in lines:
            assert get_cwidth(line) <= COLUMNS, f"{who}: {line!r}"
            if set(line) != {"─"}:               # only the rules touch the last column
                assert get_cwidth(line) < COLUMNS, f"{who}: cut? {line!r}\n{screen}"
        footer = [line for line in lines if line.strip()][-1]
        assert all(key in footer for key in keys) and "help" not in footer, f"{who}: {footer!r}"
        seen.extend(lines)
        print(f"--- {who} ---\n{screen}")             # the captures, with pytest -s
        tmux.keys(who, "NPage")
        time.sleep(0.3)
    order = []
    for number in range(1, 9):
        found = next((line for line in seen if place.fullmatch(line)
                      and line.startswith(f"{number}. ")), None)
        assert found is not None, f"{who}: no place {number}\n" + "\n".join(seen)
        order.append(found.split(":")[0].removeprefix(f"{number}. "))
    assert set(order) == names, order
    taxes = {line for line in seen if any(t.fullmatch(line) for t in tax)}
    assert len(taxes) == 2, f"{who}: {taxes}\n" + "\n".join(seen)
    return order

"""The seat left holding cards when a hand ends above the bottom places (forbidden
finishes, a downfall) is told apart from one that went out: its ``out`` event says
``holding``, and the text reads 'is left holding cards', not 'is out of cards'."""

from __future__ import annotations

import json
from collections import Counter

from test_history_golden import CASES, history

from president.cli.text import Text
from president.events import Event


def test_the_seat_left_holding_cards_above_the_bottom_is_marked() -> None:
    rules, players, seed = CASES["daihinmin-local-5"]
    lines = [json.loads(line) for line in history(rules, players, seed).decode().splitlines()]
    sent_down: Counter[int] = Counter(line["hand"] for line in lines
                                      if line.get("type") in ("forbidden", "downfall"))
    holding = [line for line in lines if line.get("type") == "out" and line.get("holding")]
    assert holding, "no hand of the case ended with seats at the bottom"
    for line in holding:
        assert line["place"] == players - sent_down[line["hand"]], line
    for line in lines:  # a hand without bottom places marks nobody
        if line.get("type") == "out" and not sent_down[line["hand"]]:
            assert "holding" not in line, line


def test_the_text_says_who_is_left_holding_cards() -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    left = Event("out", {"hand": 1, "seat": 1, "place": 2, "holding": True})
    assert Text("en").event(left, names, 0) == "Bob is left holding cards: place 2."
    assert Text("it").event(left, names, 1) == "Resti con le carte in mano: 2º posto."
    went = Event("out", {"hand": 1, "seat": 1, "place": 2})
    assert Text("en").event(went, names, 0) == "Bob is out of cards: place 2."

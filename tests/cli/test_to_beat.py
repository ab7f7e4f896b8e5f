"""'To beat' while following (issue 28): one line says what beats the pile under the rules
in force; the first hands teach the rank keys."""

from __future__ import annotations

import pytest
from cli_fakes import FakeBridge

from president.actions import Play
from president.cards import Rank, Suit
from president.cli.text import BEAT_ORDER, Text
from president.combos import make_combo
from president.locks import Lock
from president.rules import HouseRules

EXPECTED = {
    "en": "To beat: a pair above Q · or pass",
    "it": "Per battere: una coppia sopra Q · oppure passa",
    "nl": "Om te verslaan: een paar boven V · of pas",
    "pl": "Do przebicia: para wyższa niż Q · albo pas",
}


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_a_pair_of_queens_to_beat_in_four_languages(language: str) -> None:
    text = Text(language)
    pair = make_combo("set", 2, Rank.QUEEN)
    assert text.to_beat(pair, HouseRules(), False, False, None, True) == EXPECTED[language]
    assert "·" not in text.to_beat(pair, HouseRules(), False, False, None, False)


def test_the_rules_in_force_are_named() -> None:
    text = Text("en")
    single = make_combo("set", 1, Rank.NINE, Suit.HEARTS)
    # (the order reversed: the lower ranks beat, and the rule that reversed it is named)
    assert text.to_beat(single, HouseRules(), True, False, None, True) == (
        "To beat: a single below 9 (revolution) · or pass")
    assert text.to_beat(single, HouseRules(), True, True, None, True) == (
        "To beat: a single below 9 (11-back) · or pass")
    assert text.to_beat(make_combo("set", 2, Rank.NINE), HouseRules(equal_rank="allowed"),
                        True, False, None, False) == "To beat: a pair of 9 or below (revolution)"
    assert text.to_beat(make_combo("run", 3, Rank.SEVEN), HouseRules(sequences=3), True,
                        False, None, True) == (
        "To beat: a run of 3 cards below 7 (revolution) · or pass")
    assert text.to_beat(single, HouseRules(), False, True, None, False) == (
        "To beat: a single above 9 (11-back: the usual order again)")
    locked = text.to_beat(single, HouseRules(), False, False, Lock((Suit.HEARTS,), False), True)
    assert locked == "To beat: a single above 9 · locked ♥ · or pass"
    equal = text.to_beat(single, HouseRules(equal_rank="allowed"), False, False, None, True)
    assert equal == "To beat: a single of 9 or above · or pass"
    run = make_combo("run", 3, Rank.SEVEN)
    assert text.to_beat(run, HouseRules(sequences=3), False, False, None, True) == (
        "To beat: a run of 3 cards above 7 · or pass")
    assert Text("pl").to_beat(make_combo("set", 5, Rank.FIVE), HouseRules(), False, False,
                              None, False) == "Do przebicia: 5 kart jednej wartości wyższych niż 5"


BELOW = {   # the Dutch line that did not fit 80 columns (an 11-back on a 4)
    "en": "To beat: a single below 4 (11-back) · or pass",
    "it": "Per battere: una singola sotto 4 (rovescio del fante) · oppure passa",
    "nl": "Om te verslaan: een enkele kaart onder 4 (boerenrevolutie) · of pas",
    "pl": "Do przebicia: pojedyncza karta niższa niż 4 (walet) · albo pas",
}


@pytest.mark.parametrize("language", sorted(BELOW))
def test_under_an_11_back_the_lower_cards_beat_in_four_languages(language: str) -> None:
    line = Text(language).to_beat(make_combo("set", 1, Rank.FOUR, Suit.HEARTS), HouseRules(),
                                  True, True, None, True)
    assert line == BELOW[language]
    assert len(line) <= 79


def test_the_header_says_what_beats_the_pile_and_the_first_hand_teaches_a_rank_key(
        run_ui) -> None:
    bridge = FakeBridge(seed=5)
    seen: dict[str, str] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table = ui.table
        await d.until(lambda: table.my_turn and not table.busy and table.view.top is not None
                      and table.view.hand_number == 1, "my turn to follow")
        seen["screen"] = await d.rendered()
        seen["can_play"] = "yes" if table.legal_of(Play) else ""

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))
    lines = seen["screen"].splitlines()
    assert any(line.startswith("To beat: a ") for line in lines), seen["screen"]
    tips = [line for line in lines if line.startswith("Tip: ") and "selects your" in line]
    assert bool(tips) == bool(seen["can_play"]), seen["screen"]


@pytest.mark.parametrize("language", sorted(BELOW))
def test_the_terminal_line_gives_up_the_rules_name_then_or_pass_to_fit(language: str) -> None:
    """At 80 columns an 11-back under a suit lock did not fit in Italian, Dutch and Polish
    ("… · oppure pa…"): the rule's name goes first (the title says it), then "or pass"."""
    from types import SimpleNamespace

    from president.actions import Pass
    from president.cli.terminal.layout import to_beat_line

    text = Text(language)
    top = make_combo("set", 3, Rank.TEN)
    lock = Lock((Suit.CLUBS, Suit.HEARTS, Suit.SPADES), False)
    model = SimpleNamespace(text=text, rules=HouseRules(), can=lambda kind: kind is Pass,
                            view=SimpleNamespace(top=top, reversed=True, back=True, lock=lock))
    whole = text.to_beat(top, HouseRules(), True, True, lock, True)
    assert to_beat_line(model, 200) == whole
    line = to_beat_line(model, 79)
    assert len(line) <= 79
    assert line.startswith(text.to_beat(top, HouseRules(), True, True, None, False,
                                        order_note=False))   # what to play, whole
    if len(whole) <= 79:
        assert line == whole
    else:
        assert text.tr.gettext(BEAT_ORDER["back"]) not in line

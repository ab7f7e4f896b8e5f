"""Every special rule says why, where it happens (issue 28): each message names its rule
and its reason, in the four languages."""

from __future__ import annotations

import pytest

from president.cli.text import Text
from president.events import Event

LANGUAGES = ("en", "it", "nl", "pl")
# The rule's name, as the catalog's older line names it, and the card of each reason.
FORBIDDEN = {"en": "Forbidden finish", "it": "Uscita vietata", "nl": "Verboden uitgaan",
             "pl": "Zakazane zakończenie"}
JOKER = {"en": "joker", "it": "jolly", "nl": "joker", "pl": "joker"}
LAST = {"en": "last card", "it": "non si può chiudere",
        "nl": "laatste kaart", "pl": "ostatnią kartą"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_forbidden_finish_names_the_rule_the_card_and_why(language: str) -> None:
    text = Text(language)
    names = ["Ann", "Bea", "Cy", "Dee", "Eve"]
    lines = {}
    for why, extra in (("joker", {}), ("best", {"rank": "2"}), ("best", {"rank": "3"}),
                       ("eight", {}), ("spade_three", {})):
        event = Event("forbidden", {"hand": 2, "seat": 1, "place": 5, "why": why, **extra})
        for seat in (1, 0):
            line = text.event(event, names, seat)
            assert line.startswith(FORBIDDEN[language]) and "5" in line, line
            assert ("Bea" in line) == (seat == 0), line
            lines[(why, extra.get("rank"), seat)] = line
    assert JOKER[language] in lines[("joker", None, 0)].lower()
    assert " 2" in lines[("best", "2", 0)] and " 3" in lines[("best", "3", 0)]
    assert ("ósemk" if language == "pl" else "8") in lines[("eight", None, 0)]
    for (why, _, _), line in lines.items():
        if why != "spade_three":
            assert LAST[language] in line, line
    assert len(set(lines.values())) == len(lines)
    old = text.event(Event("forbidden", {"hand": 2, "seat": 1, "place": 5}), names, 0)
    assert old.startswith(FORBIDDEN[language]) and old not in lines.values()

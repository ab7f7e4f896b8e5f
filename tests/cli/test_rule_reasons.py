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


MEANINGS = {"en": "Daifugō — the grand millionaire", "it": "Daifugō — il gran milionario",
            "nl": "Daifugō — de grootmiljonair", "pl": "Daifugō — wielki milioner"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_japanese_titles_say_what_they_mean(language: str) -> None:
    text = Text(language)
    assert text.role_title_explained("president", "daifugo") == MEANINGS[language]
    explained = {text.role_title_explained(role, "daifugo")
                 for role in ("president", "vice_president", "neutral", "vice_scum", "scum")}
    assert len(explained) == 5 and all(" — " in title for title in explained)
    assert text.role_title_explained("president", "classic") == text.role_title(
        "president", "classic")   # a title in the player's language needs no gloss


@pytest.mark.parametrize(("language", "joker"), [("en", "Joker"), ("it", "Jolly"),
                                                 ("nl", "Joker"), ("pl", "Joker")])
def test_a_lone_joker_is_named_in_the_sentence(language: str, joker: str) -> None:
    line = Text(language).event(Event("play", {"hand": 1, "seat": 1, "cards": "JK"}),
                                ["Ann", "Bea"], 0)
    assert joker in line and "JK" not in line, line


def test_help_opens_on_the_rule_the_last_event_showed(run_ui) -> None:
    from cli_fakes import FakeBridge

    from president.cli.terminal.layout import help_lines, rule_scroll

    bridge = FakeBridge(seed=5)
    seen: dict[str, object] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table = ui.table
        d.keys("?")
        await d.until(lambda: table.help_open, "the help")
        seen["plain"] = ui.help_state.scroll
        d.keys("\x1b")
        await d.until(lambda: not table.help_open, "the help closed")
        table.event(Event("revolution", {"hand": 1, "reversed": True}))
        d.keys("?")
        await d.until(lambda: table.help_open, "the help again")
        seen["scroll"] = ui.help_state.scroll
        seen["screen"] = await d.rendered()
        seen["lines"] = help_lines(table)
        seen["expected"] = rule_scroll(table, 74)

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "daihinmin", None))
    assert seen["plain"] == 0
    assert seen["scroll"] == seen["expected"] and int(seen["scroll"]) > 0
    assert "  Revolution: " in str(seen["screen"]), seen["screen"]

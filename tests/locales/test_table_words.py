"""The table's words: seat statuses, places and titles fit their columns, and no
sentence about a player assumes the player's gender (Italian, Polish)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from babel.messages.pofile import read_po

from president.cli.terminal import layout
from president.cli.terminal.model import TableModel
from president.cli.text import ROLE_TITLES, Text
from president.cli.ui_text import load_texts
from president.engine import new_session
from president.events import Event
from president.roles import Role
from president.rules import ALLOWED, PRESETS
from president.view import View, view

LANGUAGES = ("en", "it", "nl", "pl")
# Widths the screens give these words today (cli/terminal/layout.py, setup_screen.py,
# lobby.py): what is longer is cut.
STATUS_WIDTH = 20  # the seat line's last column at 80 columns
TITLE_WIDTH = 16
LABEL_WIDTH = 34  # set-up screen labels
PRESET_WIDTH = 20  # the lobby's preset column

# Forms that agree with the gender of the player they are about (case ignored).
GENDERED = {
    # (not the noun of the rule "Uscita vietata", the forbidden finish, nor "ultimo posto",
    # which agrees with the place)
    "it": r"\b(pront[oa]|uscit[oa](?! vietata)|arrivat[oa]|sedut[oa]|saltat[oa]|rimast[oa]"
          r"|entrat[oa]|stat[oa]|disconness[oa]|collegat[oa]|rifiutat[oa]|benvenut[oa]|vincitor\w*"
          r"|ultim[oa](?! posto)|prim[oa])\b",
    "pl": r"\b(gotow[ya]|graczowi|gracza|zwycięzc\w*|pominięt[ya]|ostatni|pierwszy"
          r"|\w+(łeś|łaś))\b|\{name\} \w+ła?\b",
}
PLAYER_FIELDS = re.compile(r"\{(name|names|giver|receiver)\}")


def table_model(language: str, **changes: Any) -> TableModel:
    state, _ = new_session(PRESETS["classic"], ["Anna", "Bob", "Cleo", "Dario"], 1)
    tr, text = load_texts(language)
    model = TableModel(tr, text, clock=lambda: 100.0)
    model.table = SimpleNamespace(turn_timer=30, rules=state.rules)  # type: ignore[assignment]
    data = view(state, 0).to_dict()
    data.update(changes)
    model.view_changed(View.from_dict(data, state.rules))
    model.turn_since = 100.0
    return model


def seat_statuses(language: str) -> dict[str, str]:
    """Every status the seat column shows, for seat 1."""
    shown = {
        "to play": table_model(language, turn=1),
        "passed": table_model(language, passed=[1]),
        "tax": table_model(language, phase="tax", tax_pending=[1]),
        "ready": table_model(language, phase="hand_over", ready=[1]),
        "out": table_model(language, finished=[2, 3, 1], counts=[13, 0, 0, 0]),
        # never went out: placed at the hand's end with cards; sent to the bottom
        "holding": table_model(language, finished=[2, 3, 0, 1], counts=[0, 4, 0, 0]),
        "bottom": table_model(language, finished=[2], bottom=[1], counts=[5, 0, 0, 4]),
        "give": table_model(language, turn=1, choosing=[1, "give", 2, 2]),
        "discard": table_model(language, turn=1, choosing=[1, "discard", 1, None]),
    }
    return {what: layout.seat_state(model, 1) for what, model in shown.items()}


@pytest.mark.parametrize("language", LANGUAGES)
def test_seat_statuses_fit_their_column(language: str) -> None:
    statuses = seat_statuses(language)
    assert all(statuses.values()), statuses
    for what, status in statuses.items():
        assert len(status) <= STATUS_WIDTH, (what, status)


@pytest.mark.parametrize(("language", "third", "event"), [
    ("it", "3º", "Hai finito le carte: 3º posto."),
    ("nl", "3e", "Je kaarten zijn op: plaats 3."),
    ("pl", "3. miejsce", "Nie masz już kart: 3. miejsce."),
])
def test_places_are_the_languages_ordinals(language: str, third: str, event: str) -> None:
    assert seat_statuses(language)["out"] == third
    out = Event("out", {"hand": 1, "seat": 0, "place": 3})
    assert Text(language).event(out, ["Anna", "Bob", "Cleo", "Dario"], 0) == event


@pytest.mark.parametrize("language", ("it", "pl"))
def test_seat_statuses_name_no_gender(language: str) -> None:
    for what, status in seat_statuses(language).items():
        assert not re.search(GENDERED[language], status, re.I), (what, status)
    assert seat_statuses("pl")["ready"] == "gotowe ✓"


@pytest.mark.parametrize("language", ("it", "pl"))
def test_no_sentence_about_a_player_assumes_a_gender(tool: Any, language: str) -> None:
    """Messages that name a player, address the reader or describe a seat."""
    with tool.po_path(language).open("rb") as handle:
        catalog = read_po(handle, locale=language, domain="president")
    statuses = {"to play", "passed", "choosing tax cards", "ready", "out #{place}",
                "choosing to give", "choosing to discard",
                "(away, a bot plays)", "(left, a bot plays)", "(disconnected)",
                "Disconnected", "Disconnected: {reason}", "Refused ({code})."}
    checked, found = 0, []
    for message in catalog:
        source = message.id if isinstance(message.id, str) else message.id[0]
        if not source or message.context:
            continue
        if not (PLAYER_FIELDS.search(source) or source in statuses
                or re.match(r"(Your?|Welcome)\b", source)):
            continue
        checked += 1
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [form for form in forms if re.search(GENDERED[language], form, re.I)]
    assert checked > 60
    assert not found, found


def test_the_gender_patterns_bite() -> None:
    it, pl = GENDERED["it"], GENDERED["pl"]
    for old in ("pronto", "Sei già seduto", "Disconnesso"):
        assert re.search(it, old, re.I), old
    for old in ("gotowy", "Cleo daje 5 kart graczowi Dario.", "Stół gracza Anna",
                "{name} spasował.", "Wygrałeś!"):
        assert re.search(pl, old, re.I), old


@pytest.mark.parametrize("language", LANGUAGES)
def test_titles_labels_and_preset_names_fit_their_columns(language: str) -> None:
    text = Text(language)
    titles = {text.role_title(role, title_set) for title_set in ROLE_TITLES for role in Role}
    assert max(map(len, titles)) <= TITLE_WIDTH, sorted(titles, key=len)[-1]
    labels = [text.rule_name(field) for field in ALLOWED]
    assert max(map(len, labels)) <= LABEL_WIDTH, max(labels, key=len)
    presets = [text.preset_name(name) for name in PRESETS]
    assert max(map(len, presets)) <= PRESET_WIDTH, max(presets, key=len)


@pytest.mark.parametrize(("count", "line"), [
    (1, "Cleo → Dario: 1 karta."), (2, "Cleo → Dario: 2 karty."), (5, "Cleo → Dario: 5 kart."),
    (12, "Cleo → Dario: 12 kart."), (22, "Cleo → Dario: 22 karty."),
])
def test_polish_tax_lines_keep_the_receiver_in_the_nominative(count: int, line: str) -> None:
    tax = Event("tax", {"hand": 2, "from": 2, "to": 3, "count": count})
    assert Text("pl").event(tax, ["Anna", "Bob", "Cleo", "Dario"], 0) == line
    mine = Event("tax", {"hand": 2, "from": 0, "to": 3, "cards": "3H 4D"})
    assert Text("pl").event(mine, ["Anna", "Bob", "Cleo", "Dario"], 0) == (
        "Dario dostaje od ciebie 3♥ 4♦.")


def test_a_seat_that_never_went_out_is_shown_holding_cards() -> None:
    """Issue 28: placed at the hand's end with cards in hand is not 'out'; a seat sent to
    the bottom (a forbidden finish, a downfall) is the last place."""
    statuses = seat_statuses("en")
    assert (statuses["out"], statuses["holding"], statuses["bottom"]) == (
        "out #3", "holding cards (#4)", "last place (#4)")

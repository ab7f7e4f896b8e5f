"""The terminal asks what a wild joker stands for (``joker_mode = wild``): keys and mouse."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from prompt_toolkit.formatted_text import fragment_list_to_text
from prompt_toolkit.keys import Keys
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from president.actions import Action, Play
from president.cards import parse_cards
from president.cli.terminal import layout
from president.cli.terminal.keys import make_bindings
from president.cli.terminal.model import TableModel
from president.cli.ui_text import load_texts
from president.combos import classify
from president.engine import new_session
from president.net.protocol import TableInfo
from president.rules import HouseRules
from president.state import Phase, PileEntry
from president.view import view

RUNS = HouseRules(jokers=2, joker_mode="wild", sequences=3)


def wild_model(hand: str, rules: HouseRules = RUNS, language: str = "en",
               pile: str = "") -> TableModel:
    """Seat 0 leads holding ``hand`` under ``rules`` (or plays on ``pile``, P1's)."""
    state, _ = new_session(rules, ("P0", "P1", "P2", "P3"), 1)
    hands = (parse_cards(hand), parse_cards("3D 3H"), parse_cards("4D 4H"), parse_cards("8D"))
    state = replace(state, phase=Phase.PLAY, hands=hands, turn=0, tax_due=(), tax_log=())
    if pile:
        top = parse_cards(pile)
        combo = classify(top, rules, False)
        assert not isinstance(combo, str)
        state = replace(state, pile=(PileEntry(1, top),), top=combo, last_player=1)
    tr, text = load_texts(language)
    model = TableModel(tr, text)
    model.table = TableInfo(
        id="main", name="Test", preset="custom", rules=rules, seats=4,
        players=("P0", "P1", "P2", "P3"), bots=(False,) * 4, connected=(True,) * 4,
        started=True, over=False, pin=False, spectators=0, proto=6, turn_timer=0)
    model.view_changed(view(state, 0))
    return model


def select(model: TableModel, cards: str) -> None:
    model._select_cards(parse_cards(cards))


def test_a_joker_with_one_possible_value_is_played_at_once() -> None:
    model = wild_model("5C 5D JK 9H")
    select(model, "5C 5D JK")
    action = model.confirm_action()
    assert action == Play(0, parse_cards("5C 5D JK"), parse_cards("5H"))
    assert model.declaring is None


def test_enter_opens_the_chooser_on_the_most_useful_value() -> None:
    model = wild_model("5C 6D JK 9H")
    select(model, "5C 6D JK")
    assert model.selection_hint() is None  # not "say what the joker is": Enter asks
    assert model.confirm_action() is None
    assert model.declaring == [parse_cards("7C"), parse_cards("4C")]  # 5-6-7 before 4-5-6
    shown = fragment_list_to_text(layout.message_fragments(model, None))
    assert shown.startswith("The joker stands for:") and "[7♣]" in shown and " 4♣ " in shown
    keys = fragment_list_to_text(layout.keys_fragments(model))
    assert "Enter play" in keys and "Esc back" in keys
    model.move_declaration(1)
    assert model.declaration_action() == Play(0, parse_cards("5C 6D JK"), parse_cards("4C"))
    assert model.declaring is None


def test_a_selection_no_value_makes_a_play_of_says_why() -> None:
    model = wild_model("5C 9D JK 9H")
    select(model, "5C 9D JK")
    assert model.selection_hint() == model.text.reason("joker_no_play")
    assert model.confirm_action() is None and model.declaring is None
    assert model.message == "These cards make no play, whatever the joker stands for."


def test_a_joker_in_place_of_a_held_card_is_explained_before_and_after_enter() -> None:
    """6-7 and a joker while holding every 5 and every 8: the joker would make the run
    only as a card of the hand, which it never stands for (not 'say what the joker
    is'); so would a king beside a hand of all four kings."""
    hand = "5C 5D 5H 5S 6C 7H 8C 8D 8H 8S KC KD KH KS JK"
    rules = HouseRules(jokers=1, joker_mode="wild", sequences=3)
    model = wild_model(hand, rules)
    select(model, "6C 7H JK")
    assert model.selection_hint() == "A joker stands only for a card you do not hold."
    assert model.confirm_action() is None and model.declaring is None
    assert model.message == "A joker stands only for a card you do not hold."
    select(model, "KS JK")
    assert model.selection_hint() == "A joker stands only for a card you do not hold."
    italian = wild_model(hand, rules, language="it")
    select(italian, "6C 7H JK")
    assert italian.selection_hint() == "Il jolly può valere solo una carta che non hai in mano."


def test_a_joker_may_be_a_card_of_a_rank_the_hand_holds_in_another_suit() -> None:
    """Holding the 5 and the 8 of spades, 6-7 and a joker make a run with the joker as
    the 8 or the 5 of clubs (a card the hand lacks: issue 31)."""
    model = wild_model("5S 6C 7H 8S JK", HouseRules(jokers=1, joker_mode="wild", sequences=3))
    select(model, "6C 7H JK")
    assert model.selection_hint() is None
    assert model.confirm_action() is None
    assert model.declaring == [parse_cards("8C"), parse_cards("5C")]
    assert model.declaration_action() == Play(0, parse_cards("6C 7H JK"), parse_cards("8C"))


def test_a_joker_that_cannot_beat_the_pile_says_so() -> None:
    model = wild_model("5C 6D JK", pile="QC QD")
    select(model, "5C JK")
    assert model.selection_hint() == "That does not beat the top of the pile."
    assert model.confirm_action() is None and model.declaring is None
    assert model.message == "That does not beat the top of the pile."


KEYS = {"enter": Keys.ControlM, "escape": Keys.Escape, "left": Keys.Left, "right": Keys.Right}


def press(ui: Any, key: str) -> None:
    """Run the binding prompt_toolkit would for ``key`` (the last added that is active)."""
    bindings = [b for b in make_bindings(ui).get_bindings_for_keys((KEYS[key],))
                if b.filter()]
    assert bindings, key
    bindings[-1].handler(SimpleNamespace(key_sequence=[SimpleNamespace(key=key)], data=key))


def fake_ui(model: TableModel) -> tuple[Any, list[Action | None]]:
    sent: list[Action | None] = []
    ui = SimpleNamespace(screen="table", editor=None, table=model, send=sent.append)
    return ui, sent


def test_keys_choose_the_value_and_escape_goes_back() -> None:
    model = wild_model("5C 6D JK 9H")
    ui, sent = fake_ui(model)
    select(model, "5C 6D JK")
    press(ui, "enter")
    assert sent == [None] and model.declaring is not None
    press(ui, "escape")
    assert model.declaring is None and model.selected  # back to the selection
    press(ui, "enter")
    press(ui, "right")
    assert model.declare_index == 1
    press(ui, "left")
    press(ui, "enter")
    assert sent[-1] == Play(0, parse_cards("5C 6D JK"), parse_cards("7C"))


def test_a_click_on_a_value_plays_it() -> None:
    model = wild_model("5C 6D JK 9H")
    clicked: list[int] = []
    select(model, "5C 6D JK")
    model.confirm_action()
    fragments = layout.message_fragments(model, None, clicked.append)
    handlers = [f[2] for f in fragments if len(f) > 2]
    assert len(handlers) == 2
    handlers[1](MouseEvent(position=None, event_type=MouseEventType.MOUSE_UP,  # type: ignore[arg-type]
                           button=None, modifiers=frozenset()))  # type: ignore[arg-type]
    assert clicked == [1]
    assert model.declaration_action(clicked[0]) == Play(
        0, parse_cards("5C 6D JK"), parse_cards("4C"))


def test_the_chooser_speaks_every_language() -> None:
    for language, word in (("it", "Jolly"), ("nl", "joker"), ("pl", "joker")):
        model = wild_model("5C 6D JK 9H", language=language)
        select(model, "5C 6D JK")
        model.confirm_action()
        shown = fragment_list_to_text(layout.message_fragments(model, None))
        assert word.lower() in shown.lower(), (language, shown)
        assert "Esc" in fragment_list_to_text(layout.keys_fragments(model))


def test_the_log_and_the_help_say_what_the_joker_stood_for() -> None:
    from president.cli.text import text_for
    from president.events import Event

    event = Event("play", {"hand": 1, "seat": 1, "cards": "5C 5D JK", "declared": "5H"})
    lines = {language: text_for(language).event(event, ["Ann", "Bob"], 0)
             for language in ("en", "it", "nl", "pl")}
    assert lines["en"] == "Bob plays three of a kind: 5♣ 5♦ Joker as 5♥."
    assert "Jolly come 5♥" in lines["it"] and "als 5♥" in lines["nl"]
    assert "jako 5♥" in lines["pl"]
    model = wild_model("5C 6D JK 9H", language="nl")
    assert any("joker" in line.lower() and "Esc" in line for line in layout.help_lines(model))
    plain = wild_model("5C 6D JK 9H", rules=HouseRules(jokers=1), language="nl")

    def keys(lines: list[str]) -> list[str]:
        return lines[:lines.index("Huisregels van deze tafel")]

    assert len(keys(layout.help_lines(plain))) == len(keys(layout.help_lines(model))) - 1


def test_a_seat_shows_what_its_wild_joker_stood_for() -> None:
    state, _ = new_session(RUNS, ("P0", "P1", "P2", "P3"), 1)
    hands = (parse_cards("9H 10H"), parse_cards("3D 3H"), parse_cards("4D 4H"), parse_cards("8D"))
    state = replace(state, phase=Phase.PLAY, hands=hands, turn=1, tax_due=(), tax_log=(),
                    pile=(PileEntry(0, parse_cards("5C 5D JK"), parse_cards("5H")),))
    model = wild_model("5C 6D JK 9H")
    model.view_changed(view(state, 1))
    assert layout.seat_state(model, 0) == "5♣ 5♦ JK→5♥"
    assert "(Joker as 5♥)" in fragment_list_to_text(layout.trick_fragments(model))


def test_the_help_lists_the_rules_in_force_only() -> None:
    from president.rules import preset

    local = layout.help_lines(wild_model("5C 6D JK 9H", rules=preset("daihinmin_local")))
    classic = layout.help_lines(wild_model("5C 6D 9H", rules=preset("classic")))
    for name in ("8-cut: on", "7-pass: on", "Suit lock (shibari): suits", "Joker strength: wild"):
        assert any(line.strip() == name for line in local), name
        assert not any(line.strip().startswith(name.split(":")[0] + ":") for line in classic)
    assert not any(line.strip().startswith(("Bomb:", "Transparent threes:")) for line in local)
    assert any(line.strip().startswith("Tax:") for line in classic)  # always in force
    assert "(the rules that are off are not listed)" in "\n".join(classic)

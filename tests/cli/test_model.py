"""The UI model and the table's text, without a running application."""

from __future__ import annotations

from dataclasses import replace

import pytest
from prompt_toolkit.formatted_text import fragment_list_to_text

from president.actions import Decree, Pass, Play
from president.cards import parse_cards
from president.cli.terminal import layout
from president.cli.terminal.fit import Viewport
from president.cli.terminal.model import LineEdit, Seen, TableModel
from president.cli.ui_text import load_texts
from president.combos import classify
from president.engine import new_session
from president.events import Event
from president.net.protocol import TableInfo
from president.rules import PRESETS
from president.view import View, view


def model_with(seed: int = 1, players: int = 4, **changes) -> TableModel:
    state, _ = new_session(PRESETS["classic"], [f"P{i}" for i in range(players)], seed)
    tr, text = load_texts("en")
    clock = [100.0]
    model = TableModel(tr, text, clock=lambda: clock[0])
    model.clock_value = clock  # type: ignore[attr-defined]
    data = view(state, 0).to_dict()
    data.update(changes)
    if "pile" in changes and "top" not in changes:  # the top is the last set on the pile
        pile = changes["pile"]
        combo = classify(parse_cards(pile[-1][1]), state.rules, False) if pile else None
        data["top"] = None if combo is None else [combo.kind, combo.size, combo.rank.symbol,
                                                  combo.suit.symbol if combo.suit else None]
    model.view_changed(View.from_dict(data, state.rules))
    model.status_changed(Seen.CONNECTED)     # a view came: the table is there
    return model


TABLE = TableInfo(id="main", name="Test", preset="classic", rules=PRESETS["classic"],
                  seats=4, players=("P0", "P1", "P2", "P3"), bots=(False,) * 4,
                  connected=(True,) * 4, started=True, over=False, pin=False, spectators=0,
                  proto=2, turn_timer=0)


def event(data: dict) -> Event:
    return Event(data["type"], {key: value for key, value in data.items() if key != "type"})


def text_of(fragments) -> str:
    return fragment_list_to_text(fragments)


def test_the_hand_is_sorted_by_the_current_order() -> None:
    hand = "3C 2D AS 10H JK"
    normal = model_with(hand=hand, reversed=False)
    assert [str(c) for c in normal.hand_cards()] == ["3C", "10H", "AS", "2D", "JK"]
    revolution = model_with(hand=hand, reversed=True)
    assert [str(c) for c in revolution.hand_cards()] == ["2D", "AS", "10H", "3C", "JK"]
    banner = revolution.tr.gettext("REVOLUTION: order reversed")
    assert banner in text_of(layout.title_fragments(revolution))
    assert banner not in text_of(layout.title_fragments(normal))


def test_rank_keys_select_as_many_as_the_pile_asks() -> None:
    model = model_with(hand="5C 5D 5H 9S", pile=[[1, "4C 4D"]], turn=0, phase="play")
    model.select_rank("5")
    assert model.selection_text() == "5C 5D"
    model.select_rank("5")
    assert model.selection_text() == "5C"
    model.select_rank("5")
    assert model.selection_text() == "5C 5D 5H"
    model.select_rank("K")
    assert model.message  # no king in hand: says so


def test_only_legal_plays_are_sent() -> None:
    model = model_with(hand="5C 5D 9S", pile=[[1, "7C"]], turn=0, phase="play",
                       legal=[{"type": "play", "seat": 0, "cards": "9S"},
                              {"type": "pass", "seat": 0}])
    model.select_rank("5")
    assert model.confirm_action() is None
    assert model.message == model.text.reason("too_low", {})
    model.select_rank("9")
    assert model.confirm_action() == Play(0, parse_cards("9S"))
    assert model.pass_action() == Pass(0)


def test_the_timer_counts_down_for_the_player_to_move() -> None:
    model = model_with(turn=2, phase="play")
    model.table = replace(TABLE, turn_timer=30)
    assert "30" in layout.seat_state(model, 2)
    model.clock_value[0] += 12.5  # type: ignore[attr-defined]
    assert "18" in layout.seat_state(model, 2)
    assert layout.seat_state(model, 1) == ""


def test_end_of_hand_and_session_summaries() -> None:
    model = model_with(phase="hand_over", roles=["scum", "president", "vice_scum",
                                                 "vice_president"], scores=[-3, 3, -2, 2])
    model.event(event({"type": "hand_end", "hand": 1, "order": [1, 3, 2, 0],
                       "roles": ["scum", "president", "vice_scum", "vice_president"],
                       "scores": [-3, 3, -2, 2]}))
    shown = text_of(layout.summary_fragments(model))
    lines = shown.splitlines()
    assert lines[1].startswith("1. P1") and "President" in lines[1]
    assert "P0 gives their 2 best cards to P1" in shown
    assert "P2 gives their best card to P3" in shown
    model.view_changed(replace(model.view, phase="session_over"))
    model.event(event({"type": "session_end", "scores": [-3, 9, -2, 2], "winners": [1]}))
    final = text_of(layout.summary_fragments(model))
    first = [line for line in final.splitlines() if line.startswith("1.")][0]
    assert "P1" in first and "★" in first


def test_the_decree_is_only_for_the_president() -> None:
    model = model_with(phase="hand_over", legal=[{"type": "ready", "seat": 0}])
    assert not model.may_decree()
    assert model.message == model.text.reason("not_president", {})
    model = model_with(phase="hand_over", legal=[{"type": "decree", "seat": 0, "text": ""}])
    assert model.may_decree()
    assert model.decree_action("  Everyone sings  ") == Decree(0, "Everyone sings")
    assert model.decree_action("   ") is None


def test_card_letters_of_the_players_language_select_ranks() -> None:
    model = model_with(hand="JC QD KH AS")
    tr, text = load_texts("nl")
    model.tr, model.text = tr, text
    queen = text.rank("Q")
    assert queen == "V"  # vrouw
    assert model.rank_for_letter(queen.lower()) == "Q"
    assert model.rank_for_letter(text.rank("K")) == "K"
    assert model.rank_for_letter("z") is None


def test_the_log_scrolls_back_and_stays_put_while_events_arrive() -> None:
    model = model_with()
    for seat in range(4):
        model.event(event({"type": "pass", "hand": 1, "seat": seat}))
    newest = len(model.log) - 1
    port = Viewport()
    port.width, port.height = 80, 3
    assert text_of(layout.log_fragments(model, port)).splitlines()[-1] == model.log[newest]
    model.scroll_log(2)
    shown = text_of(layout.log_fragments(model, port)).splitlines()
    assert shown[-2] == model.log[newest - 2] and "2" in shown[-1]
    model.event(event({"type": "pass", "hand": 1, "seat": 1}))
    shown = text_of(layout.log_fragments(model, port)).splitlines()
    assert shown[-2] == model.log[newest - 2]  # the same lines stay in view
    assert len(shown) == 3
    model.scroll_log(-100)
    assert text_of(layout.log_fragments(model, port)).splitlines()[-1] == model.log[-1]


def test_up_raises_and_down_lowers_the_card_under_the_cursor() -> None:
    model = model_with(hand="3C 5D 9S")
    model.move(1)
    model.set_selected(True)
    model.set_selected(True)
    assert model.selection_text() == "5D"
    model.move(1)
    model.set_selected(True)
    model.move(-1)
    model.set_selected(False)
    assert model.selection_text() == "9S"


def test_an_illegal_selection_says_why_before_enter() -> None:
    model = model_with(hand="5C 5D 9S", pile=[[1, "7C"]], turn=0, phase="play",
                       legal=[{"type": "play", "seat": 0, "cards": "9S"},
                              {"type": "pass", "seat": 0}])
    assert model.selection_hint() is None
    model.select_rank("5")
    assert model.selection_hint() == model.text.reason("too_low", {})
    assert text_of(layout.message_fragments(model, None)) == model.selection_hint()
    model.select_rank("9")
    assert model.selection_hint() is None


def test_seats_show_who_is_away_left_or_disconnected_and_what_bots_played() -> None:
    model = model_with()
    model.table = replace(TABLE, states=("playing", "away", "left", "disconnected"),
                          standin_hands=(0, 2, 1, 0))
    notes = [layout.seat_note(model, s) for s in range(4)]
    assert notes == [" (you)", " (away, a bot plays)", " (left, a bot plays)",
                     " (disconnected)"]
    model.view_changed(replace(model.view, phase="session_over"))
    model.event(event({"type": "session_end", "scores": [0, 5, -1, 1], "winners": [1]}))
    final = text_of(layout.summary_fragments(model)).splitlines()
    assert [line for line in final if "P1" in line][0].endswith("(a bot played 2 hands)")
    assert [line for line in final if "P2" in line][0].endswith("(a bot played 1 hand)")
    assert not [line for line in final if "P3" in line][0].endswith(")")


def test_the_log_says_when_a_bot_or_the_timer_moved_for_a_player() -> None:
    model = model_with()
    pass_of = event({"type": "pass", "seat": 2})
    model.event(pass_of, "standin")
    model.event(pass_of, "timeout")
    model.event(event({"type": "pass", "seat": 0}), "standin")
    model.event(pass_of)
    assert list(model.log)[-4:] == ["A bot plays for P2: P2 passes.", "Time's up: P2 passes.",
                              "A bot plays for you: You pass.", "P2 passes."]


def test_the_leave_question_fits_who_asks() -> None:
    model = model_with()
    model.leave_asked = True
    guest = text_of(layout.message_fragments(model, None))
    model.owner = True
    owner = text_of(layout.message_fragments(model, None))
    model.hosted_here = True
    window = text_of(layout.message_fragments(model, None))
    assert guest.startswith("a step away") and "e end the session" not in guest
    assert "e end the session for everyone" in owner and "l leave for good" in owner
    assert window.startswith("Close this table and go back to the lobby?")


def test_the_end_of_a_session_is_not_a_disconnection() -> None:

    model = model_with()
    model.status_changed(Seen.CLOSED, "session_over")
    assert layout.status_text(model) == ""
    assert "Disconnected" not in text_of(layout.title_fragments(model))
    model.status_changed(Seen.CLOSED, "host_stopping")
    assert layout.status_text(model) == "Disconnected: The host is shutting down."
    model.status_changed(Seen.CLOSED, None)
    assert layout.status_text(model) == "Disconnected"


def test_typing_replaces_a_suggested_name_and_enter_keeps_it() -> None:

    field = LineEdit("Your name:", "root", on_done=None)
    field.insert("B")
    field.insert("ea")
    assert field.text == "Bea"
    kept = LineEdit("Your name:", "root", on_done=None)
    assert kept.text == "root"
    erased = LineEdit("Your name:", "root", on_done=None)
    erased.backspace()
    erased.insert("Cy")
    assert erased.text == "Cy"
    empty = LineEdit("PIN:", "", on_done=None)
    empty.insert("12")
    empty.backspace()
    assert empty.text == "1"


def test_a_refused_join_says_why_and_the_way_back_without_game_keys() -> None:

    tr, text = load_texts("it")
    model = TableModel(tr, text)
    model.status_changed(Seen.REFUSED, "wrong_pin")
    body = text_of(layout.waiting_fragments(model))
    keys = text_of(layout.keys_fragments(model))
    assert text.reason("wrong_pin") in body and "Esc" in body
    assert tr.gettext("Waiting for the table…") not in body
    assert tr.gettext("p pass") not in keys and tr.gettext("Esc back to the lobby") in keys


def test_keys_offered_are_the_keys_that_do_something() -> None:

    waiting = TableModel(*load_texts("en"))
    waiting.table, waiting.owner = replace(TABLE, started=False), True
    waiting.status_changed(Seen.CONNECTED)
    assert text_of(layout.keys_fragments(waiting)).startswith("s start now · o change")
    owing_nothing = model_with(phase="tax", tax_owed=0)
    assert "Enter give back" not in text_of(layout.keys_fragments(owing_nothing))
    out = model_with(hand="", phase="play")
    assert "p pass" not in text_of(layout.keys_fragments(out))


def test_an_eleven_back_is_named_in_the_title_not_as_a_revolution() -> None:
    back = model_with(hand="3C 9D", reversed=True, back=True, phase="play")
    title = text_of(layout.title_fragments(back))
    assert "11-BACK: order reversed for this trick" in title
    assert "REVOLUTION" not in title
    # an 11-back during a revolution turns the order back to the usual one for the trick
    both = model_with(hand="3C 9D", reversed=False, back=True, phase="play")
    assert "11-BACK: usual order for this trick" in text_of(layout.title_fragments(both))
    polish = model_with(hand="3C 9D", reversed=True, back=True, phase="play")
    polish.tr, polish.text = load_texts("pl")
    assert "WALET: odwrócona kolejność" in text_of(layout.title_fragments(polish))


@pytest.mark.parametrize("language", ["en", "it", "nl", "pl"])
def test_a_lost_connection_shows_whole_beside_an_order_banner(language: str) -> None:
    """At a party the host's window was closed during an 11-back: the title read
    "… FANTE: ordine invertito per la presa  Conne…" in every language."""
    model = model_with(hand="3C 9D", reversed=True, back=True, phase="play")
    model.table = replace(TABLE, name="Kitchen")
    model.tr, model.text = load_texts(language)
    model.status_changed(Seen.LOST)
    title = text_of(layout.title_fragments(model))
    assert model.tr.gettext("Connection lost: reconnecting…") in title, title
    assert len(title) <= 80
    banner = model.tr.gettext("11-BACK: order reversed for this trick")
    assert banner in title or banner[:8] not in title, title   # whole or not at all


@pytest.mark.parametrize("language", ["en", "it", "nl", "pl"])
def test_the_order_banner_shows_whole_beside_a_long_table_name(language: str) -> None:
    """The title gives up its phase, then cuts the table's name, before the banner that
    says the order is turned ("To beat" leaves the rule's name to it on a narrow screen):
    in Dutch it read "… · Spelen  BOER: volgorde omgekeerd (deze stape…"."""
    model = model_with(hand="3C 9D", reversed=True, back=True, phase="play")
    model.table = replace(TABLE, name="Bartholomew's kitchen table")
    model.tr, model.text = load_texts(language)
    title = text_of(layout.title_fragments(model))
    assert model.tr.gettext("11-BACK: order reversed for this trick") in title, title
    assert title.lstrip().startswith("Bartholomew") and len(title) <= 80
    short = model_with(hand="3C 9D", reversed=True, back=True, phase="play")
    short.table = replace(TABLE, name="Kitchen")
    short.tr, short.text = model.tr, model.text
    whole = text_of(layout.title_fragments(short))   # room for all: all of it
    assert model.text.phase("play") in whole and "…" not in whole, whole


def test_a_rank_key_picks_the_suits_a_suit_lock_asks_for() -> None:
    """Under a lock to hearts, '3' selects the 3♥, not the first 3 (3♣) the lock refuses;
    without a lock the first; a pair takes the locked suits too."""
    from president.cards import Suit
    from president.locks import Lock
    from president.state import Phase, PileEntry

    rules = replace(PRESETS["classic"], suit_lock="suits")
    state, _ = new_session(rules, ["P0", "P1", "P2", "P3"], 1)
    hands = (parse_cards("3C 3H 3S 4C 4D 4H 4S 9D"), *state.hands[1:])
    for pile, lock, single, pair in (
            ("2H", Lock((Suit.HEARTS,)), "3H", None),
            ("2C 2S", Lock((Suit.CLUBS, Suit.SPADES)), None, "4C 4S"),
            ("2H", None, "3C", None)):
        top = parse_cards(pile)
        combo = classify(top, rules, True)        # (the order reversed: a 2 is low)
        assert not isinstance(combo, str)
        locked = replace(state, phase=Phase.PLAY, hands=hands, turn=0, tax_due=(),
                         tax_log=(), pile=(PileEntry(1, top),), top=combo, last_player=1,
                         lock=lock, reversed=True)
        tr, text = load_texts("en")
        model = TableModel(tr, text)
        model.view_changed(view(locked, 0))
        model.select_rank("3" if single else "4")
        assert model.selection_text() == (single or pair), (pile, lock)


def test_the_hands_summary_says_who_was_sent_to_the_bottom_and_why() -> None:
    """P0 went out first with a forbidden play and P2, the last President, fell: the
    summary's bottom places say so (the log lines that did are gone by then)."""
    model = model_with(phase="hand_over", roles=["scum", "president", "vice_scum",
                                                 "vice_president"], scores=[-3, 3, -2, 2])
    model.event(event({"type": "deal", "hand": 1, "dealer": 3}))
    model.event(event({"type": "forbidden", "hand": 1, "seat": 0, "place": 4}))
    model.event(event({"type": "downfall", "hand": 1, "seat": 2, "place": 3, "cards": "5C"}))
    model.event(event({"type": "hand_end", "hand": 1, "order": [1, 3, 2, 0],
                       "roles": ["scum", "president", "vice_scum", "vice_president"],
                       "scores": [-3, 3, -2, 2]}))
    lines = text_of(layout.summary_fragments(model)).splitlines()
    assert lines[1] == "1. P1: President, score 3"
    assert lines[3] == "3. P2: Vice Asshole, score -2 (downfall)"
    assert lines[4] == "4. P0: Asshole, score -3 (forbidden finish)"
    model.event(event({"type": "deal", "hand": 2, "dealer": 0}))  # a new hand forgets
    assert layout.sent_down_note(model, 0) == ""


def test_the_owner_is_asked_for_a_late_arrivals_seat_by_the_askers_name() -> None:
    from dataclasses import replace

    model = model_with()
    model.owner = True
    model.table = replace(TABLE, players=("P0", "P1", "Bot 1", "P3"), seat_requests=(2,),
                          late_askers=(None, None, "Fay", None))
    asked = text_of(layout.message_fragments(model, None))
    assert asked == "Fay arrived late and asks for the seat of Bot 1: y give it · n refuse"
    model.table = replace(model.table, late_askers=())
    assert "asks for their seat from another device" in text_of(
        layout.message_fragments(model, None))

"""Hints (issue 28): h selects the medium bot's play from our view and says why; a second
h the next idea; Enter plays it; the owner's table may turn hints off."""

from __future__ import annotations

from dataclasses import replace

import pytest
from cli_fakes import FakeBridge

from president.actions import Play
from president.bots.medium import MediumBot
from president.cli.text import HINT_REASONS, Text

PREFIX = {"en": "Hint: ", "it": "Suggerimento: ", "nl": "Wenk: ", "pl": "Podpowiedź: "}


@pytest.mark.parametrize("language", ("en", "nl"))
def test_h_selects_the_bots_play_says_why_and_enter_plays_it(run_ui, language: str) -> None:
    bridge = FakeBridge(seed=5)
    seen: dict[str, object] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table = ui.table
        await d.until(lambda: table.my_turn and not table.busy and table.legal_of(Play),
                      "my turn with a play")
        view = table.view
        expected = MediumBot(memory=table.memory).suggest(view)
        d.keys(ui.text.hint_key())
        await d.until(lambda: table.message, "a hint")
        seen["message"], seen["selected"] = table.message, table.selected_cards()
        seen["screen"] = await d.rendered()
        first = expected[0]
        seen["expected"] = first.action
        if len(expected) > 1:
            d.keys(ui.text.hint_key())
            await d.until(lambda: table.message != seen["message"], "the next idea")
            second = expected[1].action
            seen["second"] = (second, table.selected_cards(), table.message)
            d.keys(ui.text.hint_key() * (len(expected) - 1))   # round to the first again
            await d.until(lambda: table.message == seen["message"], "the first idea again")
        d.keys("\r" if isinstance(first.action, Play) else "p")
        await d.until(lambda: table.view is not view, "the play sent")
        seen["hand"] = table.view.hand

    run_ui(scenario, bridge=bridge, language=language,
           start=lambda ui: ui.play_bots(3, "classic", None))
    message, expected = str(seen["message"]), seen["expected"]
    assert message.startswith(PREFIX[language]), message
    assert any(line.startswith(PREFIX[language].strip()) for line in
               str(seen["screen"]).splitlines())
    if isinstance(expected, Play):
        assert seen["selected"] == expected.cards
        assert Text(language).cards(expected.cards) in message
        assert not set(expected.cards) & set(seen["hand"])  # played
    if "second" in seen:
        second, selected, text = seen["second"]  # type: ignore[misc]
        assert text.startswith(PREFIX[language])
        assert selected == (second.cards if isinstance(second, Play) else ())


def test_every_reason_reads_in_every_language() -> None:
    for language in ("en", "it", "nl", "pl"):
        text = Text(language)
        lines = set()
        for code in HINT_REASONS:
            line = text.hint("play", "5C 5D", code, {"keep": "2C 2H"})
            assert line.startswith(PREFIX[language]) and "{" not in line, line
            assert ("2♣ 2♥" in line) == (code in ("lead_low", "follow_low", "pass_keep"))
            lines.add(line)
        assert len(lines) == len(HINT_REASONS)  # each reason its own words
        assert "(p)" in text.hint("pass", "", "pass_only")


def test_the_hint_key_is_no_card_letter() -> None:
    for language in ("en", "it", "nl", "pl"):
        text = Text(language)
        letters = {text.rank(face).lower() for face in ("J", "Q", "K", "A")}
        assert len(text.hint_key()) == 1 and text.hint_key() not in letters
        assert text.tr.gettext("h hint").startswith(text.hint_key() + " ")


def test_no_hint_when_the_table_turns_them_off(run_ui) -> None:
    bridge = FakeBridge(seed=5)
    seen: dict[str, object] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table = ui.table
        await d.until(lambda: table.my_turn and not table.busy, "my turn")
        table.table = replace(table.table, hints=False)
        d.keys("h")
        await d.until(lambda: table.message, "a refusal")
        seen["message"], seen["selected"] = table.message, set(table.selected)
        seen["keys"] = (await d.rendered()).splitlines()[-1]

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))
    assert seen["message"] == "Hints are turned off at this table."
    assert seen["selected"] == set()
    assert "h hint" not in str(seen["keys"])


def test_after_a_hint_to_pass_enter_passes() -> None:
    """Enter does what the hint shown says: with nothing selected after "pass (p)", it
    passes (before, it said "choose cards first"); without that hint it still does not."""
    from screens import Acting, after_play, make_ui, press, render, seat_at

    from president.actions import Pass
    from president.rules import HouseRules

    ui = make_ui("en", 80, 24)   # Bea led the 2♠; Tester holds 4♣ 5♦
    model = seat_at(ui, after_play("2S", ["4C 5D", "6C 7C", "2S 3H"], HouseRules(), seat=2))
    ui.connection = connection = Acting()
    press(ui, "\r")
    assert connection.sent == [] and model.message == ui.text.reason("empty_play")
    press(ui, "h")
    assert model.message == "Hint: pass (p): nothing you hold beats the pile."
    assert "Hint: pass (p)" in render(ui).text
    press(ui, "\r")
    assert connection.sent == [Pass(0)]

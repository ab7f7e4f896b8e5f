"""The letters printed on the cards are the keys that select them, in every language."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from cli_fakes import FakeBridge

from president.cli.terminal.keys import make_bindings
from president.cli.terminal.model import RANK_KEYS
from president.cli.text import Text

LANGUAGES = ("en", "it", "nl", "pl")
FACES = ("J", "Q", "K", "A")
# The rule books' letters: [000] and [003] print 2 A K Q J, [001] 2 A H V B, [002] A K Q J.
BOOK_LETTERS = {"en": "J Q K A", "it": "J Q K A", "nl": "B V H A", "pl": "J Q K A"}


def command_keys() -> set[str]:
    """The printable keys that do something other than select a rank at the table
    (before the first deal, during a hand, and the owner's at the end of the session;
    help closed)."""
    keys: set[str] = set()
    for view, owner in ((None, False), ({"phase": "play"}, False),
                        ({"phase": "session_over"}, True)):
        ui = SimpleNamespace(screen="table", editor=None,
                             table=SimpleNamespace(help_open=False, view=view, declaring=None,
                                                     leave_asked=False, owner=owner,
                                                     seat_request=None, may_play_again=owner,
                                                     web_url="http://x/"))
        for binding in make_bindings(ui).bindings:
            if binding.handler.__name__ == "_rank" or not binding.filter():
                continue
            keys |= {key for key in binding.keys if isinstance(key, str) and len(key) == 1}
    return keys


def test_the_command_keys_are_found() -> None:
    commands = command_keys()
    assert {"c", "d", "g", "l", "p", "r", "s", "u", "?"} <= commands
    assert "q" not in commands  # closes the help only
    assert not set(RANK_KEYS) & commands


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_card_letters_are_the_rule_books_and_clash_with_no_command(language: str) -> None:
    text = Text(language)
    letters = [text.rank(face) for face in FACES]
    assert " ".join(letters) == BOOK_LETTERS[language]
    commands = command_keys()
    for letter in letters:
        assert len(letter) == 1 and letter.isalpha(), letter
        assert letter.lower() not in commands and letter.upper() not in commands, letter
    assert len({letter.lower() for letter in letters}) == len(letters)
    # the joker's corner label fits a card (three cells with the suit-less box)
    assert 1 <= len(text.rank("JK")) <= 3


@pytest.mark.parametrize("language", ("it", "nl", "pl"))
def test_typing_a_card_letter_selects_that_rank(run_ui, language: str) -> None:
    bridge = FakeBridge(seed=4)  # the first hand holds a jack, a queen, a king and an ace
    seen: dict[str, Any] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table, text = ui.table, ui.text
        held = {card.rank.symbol for card in table.hand_cards()}
        for face in FACES:
            if face not in held:
                continue
            d.keys(text.rank(face).lower())
            await d.until(lambda: table.selected or table.message or ui.editor, face)
            chosen = {table.hand_cards()[i].rank.symbol for i in table.selected}
            seen[face] = (chosen, table.message, ui.editor)
            d.keys("c")
            await d.until(lambda: not table.selected, "a cleared selection")
        screen = await d.rendered()
        seen["keys_line"] = screen.splitlines()[-1]
        seen["letters"] = " ".join(text.rank(f) for f in FACES)

    run_ui(scenario, bridge=bridge, language=language, columns=120,
           start=lambda ui: ui.play_bots(3, "classic", None))
    assert all(face in seen for face in FACES), seen
    for face in FACES:
        assert seen[face] == ({face}, None, None), (face, seen[face])
    assert f"3-9 0 {seen['letters']} 2 " in str(seen["keys_line"])
